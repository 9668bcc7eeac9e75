"""What a caller may see: of a game, of its events, of what a command did.

The rules of what is hidden belong to each game (``GameType.game_view``,
``event_view`` and ``log_revealed``); here the caller is named to the game
(a seat by its number, the operator by the flag, the public by neither) and
the service's own fields are added: versions, times, and for the operator
the events' positions, metadata and hashes. Everything is built after the
append, from the domain's results (``service.games.Applied``, ``Created``).
Beside each seat's name goes its holder's rating in the game's variant as
it stands now (``service.ratings.seat_ratings``: public already, on the
player's page), read when the view is made; it is not of the game, so the
game's version does not move with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from domain.errors import RuleViolation
from domain.game_types import State, game_of, game_of_event, is_kernel_event, public_type
from domain.paging import Resume

from service.auth import Caller
from service.events import StoredEvent, stored_form
from service.games import Applied, Created
from service.move_cursors import MoveCursor
from service.ratings import RatingsOf, seat_ratings


def game_view(state: State, caller: Caller, ratings: RatingsOf) -> dict[str, Any]:
    """The game at ``state`` as ``caller`` may see it, each seat with its
    holder's rating (``ratings`` reads them)."""
    game = game_of(state.variant)
    view = game.game_view(state, caller.seat, caller.is_operator)
    rated = seat_ratings(game.seat_holders(state), state.variant, ratings)
    view["seats"] = [{**seat, "rating": rated[seat["seat"]]} for seat in view["seats"]]
    return view


def log_revealed(state: State) -> bool:
    """Whether the whole log is public: the game is over and allows it."""
    return game_of(state.variant).log_revealed(state)


def redact(stored: dict[str, Any], caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) for
    ``caller``, its type by its public name (the same in every game, however
    it is stored: :func:`domain.game_types.public_type`); ``reveal`` shows
    everything (a finished game's public log). The kernel's events hide
    nothing. An event of a type no game has was written behind the
    service's back: the operator, who is looking into the damage, sees it as
    stored; no one else sees its data."""
    kind = stored["type"]
    if is_kernel_event(kind):
        return {**stored, "type": public_type(kind)}
    try:
        game = game_of_event(kind)
    except KeyError:
        return stored if caller.is_operator else {**stored, "data": None}
    shown = game.event_view(stored, caller.seat, caller.is_operator, reveal)
    public = public_type(kind)
    return shown if public == kind else {**shown, "type": public}


def event_json(stored: StoredEvent, caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """A stored event as the event log shows it to ``caller``."""
    out = {"version": stored.version, **redact(stored_form(stored), caller, reveal),
           "recorded_at": stored.recorded_at.isoformat()}
    if caller.is_operator:
        out["position"] = stored.position
        out["metadata"] = stored.metadata
        out["hash"] = stored.hash
        out["chain"] = stored.chain
    return out


def command_answer(applied: Applied, caller: Caller, ratings: RatingsOf) -> dict[str, Any]:
    """A command's answer: the new version, the events it appended as the
    caller may see them, and the caller's view (``ratings`` as for ``game_view``)."""
    state = applied.state
    game = game_of(state.variant)
    reveal = game.log_revealed(state)
    shown = [{"version": applied.before + 1 + i, **redact(game.to_json(e), caller, reveal)}
             for i, e in enumerate(applied.events)]
    return {"version": state.version, "events": shown, "game": game_view(state, caller, ratings)}


def creation_answer(created: Created, caller: Caller, computers: Iterable[int], ratings: RatingsOf) -> dict[str, Any]:
    """A new game: its id and version, its seats with their tokens (none for
    a computer's), and the game as ``caller`` sees it."""
    state = created.state
    playing = set(computers)
    seats = [{**s, "computer": s["seat"] in playing, "token": None if s["seat"] in playing else created.tokens[i]}
             for i, s in enumerate(game_of(state.variant).seats(state))]
    return {"id": str(created.game_id), "version": state.version, "seats": seats,
            "game": game_view(state, caller, ratings)}


def moves_answer(state: State, caller: Caller, asked: MovesAsked,
                 cursor: Callable[[MoveCursor], str]) -> dict[str, Any]:
    """A page of a seat's legal moves now (narrowed as ``asked``), each a
    body ``/play`` accepts as it is, and the cursor of the next page (in
    the words ``cursor`` gives it: ``service.move_cursors``)."""
    moves = game_of(state.variant).legal_moves(state, caller.own_seat)
    if asked.narrowed:
        moves = moves.narrowed(asked.card, asked.action, asked.targets)
    listed = moves.page(asked.limit, asked.after)
    following = listed.next
    return {"version": state.version, "seat": caller.own_seat, "moves": [m.to_dict() for m in listed.moves],
            "truncated": listed.truncated,
            "next": None if following is None else
            cursor(MoveCursor(state.version, following, asked.narrowing_tag))}


@dataclass(frozen=True)
class MovesAsked:
    """What a client asks of ``/moves``: a narrowing (the hand card, the
    action, targets every move names), how many, and after which page."""

    card: str | None = None
    action: str | None = None
    targets: tuple[str, ...] = ()
    limit: int = 200
    after: Resume | None = None

    @property
    def narrowed(self) -> bool:
        return self.card is not None or self.action is not None or bool(self.targets)

    @property
    def narrowing_tag(self) -> str:
        """Eight hex digits that name the narrowing (the card, the action and
        the set of targets, as given), which a cursor carries: a page's
        ``next`` fits only the pages of its own narrowing."""
        named = "\n".join([self.card or "", self.action or "", *sorted(set(self.targets))])
        return hashlib.blake2s(named.encode(), digest_size=4).hexdigest()


def check_answer(state: State, refusal: RuleViolation | None) -> dict[str, Any]:
    """Whether a move would be accepted now, or the rule and sentence ``play`` would refuse it with."""
    if refusal is None:
        return {"version": state.version, "legal": True}
    return {"version": state.version, "legal": False, "rule": refusal.rule, "detail": refusal.message}
