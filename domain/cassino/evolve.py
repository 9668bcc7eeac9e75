"""Applying events: ``evolve(state, event) -> state`` and ``fold(events)``,
the kernel's (:class:`~domain.folding.Evolver`) with what each of Cassino's
events does to a state.

Evolving trusts its events: they were decided (and checked) once, when they
happened. Nothing here looks at the rules, the clock or chance.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..cards import Card
from ..folding import Evolver
from ..kernel_events import PlayUndone
from ..kernel_rules import fold_handlers
from ..seating import joined
from .events import (BuildMade, BundleStolen, CardDrawn, CardPlucked, CardsCaptured, CardTrailed, ClientSeedSet,
                     CountedOut, Event, GameCreated, GameFinished, HandDealt, HandEnded, HandVoided,
                     InitialPairsTaken, PointsScored, RoundDealt, SeedRevealed, ShuffleCommitted)
from .moves import pile_counts
from .scoring import strikes
from .state import FINISHED, HAND_OVER, IN_PROGRESS, GameState, Outcome, Seat, next_seat, replace_state
from .table import Build, TableItem
from .waiting import clock_seat

#: What a deal, a reveal or the end of a hand does to the undo point: an undo never crosses them.
_NO_UNDO = {"before_play": None, "last_player": None, "undo_request": None, "undo_accepted": (), "stood_in": None}


def _created(e: GameCreated) -> GameState:
    n = len(e.seats)
    teams = max(s.team for s in e.seats) + 1
    return GameState(variant=e.variant, options=e.options, seats=e.seats, version=1,
                     dealer=e.first_dealer, first_dealer=e.first_dealer, scores=(0,) * teams,
                     hands=((),) * n, captured=((),) * n, sweeps=(0,) * n, client_seeds=("",) * n,
                     player_ids=(None,) * n)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


T = TypeVar("T")


def _replace_seat(tuples: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return tuples[:seat] + (value,) + tuples[seat + 1:]


def _hand_dealt(s: GameState, e: HandDealt) -> GameState:
    gone = {c for h in e.hands for c in h} | set(e.table)  # the top of the deck, or (African) not only
    n = len(s.seats)
    return replace_state(s, **_NO_UNDO, version=s.version + 1, status=IN_PROGRESS, hand_number=e.hand_number,
                   dealer=e.dealer, turn=next_seat(e.dealer, n, s.options), round=1, last_round=False, redeal=False,
                   instant_awards=(), plucked=(), just_played=None, fresh_builds=(),
                   stock=tuple(c for c in e.deck if c not in gone), hands=e.hands, table=e.table,
                   captured=((),) * n, sweeps=(0,) * n, last_capturer=None, last_capture=(),
                   next_build=1)


def _round_dealt(s: GameState, e: RoundDealt) -> GameState:
    dealt = sum(len(h) for h in e.hands) + len(e.table)
    return replace_state(s, **_NO_UNDO, version=s.version + 1, round=e.round, last_round=e.last, plucked=(),
                   stock=s.stock[dealt:], hands=e.hands, table=s.table + e.table,
                   turn=next_seat(s.dealer, len(s.seats), s.options))


#: Where a play's changes go in the state's fields. Plays are nine events in
#: ten, so they are made by position on a list of the fields, which is about
#: twice as fast as ``replace_state``'s names.
(_VERSION, _TURN, _HANDS, _TABLE, _CAPTURED, _SWEEPS, _LAST_CAPTURER, _LAST_CAPTURE, _NEXT_BUILD,
 _BEFORE_PLAY, _LAST_PLAYER, _UNDO_REQUEST, _UNDO_ACCEPTED, _JUST_PLAYED, _FRESH_BUILDS, _PLAYED, _STOOD_IN) = map(
    GameState._fields.index, (
        "version", "turn", "hands", "table", "captured", "sweeps", "last_capturer", "last_capture", "next_build",
        "before_play", "last_player", "undo_request", "undo_accepted", "just_played", "fresh_builds", "played",
        "stood_in"))


def _played(s: GameState, seat: int, card: Card) -> list[Any]:
    """The fields of the state after ``seat`` plays ``card``, for the play to
    complete: the card leaves the hand, the turn passes, and the undo point is
    the state before this play (it may hold an undo point of its own, but a
    restored state is given none, so only the latest play can be taken back;
    its ``stood_in`` says whether the service made this play on a time-out)."""
    values = list(s)
    values[_VERSION] = s.version + 1
    values[_TURN] = next_seat(seat, len(s.seats), s.options)
    values[_HANDS] = _replace_seat(s.hands, seat, _without(s.hands[seat], card))
    values[_BEFORE_PLAY] = s
    values[_LAST_PLAYER] = seat
    values[_UNDO_REQUEST] = None
    values[_UNDO_ACCEPTED] = ()
    values[_JUST_PLAYED] = card
    values[_PLAYED] = True
    values[_STOOD_IN] = None
    if s.fresh_builds:  # the builds of the seat's previous play are no longer fresh
        values[_FRESH_BUILDS] = tuple([f for f in s.fresh_builds if f[0] != seat])
    return values


def _trailed(s: GameState, e: CardTrailed) -> GameState:
    values = _played(s, e.seat, e.card)
    values[_TABLE] = s.table + (e.card,)
    return GameState._make(values)


def _pile(s: GameState, seat: int) -> int:
    """Whose pile ``seat``'s captures join: their own, or with ``team_pile``
    (African partners) the one pile of their side, at its first seat."""
    return s.team_seats(s.team_of(seat))[0] if s.options.team_pile else seat


def _captured(s: GameState, e: CardsCaptured) -> GameState:
    taken = set(e.targets)
    seat = e.seat
    pile = _pile(s, seat)
    values = _played(s, seat, e.card)
    values[_TABLE] = tuple([it for it in s.table if it.id not in taken])
    values[_CAPTURED] = _replace_seat(s.captured, pile, s.captured[pile] + e.cards)
    values[_SWEEPS] = _replace_seat(s.sweeps, seat, s.sweeps[seat] + e.sweep)
    values[_LAST_CAPTURER] = seat
    values[_LAST_CAPTURE] = e.cards
    return GameState._make(values)


def _stolen(s: GameState, e: BundleStolen) -> GameState:
    values = _played(s, e.seat, e.card)
    captured = _replace_seat(s.captured, e.victim, ())
    pile = _pile(s, e.seat)
    values[_CAPTURED] = _replace_seat(captured, pile, captured[pile] + e.cards)
    values[_LAST_CAPTURER] = e.seat
    values[_LAST_CAPTURE] = e.cards
    return GameState._make(values)


def _built(s: GameState, e: BuildMade) -> GameState:
    taken = set(e.targets)
    table: list[TableItem] = []
    placed, fresh = False, True  # fresh: no build was raised or added to
    for it in s.table:
        if it.id in taken:
            fresh = fresh and not isinstance(it, Build)
            if not placed:
                table.append(e.build)
                placed = True
        else:
            table.append(it)
    values = _played(s, e.seat, e.card)
    values[_TABLE] = tuple(table)
    values[_NEXT_BUILD] = s.next_build + fresh
    values[_FRESH_BUILDS] = values[_FRESH_BUILDS] + ((e.seat, e.build.id),)
    if s.options.augment_from_piles:
        values[_CAPTURED] = _without_tops(s.captured, e.targets)
    return GameState._make(values)


def _without_tops(piles: tuple[tuple[Card, ...], ...], targets: tuple[str, ...]) -> tuple[tuple[Card, ...], ...]:
    """The piles after a build took captured cards from their tops (``seat:N`` targets)."""
    for seat, k in pile_counts(targets).items():
        piles = _replace_seat(piles, seat, piles[seat][:len(piles[seat]) - k])
    return piles


def _hand_ended(s: GameState, e: HandEnded) -> GameState:
    captured = s.captured
    if e.last_capturer is not None:
        pile = _pile(s, e.last_capturer)
        captured = _replace_seat(captured, pile, captured[pile] + e.residue)
    return replace_state(s, **_NO_UNDO, version=s.version + 1, status=HAND_OVER, turn=None, table=(),
                   captured=captured, scores=e.scores)


def _finished(s: GameState, e: GameFinished) -> GameState:
    return replace_state(s, **_NO_UNDO, version=s.version + 1, status=FINISHED, turn=None, scores=e.scores,
                      outcome=Outcome(e.winner, e.reason))


def _committed(s: GameState, e: ShuffleCommitted) -> GameState:
    return replace_state(s, version=s.version + 1, seed=e.seed, commitment=e.commitment)


def _client_seed(s: GameState, e: ClientSeedSet) -> GameState:
    return replace_state(s, version=s.version + 1, client_seeds=_replace_seat(s.client_seeds, e.seat, e.seed))


def _revealed(s: GameState, e: SeedRevealed) -> GameState:
    return replace_state(s, version=s.version + 1, seed=None, commitment=None)


def _voided(s: GameState, e: HandVoided) -> GameState:
    n = len(s.seats)
    scores = list(s.scores)
    for award in s.instant_awards:  # a voided hand scores nothing, not even instantly
        scores[award.team] -= award.points
    struck = s.strikes and _add(s.strikes, [-n for n in strikes(s.instant_awards, s.teams)])
    return replace_state(s, **_NO_UNDO, version=s.version + 1, status=HAND_OVER, turn=None, redeal=True,
                      stock=(), hands=((),) * n, table=(), captured=((),) * n, sweeps=(0,) * n,
                      last_capturer=None, last_capture=(), scores=tuple(scores), instant_awards=(),
                      strikes=struck)


def _pairs_taken(s: GameState, e: InitialPairsTaken) -> GameState:
    taken = set(e.cards)
    pile = _pile(s, e.seat)
    return replace_state(s, version=s.version + 1, table=tuple(it for it in s.table if it not in taken),
                      captured=_replace_seat(s.captured, pile, s.captured[pile] + e.cards),
                      sweeps=_replace_seat(s.sweeps, e.seat, s.sweeps[e.seat] + e.sweep),
                      last_capturer=e.seat, last_capture=e.cards)


def _drawn(s: GameState, e: CardDrawn) -> GameState:
    return replace_state(s, version=s.version + 1, stock=s.stock[1:],
                      hands=_replace_seat(s.hands, e.seat, s.hands[e.seat] + (e.card,)))


def _plucked(s: GameState, e: CardPlucked) -> GameState:
    pile = _pile(s, e.seat)
    return replace_state(s, **_NO_UNDO, version=s.version + 1, table=tuple(it for it in s.table if it is not e.card),
                      captured=_replace_seat(s.captured, pile, s.captured[pile] + (e.card,)),
                      plucked=s.plucked + (e.seat,))


def _scored(s: GameState, e: PointsScored) -> GameState:
    return replace_state(s, version=s.version + 1, scores=e.scores, instant_awards=s.instant_awards + e.awards,
                         strikes=_add(s.strikes, strikes(e.awards, s.teams)))


def _add(counts: tuple[int, ...], more: list[int]) -> tuple[int, ...]:
    """Per-team counts plus ``more`` (``()`` counts as zeros)."""
    return tuple(a + b for a, b in zip(counts or (0,) * len(more), more))


def _counted(s: GameState, e: CountedOut) -> GameState:
    """An event whose consequences are the events after it."""
    return replace_state(s, version=s.version + 1)


def holder(s: GameState, seat: int, name: str | None, player: str | None) -> dict[str, Any]:
    """The fields that put ``name`` (the player ``player``) in ``seat``; None opens it."""
    held = Seat(name, s.seats[seat].team)
    return {"seats": s.seats[:seat] + (held,) + s.seats[seat + 1:], "player_ids": joined(s.player_ids, seat, player)}


def restore(s: GameState) -> GameState:
    """The state before the latest play, for its take-back (decided only when there is one)."""
    assert s.before_play is not None, "an undo is decided only when there is a play to take back"
    return replace_state(s.before_play, **_NO_UNDO)


_EVOLVER: Evolver[GameState, Event] = Evolver(GameCreated, _created, {
    HandDealt: _hand_dealt,
    RoundDealt: _round_dealt,
    CardTrailed: _trailed,
    CardsCaptured: _captured,
    BundleStolen: _stolen,
    BuildMade: _built,
    HandEnded: _hand_ended,
    CountedOut: _counted,
    GameFinished: _finished,
    ShuffleCommitted: _committed,
    ClientSeedSet: _client_seed,
    SeedRevealed: _revealed,
    HandVoided: _voided,
    InitialPairsTaken: _pairs_taken,
    CardDrawn: _drawn,
    CardPlucked: _plucked,
    PointsScored: _scored,
    **fold_handlers(replace_state, holder, restore),
}, clock_seat, PlayUndone)
evolve = _EVOLVER.evolve
fold = _EVOLVER.fold
