"""Players' ratings: the read model a finished rated game's append keeps.

A game's rating is decided in the domain (``domain.rating``: the game's
``RatingsChanged`` event, or its game type's name for it) from its
players' ratings as they stand when it finishes, which are read here
(``Ratings.of``). The append that finishes the game carries its changes
(``service.writes.RatingChanged``, one a player) and writes them in the same
transaction: each player's new rating in ``ratings``, and a line per
player and game in ``rating_changes`` under the key (player, variant, the
number of the player's rated games after it). Two games of one player
finishing at once both read the same number of games: the second append
then breaks that key, writes nothing (``service.events.RatingsMoved``), and the service
decides its game again on the ratings as they now stand. So each rating
moves once per finished game, from the rating the game before left, and
the game's own version check keeps a game from being rated twice,
whichever process finishes it.

Two adapters keep ``Ratings``: PostgreSQL's (``service.postgres.ratings``)
and memory's (``service.memory.ratings``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol
from uuid import UUID

from domain.rating import INITIAL, Rating, RatingChange
from domain.seating import Holder

from service.writes import RatingChanged, Write


class Ratings(Protocol):
    """The ratings as kept, and what the pages of players and the leaderboard show of them."""

    def of(self, players: Sequence[str], variant: str) -> dict[str, Rating]:
        """The players' ratings in ``variant`` (on the primary); a player who has none is left out."""

    def player_ratings(self, player_id: UUID) -> list[dict[str, Any]]:
        """The player's rating in each variant it has played rated, by variant:
        ``variant``, ``rating``, ``deviation``, ``games``, ``provisional``."""

    def leaderboard(self, variant: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """Up to ``limit`` players of ``variant`` by rating (highest first,
        then by id), non-provisional only, from place ``after`` on: each with
        ``place``, ``id``, ``name`` and the rating's fields; and where the
        next page starts (None: none)."""


def rating_row(variant: str, rating: Rating) -> dict[str, Any]:
    """A rating as the API shows it, in ``variant``."""
    return {"variant": variant, **rating.to_dict()}


#: Reads players' ratings in a variant, as ``Ratings.of`` does.
RatingsOf = Callable[[Sequence[str], str], Mapping[str, Rating]]


def shown_rating(rating: Rating | None) -> dict[str, Any] | None:
    """A seat's rating as a listing or a view shows it beside the seat's
    name (its variant is the game's): ``rating``, ``deviation``, ``games``
    and ``provisional``; None for a seat no registered player holds."""
    return rating.to_dict() if rating is not None else None


def seat_ratings(holders: Sequence[Holder | None], variant: str, of: RatingsOf) -> list[dict[str, Any] | None]:
    """Each seat's holder's rating in ``variant`` as it stands now
    (``shown_rating``), seat 0 first: a registered player's, where
    everyone starts (``INITIAL``) until a rated game moves it; None for an
    open seat, a guest's or a computer's. One read for every seat, none
    when no player holds one."""
    players = [str(UUID(h.player)) if h is not None and h.player is not None else None for h in holders]
    held = [p for p in players if p is not None]
    kept = of(held, variant) if held else {}
    return [shown_rating(kept.get(p, INITIAL)) if p is not None else None for p in players]


def rating_writes(variant: str, changes: Sequence[RatingChange]) -> list[Write]:
    """What the append that rates a game writes of its players' new ratings in ``variant``."""
    return [RatingChanged(UUID(c.player), variant, c.seat, c.after.rating, c.after.deviation, c.after.games)
            for c in changes]
