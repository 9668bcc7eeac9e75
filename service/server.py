"""gunicorn, configured in code, serving the app."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gunicorn.app.base import BaseApplication

from service.app import create_app
from service.logs import skip_unused_record_fields


class Server(BaseApplication):
    """Runs gunicorn with ``options``; each worker serves ``create_app(app_config)``."""

    def __init__(self, options: Mapping[str, Any], app_config: Mapping[str, Any]):
        self._options = dict(options)
        self._app_config = dict(app_config)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self):
        skip_unused_record_fields()
        return create_app(self._app_config)
