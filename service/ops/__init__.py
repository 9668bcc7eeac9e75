"""Operating the service: the ``casino`` command, ``casino serve``'s gunicorn,
transcripts, and the integrity checks behind ``verify``."""
