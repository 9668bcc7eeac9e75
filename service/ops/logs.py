"""One JSON object per log line, for log shippers.

The app only emits records; ``casino serve`` routes them through
``JsonFormatter`` (see ``service.ops.serve``). A record's ``fields``
extra becomes top-level members, and a record made while a request is being
served carries that request's id.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from flask import g, has_app_context

from service import jsonio


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if has_app_context() and "request_id" in g:
            line["request_id"] = g.request_id
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return jsonio.dumps(line, default=str).decode()


def skip_unused_record_fields() -> None:
    """Stop ``logging`` from working out, for every record, what
    ``JsonFormatter`` never writes: the source line that logged it (a walk
    up the stack) and the thread and process names. These are the switches
    the logging HOWTO lists under "Optimization"; they are process-wide, so
    the server sets them, not the app factory."""
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
