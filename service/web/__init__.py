"""Everything Flask: the app factory (``service.web.app.create_app``), one
blueprint per resource, reading requests, problems, probes and metrics."""
