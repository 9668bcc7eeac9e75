"""What every HTML page the service serves is answered with (the web
client's files, the front page, the rules): nothing may be loaded from
elsewhere, no referrer is sent, and the browser asks again each time."""

from __future__ import annotations

HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
