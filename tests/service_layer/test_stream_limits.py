"""Each holder's share of a worker's streams (service/stream_limits.py), and
the streams whose clients have gone, let go when the share is full."""

from __future__ import annotations

from service.stream_limits import SWEEP_SECONDS, Holder, Quota

SEAT = Holder("seat", "game/0")
LIMITS = {"STREAM_LIMIT_SEAT": 2, "STREAM_LIMIT_PLAYER": 1, "STREAM_LIMIT_OPERATOR": 1, "STREAM_LIMIT_ADDRESS": 1}


def test_a_full_share_lets_go_of_the_streams_whose_clients_went_at_most_once_a_second():
    now = [0.0]
    quota = Quota(LIMITS, clock=lambda: now[0])
    connected = {"first": True, "second": True}
    first = quota.take(SEAT, lambda: connected["first"])
    second = quota.take(SEAT, lambda: connected["second"])
    assert None not in (first, second)
    assert quota.take(SEAT, lambda: True) is None  # full, and both clients are there
    connected["first"] = False
    now[0] += SWEEP_SECONDS / 2
    assert quota.take(SEAT, lambda: True) is None  # looked at too lately to look again
    now[0] += SWEEP_SECONDS / 2
    third = quota.take(SEAT, lambda: True)  # the first stream's client went: its share is free
    assert third is not None and quota.take(SEAT, lambda: True) is None
    quota.give_back(SEAT, first)  # the stream let go ends later: nothing more is given back
    assert quota.take(SEAT, lambda: True) is None
    quota.give_back(SEAT, second)
    assert quota.take(SEAT, lambda: True) is not None
