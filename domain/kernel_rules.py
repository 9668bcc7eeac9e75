"""The kernel's handlers: how every game decides the kernel's commands into
the kernel's events (:mod:`domain.kernel_events`), and folds those events.

Written once, for every game: taking and leaving a seat, resigning,
aborting, a time-out, rating a finished game and answering its rematch,
taking a move back and asking and answering about it; and the fold of each
kernel event. A game plugs in what is its own: how it ends when a
seat gives up or the game is called off, its sides for a rating, its
computer's move, which move an undo takes back (:class:`Hooks`, for
``decide_handlers``); how its state
is replaced, writes a seat's holder and goes back before a move (for
``fold_handlers``). The handlers are then the game's, beside those of its
own commands and events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from . import clocks, rating, rematch, seating, undoing
from .clocks import Clock
from .codec import Event
from .kernel_events import (ClockSet, GameAborted, PlayUndone, RatedSet, RatingsChanged, RematchAnswered,
                            SeatJoined, SeatLeft, SeatResigned, TimedOut, UndoAnswered, UndoRequested)
from .rating import RatingChange
from .rematch import Rematch
from .standing import FINISHED, Outcome

#: Why a seat's side loses the game (the view's ``result``).
RESIGNED, TIMED_OUT = "resigned", "timed_out"


class Table(Protocol):
    """What the kernel's handlers read of any game's state."""

    @property
    def version(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def names(self) -> tuple[str | None, ...]: ...

    @property
    def player_ids(self) -> tuple[str | None, ...]: ...

    @property
    def rated(self) -> bool: ...

    @property
    def played(self) -> bool: ...

    @property
    def clock(self) -> Clock | None: ...

    @property
    def rating_changes(self) -> tuple[RatingChange, ...]: ...

    @property
    def rematch(self) -> Rematch | None: ...

    @property
    def undo_request(self) -> int | None: ...

    @property
    def undo_accepted(self) -> tuple[int, ...]: ...


S = TypeVar("S", bound=Table)
Handler = Callable[[S, Any], list[Event]]
Applier = Callable[[S, Any], S]


@dataclass(frozen=True)
class Hooks(Generic[S]):
    """What a game gives the kernel's handlers of commands.

    - ``dealt(state)``: whether the cards are dealt (no seat leaves after);
    - ``check_seat(state, seat)``: refuse a resignation of ``seat`` (held, still in);
    - ``forfeit(state, seat, reason)``: the events that end the game with
      ``seat``'s side losing (``RESIGNED``, ``TIMED_OUT``);
    - ``call_off(state)``: the events that end it with nobody winning (aborted);
    - ``sides(state)``: each seat's side, for a rating;
    - ``outcome(state)``: how it ended;
    - ``stand_in(state, seat, next_seed)``: the command the computer makes for ``seat``;
    - ``evolve`` and ``decide``: the game's;
    - ``undo_policy(state)``: the game's ``undo`` option (:data:`domain.undoing.POLICIES`);
    - ``latest(state)``: the seat whose move an undo would take back, and
      the seat the service moved for in it (None: the seat's own move), or
      a ``RuleViolation`` (``nothing_to_undo``) where nothing can be taken back;
    - ``answering(state, seat)``: the seats that answer an undo request,
      refusing ``seat`` if it may not answer;
    - ``undo``, ``answer_undo``: the game's command types for an undo and an
      answer (``seat``, and ``accept``), and ``move``: what it calls a move
      in a sentence ("play").
    """

    dealt: Callable[[S], bool]
    check_seat: Callable[[S, int], None]
    forfeit: Callable[[S, int, str], list[Event]]
    call_off: Callable[[S], list[Event]]
    sides: Callable[[S], Sequence[int]]
    outcome: Callable[[S], Outcome | None]
    stand_in: Callable[[S, int, bytes | None], Any]
    evolve: Callable[[S, Event], S]
    decide: Callable[[S, Any], list[Event]]
    undo_policy: Callable[[S], str]
    latest: Callable[[S], tuple[int, int | None]]
    answering: Callable[[S, int], Iterable[int]]
    undo: type
    answer_undo: type
    move: str = "move"


# -- deciding ---------------------------------------------------------------------

def decide_handlers(game: Hooks[S]) -> dict[type, Handler[S]]:
    """The game's handlers of the kernel's commands, by command type."""

    def join(s: S, c: seating.Join) -> list[Event]:
        return [SeatJoined(seating.seat_to_join(s.names, s.player_ids, c, s.rated), c.name, c.player)]

    def leave(s: S, c: seating.Leave) -> list[Event]:
        seating.check_leave(s.names, c.seat, dealt=game.dealt(s))
        return [SeatLeft(c.seat)]

    def resign(s: S, c: seating.Resign) -> list[Event]:
        game.check_seat(s, c.seat)
        seating.check_all_seated(s.names)
        return [SeatResigned(c.seat), *game.forfeit(s, c.seat, RESIGNED)]

    def abort(s: S, c: seating.Abort) -> list[Event]:
        seating.check_abort(s.names, c.seat, s.played)
        return [GameAborted(c.seat), *game.call_off(s)]

    def rate(s: S, c: rating.Rate) -> list[Event]:
        return [RatingsChanged(rating.rate(s.rated, game.outcome(s), s.rating_changes, s.player_ids,
                                           game.sides(s), c))]

    def answer_rematch(s: S, c: rematch.AnswerRematch) -> list[Event]:
        return [RematchAnswered(*rematch.answer(s.status == FINISHED, s.player_ids, s.rematch, c))]

    return {seating.Join: join, seating.Leave: leave, seating.Resign: resign, seating.Abort: abort,
            seating.TimeOut: lambda s, c: time_out(game, s, c), rating.Rate: rate,
            rematch.AnswerRematch: answer_rematch, game.undo: lambda s, c: undo(game, s, c),
            game.answer_undo: lambda s, c: answer_undo(game, s, c)}


def undo(game: Hooks[S], s: S, c: Any) -> list[Event]:
    """Take the latest move back (``c.seat`` None: the operator's, at once),
    or ask the others to let it be, under the game's ``undo`` option."""
    policy = game.undo_policy(s)
    undoing.check_allowed(policy)
    mover, stood_in = game.latest(s)
    undoing.check_not_stood_in(c.seat, mover, stood_in, game.move)
    if undoing.takes_back_at_once(policy, c.seat, mover, s.undo_request, game.move):
        return [PlayUndone(mover, forced=c.seat is None)]
    assert c.seat is not None, "the operator's undo takes the move back at once"
    return [UndoRequested(c.seat)]


def answer_undo(game: Hooks[S], s: S, c: Any) -> list[Event]:
    """``c.seat`` accepts or refuses the pending request; the last acceptance takes the move back."""
    asker = undoing.requested(s.undo_request, game.move)
    if undoing.answer_completes(asker, c.seat, c.accept, s.undo_accepted, game.answering(s, c.seat)):
        return [UndoAnswered(c.seat, c.accept), PlayUndone(asker)]
    return [UndoAnswered(c.seat, c.accept)]


def time_out(game: Hooks[S], s: S, c: seating.TimeOut) -> list[Event]:
    """The clock has run out (the kernel checked it is due): the game is
    called off if it was the seat's first action, else the seat it ran for
    forfeits, or the computer makes its move."""
    assert s.clock is not None and s.clock.seat is not None, "a due clock runs for a seat"
    seat = s.clock.seat
    if clocks.first_action(s.clock):  # the seat never started to play: nobody loses
        return [TimedOut(seat), *game.call_off(s)]
    if s.clock.rule.on_timeout != "computer":
        return [TimedOut(seat), *game.forfeit(s, seat, TIMED_OUT)]
    timed = TimedOut(seat, computer=True)
    after = game.evolve(s, timed)
    return [timed, *game.decide(after, game.stand_in(after, seat, c.next_seed))]


# -- folding ----------------------------------------------------------------------

def fold_handlers(replace: Callable[..., S], holder: Callable[[S, int, str | None, str | None], dict[str, Any]],
                  restore: Callable[[S], S]) -> dict[type[Event], Applier[S]]:
    """How the game's state takes each kernel event, its version counted.
    The game gives ``replace(state, **fields)``, the state with those fields
    replaced; ``holder(state, seat, name, player)``, the fields that put a
    holder in ``seat`` (None, None: open it); and ``restore(state)``, the
    state before the latest move (a take-back), its version aside."""

    def counted(fields: Callable[[S, Any], dict[str, Any]]) -> Applier[S]:
        return lambda s, e: replace(s, version=s.version + 1, **fields(s, e))

    def taken_back(s: S, e: PlayUndone) -> S:
        return replace(restore(s), version=s.version + 1)

    return {
        SeatJoined: counted(lambda s, e: holder(s, e.seat, e.name, e.player)),
        SeatLeft: counted(lambda s, e: holder(s, e.seat, None, None)),
        SeatResigned: counted(_nothing),  # its consequences are the events after it
        GameAborted: counted(_nothing),
        ClockSet: counted(lambda s, e: {"clock": clocks.start(e.clock, s.players)}),
        TimedOut: counted(lambda s, e: {"stood_in": e.seat if e.computer else None}),
        RatedSet: counted(lambda s, e: {"rated": True}),
        RatingsChanged: counted(lambda s, e: {"rating_changes": e.changes}),
        RematchAnswered: counted(lambda s, e: {"rematch": rematch.answered(s.rematch, e.seat, e.game_id)}),
        UndoRequested: counted(lambda s, e: {"undo_request": e.seat, "undo_accepted": ()}),
        UndoAnswered: counted(_answered),
        PlayUndone: taken_back,
    }


def _nothing(s: Any, e: Any) -> dict[str, Any]:
    return {}


def _answered(s: Table, e: UndoAnswered) -> dict[str, Any]:
    """An acceptance joins those given; a refusal drops the request."""
    if not e.accepted:
        return {"undo_request": None, "undo_accepted": ()}
    return {"undo_accepted": s.undo_accepted + (e.seat,)}
