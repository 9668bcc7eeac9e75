"""The allowances of what one client address may do that costs others
(``service.rates``): register a player, join a game as a guest, call a
game off as a guest. Past one, 429 ``too_many_requests`` with
``Retry-After``, before anything is written.
"""

from __future__ import annotations

import math

from flask import Flask, current_app

from service.rates import Allowance
from service.web import clients
from service.web.problems import ApiProblem

#: Each action's setting: how many of it one address may do in any ``RATE_WINDOW_SECONDS``.
SETTINGS = {"registration": "REGISTRATIONS_PER_ADDRESS", "guest_join": "GUEST_JOINS_PER_ADDRESS",
            "guest_abort": "GUEST_ABORTS_PER_ADDRESS"}
#: Each action in the words of the refusal.
_DOING = {"registration": "register players", "guest_join": "join games as a guest",
          "guest_abort": "call games off as a guest"}
_KEY = "casino.allowances"


def init_app(app: Flask) -> None:
    """Each app counts its own (a worker's)."""
    window = float(app.config["RATE_WINDOW_SECONDS"])
    app.extensions[_KEY] = {action: Allowance(int(app.config[setting]), window)
                            for action, setting in SETTINGS.items()}


def spend(action: str) -> None:
    """Count ``action`` (a key of ``SETTINGS``) for the request's client address, or refuse it with 429."""
    allowance: Allowance = current_app.extensions[_KEY][action]
    wait = allowance.take(clients.request_address())
    if wait:
        seconds = math.ceil(wait)
        raise ApiProblem(429, "too_many_requests",
                         f"Your address may {_DOING[action]} at most {allowance.limit} times in"
                         f" {math.ceil(allowance.window / 60)} minutes. Try again in {seconds} seconds.",
                         headers={"Retry-After": str(seconds)})
