"""004's sweep and sudden-death variations, each an option: sweeps scored
as they happen (``instant_sweeps``), point cards scored as they are taken
(``instant_points``), both at once as games stored them (``instant_scoring``),
and the five of spades that sweeps when trailed (``spade_five_sweeps``).
Each test cites the sentence of 004 it checks (docs/rules.md)."""

import json

import pytest

from domain import OptionError
from domain.cassino import Move, Play, decide, fold, from_json, legal_moves, resolve, to_json
from domain.cassino.events import CardsCaptured, GameCreated, GameFinished, HandEnded, PointsScored

from .positions import after, position, refusal


def scored(events):
    return [(a.category, a.team, a.points) for e in events if isinstance(e, PointsScored) for a in e.awards]


class TestSweepsAsTheyHappen:
    OPTIONS = {"sweeps": 1, "instant_sweeps": True}

    def test_a_sweep_scores_at_once_and_ends_the_game_at_the_target(self):
        """004: "sweeps are scored as they occur; if the sweeper had 20 points (or more, due to a tie
        score), the sweep would end the round instantly"."""
        state = position(table="3S 4H", hands=["7C 2H", "5D"], scores=[20, 20], options=self.OPTIONS)
        events = decide(state, Play(0, Move.parse("7C capture 3S 4H")))
        assert scored(events) == [("sweeps", 0, 1)]
        assert isinstance(events[-1], GameFinished) and events[-1].winner == 0 and events[-1].scores == (21, 20)

    def test_point_cards_still_wait_for_the_end_of_the_hand(self):
        state = position(table="10D 4H", hands=["10H 2H", "5D"], scores=[20, 0], options=self.OPTIONS)
        assert scored(decide(state, Play(0, Move.parse("10H capture 10D")))) == []

    def test_a_sweep_scored_at_once_is_not_counted_again(self):
        state = position(table="3S", hands=["3C", ""], stock="", options=self.OPTIONS)
        events = decide(state, Play(0, Move.parse("3C capture 3S")))
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert scored(events) == [("sweeps", 0, 1)] and "sweeps" not in {a.category for a in ended.points}


class TestPointCardsAsTheyAreTaken:
    def test_a_point_card_scores_at_once_and_can_end_the_game(self):
        """004: "A scoring variation in which each point card is scored as it is captured also exists"."""
        state = position(table="10D AS", hands=["10H AC", "5D"], scores=[19, 0], options={"instant_points": True})
        events = decide(state, Play(0, Move.parse("10H capture 10D")))
        assert scored(events) == [("big_casino", 0, 2)] and isinstance(events[-1], GameFinished)

    def test_sweeps_then_score_at_the_end(self):
        state = position(table="3S", hands=["3C 4D", "5D"], options={"instant_points": True, "sweeps": 1})
        events = decide(state, Play(0, Move.parse("3C capture 3S")))
        assert scored(events) == [] and events[0].sweep


class TestTheOldSwitch:
    def test_instant_scoring_still_means_both(self):
        """Games stored ``instant_scoring: true`` before the two variations were split; they replay with
        both (docs/rules.md)."""
        state = position(table="10D", hands=["10H 2C", "5D"], options={"instant_scoring": True, "sweeps": 1})
        assert scored(decide(state, Play(0, Move.parse("10H capture 10D")))) == [("big_casino", 0, 2),
                                                                                ("sweeps", 0, 1)]

    def test_a_game_stored_with_it_replays_the_same(self):
        stored = {"type": "GameCreated", "schema_version": 1, "data": {
            "variant": "cassino", "options": {"instant_scoring": True, "target": 11},
            "seats": [{"name": "Ann", "team": 0}, {"name": "Bob", "team": 1}], "first_dealer": 1}}
        created = from_json(json.loads(json.dumps(stored)))
        assert isinstance(created, GameCreated)
        opts = created.options
        assert opts.instant_scoring and opts.cards_at_once and opts.sweeps_at_once and opts.sudden_death
        assert not (opts.instant_sweeps or opts.instant_points)
        assert from_json(to_json(created)) == created

    def test_each_needs_a_target(self):
        for name in ("instant_scoring", "instant_sweeps", "instant_points"):
            with pytest.raises(OptionError) as refused:
                resolve("cassino", {name: True, "target": None, "count_out": False}, 2)
            assert refused.value.name == name


class TestTheFiveOfSpades:
    OPTIONS = {"spade_five_sweeps": True, "sweeps": 1}

    def test_trailing_it_sweeps_the_table(self):
        """004: "In another variation, trailing the five of spades sweeps the table, the sweep giving one
        point"."""
        state = position(table="KD 9C B1=8:5D+3H@1", hands=["5S 2C", "8S"], options=self.OPTIONS)
        [event] = decide(state, Play(0, Move.parse("5S trail")))
        assert isinstance(event, CardsCaptured) and event.sweep and event.targets == ("KD", "9C", "B1")
        taken = fold([event], state)
        assert taken.table == () and taken.sweeps == (1, 0) and taken.last_capturer == 0
        assert "5S trail" in {m.text for m in legal_moves(state, 0)}

    def test_on_an_empty_table_it_is_an_ordinary_trail(self):
        assert after(position(table="", hands=["5S 2C", "8S"], options=self.OPTIONS), 0, "5S trail").table

    def test_the_owner_of_a_build_may_trail_it_since_it_takes_the_build(self):
        state = position(table="B1=8:5D+3H@0 9C", hands=["5S 8C 2C", "8S"], options=self.OPTIONS)
        assert after(state, 0, "5S trail").table == ()
        assert refusal(state, 0, "2C trail") == "must_act_on_build"

    def test_without_the_option_or_without_sweeps(self):
        assert after(position(table="9C", hands=["5S 2C", "8S"]), 0, "5S trail").table != ()
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"spade_five_sweeps": True}, 2)
        assert refused.value.name == "spade_five_sweeps"
