"""The computer player of Cassino: what a seat the service plays does next
(the service plays it through the same commands as a person: tests/api/test_computer.py)."""

from __future__ import annotations

from domain.cassino import Move, Play
from domain.cassino.computer import choose, computer_command

from .positions import position


def test_it_takes_the_capture_worth_the_most_points():
    state = position(table="AS 4D 3C 2H", hands=["AH 9H", "KD"])  # 2 points, or 4 cards
    assert choose(state, 0) == Move.capture("AH", "AS")


def test_with_equal_points_it_takes_the_most_cards():
    state = position(table="5H 4C 9S 3D", hands=["9H 7C", "KD"])
    assert choose(state, 0) == Move.capture("9H", "4C", "5H", "9S")


def test_with_nothing_to_take_it_trails_its_lowest_card():
    state = position(table="KS QH", hands=["9H 3C 7D", "KD"])
    assert choose(state, 0) == Move.trail("3C")


def test_it_waits_when_a_person_is_to_act():
    state = position(table="KS QH", hands=["9H 3C", "KD 2C"], turn=0)
    assert computer_command(state, (1,), None) is None
    seat, command = computer_command(state, (0,), None)
    assert seat == 0 and isinstance(command, Play) and command.move == Move.trail("3C")
