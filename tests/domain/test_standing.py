"""Where a game stands, the same in every game type: what it awaits and
from whom (``GameType.awaiting``), and how it ended and who won
(``GameType.outcome``).

``awaiting`` is checked against the rules themselves: in every state of
whole games of both game types, the seats it names are exactly those
whose command of that kind ``decide`` accepts."""

from __future__ import annotations

from enum import StrEnum

import pytest

from domain import cassino, masscool
from domain.cards import full_deck
from domain.errors import RuleViolation
from domain.game_types import GAME_TYPES, GameType
from domain.standing import FINISHED, WAITING, Awaited, Awaiting, Outcome, is_finished
from tests.domain.masscool.table import Table as MassCoolTable
from tests.domain.masscool.table import stacked_deck
from tests.domain.test_games import Service


def accepted(game: GameType, state, command) -> bool:
    try:
        game.decide(state, command)
    except RuleViolation:
        return False
    return True


def able(game: GameType, state, command: Awaited, seat: int) -> bool:
    """Whether ``seat`` may give ``command`` now, by the rules. A pluck
    (Pluck Cassino) is left out: a seat may pluck just after its own play,
    which the game does not wait for."""
    if command is Awaited.JOIN:
        return accepted(game, state, game.join_command(seat, "Zoe", None))
    if command is Awaited.DEAL:
        return accepted(game, state, game.deal_command(seat, None, b"s" * 32))
    if command is Awaited.ANSWER_UNDO:
        return accepted(game, state, game.answer_undo_command(seat, True))
    return any(m.to_dict()["action"] != "pluck" for m in game.legal_moves(state, seat).first().moves)


def assert_exact(game: GameType, state) -> None:
    """``awaiting`` names the seats that may give its command, and no others;
    None exactly when the game is over."""
    awaiting = game.awaiting(state)
    if awaiting is None:
        assert game.summary(state).finished
        return
    assert not game.summary(state).finished
    assert list(awaiting.seats) == sorted(set(awaiting.seats))
    for seat in range(len(game.seats(state))):
        assert able(game, state, awaiting.command, seat) == (seat in awaiting.seats), (awaiting, seat)


class Driven(Service):
    """A game run by what it awaits (:class:`~tests.domain.test_games.Service`
    with ``awaiting`` checked after every command): the awaited seat acts,
    every ``undo_every`` moves the mover asks to take its move back, and the
    answers alternate. With ``open_last`` the last seat is created open and
    its player joins first."""

    def __init__(self, variant: str, names: tuple[str, ...], options=None, undo_every: int = 0,
                 open_last: bool = False):
        self.undo_every = undo_every
        self.commands = 0
        self.seen: set[Awaited] = set()
        self.names = names
        super().__init__(variant, names[:-1] + (None,) if open_last else names, options)

    def run(self, command) -> None:
        super().run(command)
        self.commands += 1
        assert_exact(self.game, self.state)

    def act(self) -> None:
        awaiting = self.game.awaiting(self.state)
        assert awaiting is not None and awaiting.seats, awaiting
        self.seen.add(awaiting.command)
        seat = awaiting.seats[self.commands % len(awaiting.seats)]
        if awaiting.command is Awaited.JOIN:
            self.run(self.game.join_command(None, self.names[seat], None))
        elif awaiting.command is Awaited.DEAL:
            self.run(self.game.deal_command(seat, None, self.seed()))
        elif awaiting.command is Awaited.ANSWER_UNDO:
            self.run(self.game.answer_undo_command(seat, self.commands % 3 != 0))
        else:
            moves = self.game.legal_moves(self.state, seat).first().moves
            self.run(self.game.command_for(seat, moves[self.commands % len(moves)], self.seed()))
            if self.undo_every and self.commands % self.undo_every == 0:
                undo = self.game.undo_command(seat)
                if accepted(self.game, self.state, undo):  # not across a new round, say
                    self.run(undo)

    def to_the_end(self, limit: int = 3000) -> Driven:
        for _ in range(limit):
            if self.game.awaiting(self.state) is None:
                return self
            self.act()
        raise AssertionError(f"no end in {limit} commands")


