"""The HTTP service around the games of ``domain``: the service layer
(``games``), what callers see (``views``), who they are (``auth``), live
streams, storage (``postgres``), the web edge (``web``) and operations (``ops``)."""
