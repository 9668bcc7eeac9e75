"""A reader's place in the global log: one position per origin (``service.events.Cursor``)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from service.events import ORIGIN_SHIFT, Cursor, StoredEvent


def at(position: int) -> StoredEvent:
    return StoredEvent(position, uuid.uuid4(), 1, "E", 1, {}, {}, datetime.now(UTC), "0" * 64, 2)


def test_a_cursor_moves_past_each_origin_on_its_own():
    one, two = 1 << ORIGIN_SHIFT, 2 << ORIGIN_SHIFT
    cursor = Cursor.at(700).past([at(two + 5), at(900), at(two + 9)])
    assert cursor == Cursor((900, two + 9))
    assert (cursor.of(0), cursor.of(1), cursor.of(2)) == (900, one, two + 9)
    assert Cursor.parse(cursor.code) == cursor
    assert Cursor().code == "0" and Cursor.parse("0") == Cursor() == Cursor.at(0)
    assert Cursor.at(700).code == "700" and Cursor().past([]) == Cursor()


def test_of_two_positions_of_one_origin_the_later_counts_and_one_past_every_origin_names_nothing():
    assert Cursor.parse("6.5") == Cursor((6,))
    assert Cursor.parse(f"{2**53}.7.0") == Cursor((7,))


@pytest.mark.parametrize("code", ["", "1.", "a", ".5", "1" * 17, "1." * 32 + "1"])
def test_a_code_that_names_no_cursor_is_refused(code):
    with pytest.raises(ValueError):
        Cursor.parse(code)