@pytest.mark.parametrize("variant, names, options", [
    ("cassino", ("Ann", "Bob"), None),
    ("partnership", ("Ann", "Bob", "Cy", "Di"), None),
    ("pluck", ("Ann", "Bob", "Cy"), None),
    ("draw", ("Ann", "Bob"), {"target": None, "count_out": False}),
    ("mass-cool-casino", ("Ann", "Bob", "Cy"), {"money": 4}),
    ("mass-cool-casino", ("Ann", "Bob", "Cy", "Di", "Ed"), None),
])
def test_a_game_awaits_exactly_the_seats_the_rules_let_act(variant, names, options):
    driven = Driven(variant, names, options, undo_every=5, open_last=True).to_the_end()
    assert driven.seen == set(Awaited)  # joins, deals, plays and undo answers were all awaited
    outcome = driven.game.outcome(driven.state)
    assert outcome is not None and outcome.result == driven.game.game_view(driven.state)["result"]


def test_every_game_begins_waiting_and_ends_finished_in_the_kernels_words():
    """Each game names its statuses itself, and shares the first and the last."""
    for name, game in GAME_TYPES.items():
        assert game.STATUSES[0] == WAITING and game.STATUSES[-1] == FINISHED
        assert all(isinstance(s, StrEnum) for s in game.STATUSES) and len(set(game.STATUSES)) == len(game.STATUSES)
        state = game.fold(game.decide(None, game.create_command(next(iter(game.VARIANTS)), ("A", "B"), 0, None,
                                                                 None)))
        assert state.status is game.STATUSES[0] and not is_finished(state)
        assert game.awaiting(state) == Awaiting(Awaited.DEAL, ()), name  # no seed: the operator deals


def test_awaiting_is_written_the_same_in_every_view():
    assert Awaiting(Awaited.ANSWER_UNDO, (0, 2)).to_dict() == {"command": "answer_undo", "seats": [0, 2]}
    for variant in ("cassino", "mass-cool-casino"):
        driven = Driven(variant, ("Ann", "Bob"))
        driven.act()
        game, state = driven.game, driven.state
        shown = [game.game_view(state, seat, operator)["awaiting"]
                 for seat, operator in ((None, False), (0, False), (1, False), (None, True))]
        assert shown == [game.awaiting(state).to_dict()] * 4 == [{"command": "play", "seats": [state.turn]}] * 4


# -- Cassino ----------------------------------------------------------------


def cassino_game(players: int = 2, seed: bytes | None = None, **options):
    names = tuple(f"P{i}" for i in range(players))
    return cassino.fold(cassino.decide(None, cassino.CreateGame("cassino", names, players - 1, options, seed)))


def then(game, state, *commands):
    for command in commands:
        state = game.fold(game.decide(state, command), state)
    return state


def test_cassino_awaits_the_dealer_then_the_players_then_the_answers_to_an_undo():
    state = cassino_game(3, seed=b"k" * 32)
    assert cassino.awaiting(state) == Awaiting(Awaited.DEAL, (2,))
    state = then(cassino, state, cassino.Deal(None, 2))
    assert cassino.awaiting(state) == Awaiting(Awaited.PLAY, (0,))
    move = cassino.legal_moves(state, 0).first().moves[0]
    state = then(cassino, state, cassino.Play(0, move), cassino.Undo(0))
    assert cassino.awaiting(state) == Awaiting(Awaited.ANSWER_UNDO, (1, 2))
    state = then(cassino, state, cassino.AnswerUndo(2, True))
    assert cassino.awaiting(state) == Awaiting(Awaited.ANSWER_UNDO, (1,))
    state = then(cassino, state, cassino.AnswerUndo(1, False))
    assert cassino.awaiting(state) == Awaiting(Awaited.PLAY, (1,))


