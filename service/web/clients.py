"""Who is at the other end: the client's address, as far as it can be trusted.

The address is the connection's peer, unless that peer is one of the
``TRUSTED_PROXIES`` (addresses or networks, comma-separated; none by
default): then the client is the last address in ``X-Forwarded-For`` that
is not itself a trusted proxy, read from the right, since each proxy
appends the address it took the connection from and anything to the left
of a trusted proxy's entry is whatever the client chose to send. A service
reached only through its proxies should trust exactly those; one that
trusts none ignores the header, so that no client can name itself another.
"""

from __future__ import annotations

import functools
import ipaddress
import select
import socket
from collections.abc import Callable, Iterable

from flask import current_app, request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The longest address taken from a header (an IPv6 address with a zone fits).
_LONGEST = 64


@functools.lru_cache(maxsize=8)
def trusted_networks(setting: str) -> tuple[Network, ...]:
    """The networks a ``TRUSTED_PROXIES`` setting names; ValueError for one that is not a network."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in setting.split(",") if part.strip())


def client_address(peer: str | None, forwarded_for: Iterable[str], trusted: tuple[Network, ...]) -> str:
    """The client's address, from the connection's ``peer`` and the
    ``X-Forwarded-For`` headers' values, trusting the proxies in ``trusted``."""
    address = peer or ""
    if not trusted or not _is_trusted(address, trusted):
        return address
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
    for hop in reversed(hops):
        if not hop or len(hop) > _LONGEST:
            break  # a trusted proxy wrote no such thing: stop at the last one that was
        address = hop
        if not _is_trusted(hop, trusted):
            break
    return address


def _is_trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(found in network for network in trusted)


def request_address() -> str:
    """The address of the client of the request being served."""
    trusted = trusted_networks(current_app.config["TRUSTED_PROXIES"] or "")
    return client_address(request.remote_addr, request.headers.getlist("X-Forwarded-For"), trusted)


def connection() -> Callable[[], bool]:
    """Whether the request's client is still connected, to be asked later
    (by a stream's share, ``service.stream_limits``) without waiting: under
    gunicorn the connection's socket has nothing to read until the client
    sends more, and reads as ended once it has gone. Without a socket (a
    test client), it is taken to be."""
    sock = request.environ.get("gunicorn.socket")
    return (lambda: True) if sock is None else functools.partial(_connected, sock)


def _connected(sock: socket.socket) -> bool:
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return not readable or sock.recv(1, socket.MSG_PEEK) != b""
    except (OSError, ValueError):  # reset, or closed here already
        return False