def test_without_a_committed_shuffle_only_the_operator_can_deal():
    state = cassino_game(2)
    assert cassino.awaiting(state) == Awaiting(Awaited.DEAL, ())
    assert_exact(cassino, state)
    state = then(cassino, state, cassino.Deal(full_deck()))
    assert cassino.awaiting(state) == Awaiting(Awaited.PLAY, (0,))


def test_a_voided_hand_awaits_the_same_dealer_again():
    state = then(cassino, cassino_game(2, seed=b"k" * 32), cassino.Deal(None, 1),
                 cassino.VoidHand("misdeal", b"n" * 32))
    assert cassino.awaiting(state) == Awaiting(Awaited.DEAL, (1,))
    assert_exact(cassino, state)


def test_cassino_names_every_seat_of_the_winning_side_and_none_for_a_draw():
    teams = Driven("partnership", ("Ann", "Bob", "Cy", "Di")).to_the_end()
    won = teams.state.outcome
    assert won is not None and won.winner is not None
    assert cassino.outcome(teams.state) == Outcome(won.reason, (won.winner, won.winner + 2))
    view = cassino.game_view(teams.state)
    assert view["winners"] == [won.winner, won.winner + 2] and view["winner"] == won.winner
    assert view["awaiting"] is None and view["result"] == won.reason
    state = cassino_game(2)
    assert cassino.outcome(state) is None and cassino.game_view(state)["winners"] is None
    drawn = state._replace(outcome=cassino.Outcome(None, cassino.EndReason.DRAW), status=cassino.Status.FINISHED)
    assert cassino.outcome(drawn) == Outcome("draw", ())
    assert cassino.game_view(drawn)["winners"] == [] and cassino.game_view(drawn)["winner"] is None


# -- Mass Cool Casino --------------------------------------------------------


def test_mass_cool_casino_asks_only_players_still_in_to_answer():
    t = MassCoolTable(3, deck=stacked_deck(3, 0, 8, {0: "2S 3S", 1: "2H 3H", 2: "2C 3C"}, stock="KD 2D 3D"))
    assert masscool.awaiting(t.state) == Awaiting(Awaited.PLAY, (0,))
    t.bet(0, "2S")
    t.do(masscool.Undo(0))
    assert masscool.awaiting(t.state) == Awaiting(Awaited.ANSWER_UNDO, (1, 2))
    out = t.state._replace(out=(False, False, True))
    assert masscool.awaiting(out) == Awaiting(Awaited.ANSWER_UNDO, (1,))
    assert_exact(masscool, out)


def test_a_fixed_game_awaits_the_operator_for_its_deal_and_its_reshuffle():
    names = ("Ann", "Bob")
    state = masscool.fold(masscool.decide(None, masscool.CreateGame(names, 1)))
    assert masscool.awaiting(state) == Awaiting(Awaited.DEAL, ())
    assert_exact(masscool, state)
    # Both draw a king: a tie, and a fixed game waits for the operator's reshuffle.
    t = MassCoolTable(2, deck=stacked_deck(2, 0, 10, stock="KS KH"))
    t.bet(0, t.state.money[0][0].code)
    t.bet(1, t.state.money[1][0].code)
    t.stop(0)
    assert t.state.status == "reshuffle"
    assert masscool.awaiting(t.state) == Awaiting(Awaited.DEAL, ())
    assert_exact(masscool, t.state)
    assert masscool.game_view(t.state, 0)["awaiting"] == {"command": "deal", "seats": []}


def test_a_shared_win_names_every_winner():
    driven = Driven("mass-cool-casino", ("Ann", "Bob", "Cy"), {"money": 1}).to_the_end()
    ended = driven.state.outcome
    assert masscool.outcome(driven.state) == Outcome(ended.reason, ended.winners)
    view = masscool.game_view(driven.state, 1)
    assert view["winners"] == list(ended.winners) and view["result"] == ended.reason and view["awaiting"] is None
    shared = driven.state._replace(outcome=masscool.Outcome((0, 2), "deck_out", (5, 3, 5)))
    assert masscool.game_view(shared)["winners"] == [0, 2]
