"""Ratings: how a finished rated game moves its players' ratings, the same
in every game type.

A player has a rating per variant, a Bayesian estimate of skill: ``rating``
(the mean) and ``deviation`` (how unsure it still is), from OpenSkill's
Weng-Lin Plackett-Luce model. That model reads a game as a finishing order
of teams, so one rule covers two to eight seats and partnerships alike: a
side is its players (every seat of a team, or a seat alone), the winners
rank above the rest, the rest tie, and a game with no winner is a draw
among all. A resignation or a time-out has already made its side the
loser (the game's outcome says so); an aborted game is not rated.

The ratings before a game are the service's to read (they live outside any
one game); the change they make is decided here, from the game's outcome,
and recorded in the game's own event (``Rate`` is the command the service
gives a finished rated game, once). Everyone starts equal (``INITIAL``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from .errors import RuleViolation
from .standing import Outcome
from .views import Describer

#: The result every game type gives an aborted game: it is never rated.
ABORTED = "aborted"
#: A rating stays provisional (off the leaderboard) for this many rated games.
PROVISIONAL_GAMES = 5

# OpenSkill's published defaults (mu 25, sigma 25/3, beta sigma/2, tau mu/300),
# scaled by 60 to the range players know from chess servers.
_MU = 1500.0
_SIGMA = _MU / 3
_MODEL = PlackettLuce(mu=_MU, sigma=_SIGMA, beta=_SIGMA / 2, tau=_MU / 300)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one variant after ``games`` rated games."""

    rating: float
    deviation: float
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_dict(self) -> dict[str, Any]:
        return {"rating": round(self.rating), "deviation": round(self.deviation), "games": self.games,
                "provisional": self.provisional}


#: Where every player starts, in every variant.
INITIAL = Rating(_MU, _SIGMA, 0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one finished game did to the rating of the player at ``seat``."""

    seat: int
    player: str
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "before": self.before.to_dict(),
                "after": self.after.to_dict(), "change": round(self.after.rating) - round(self.before.rating)}


def change_to_json(change: RatingChange) -> dict[str, Any]:
    """A change as an event stores it: every figure exact."""
    return {"seat": change.seat, "player": change.player,
            "before": [change.before.rating, change.before.deviation, change.before.games],
            "after": [change.after.rating, change.after.deviation, change.after.games]}


def change_from_json(data: Mapping[str, Any]) -> RatingChange:
    return RatingChange(data["seat"], data["player"], Rating(*data["before"]), Rating(*data["after"]))


#: How events store a game's rating changes (``domain.codec``).
CHANGES_CODEC = (lambda changes: [change_to_json(c) for c in changes],
                 lambda stored: tuple(change_from_json(c) for c in stored))


@dataclass(frozen=True, slots=True)
class Rate:
    """The service rates a finished rated game: ``ratings`` are its players'
    ratings in its variant as they stand before it (a player missing has
    ``INITIAL``)."""

    ratings: Mapping[str, Rating]


def rate_command(ratings: Mapping[str, Rating]) -> Rate:
    return Rate(dict(ratings))


def to_rate(rated: bool, outcome: Outcome | None, changes: Sequence[RatingChange],
            player_ids: Sequence[str | None]) -> tuple[str, ...]:
    """The players whose ratings a game moves now: every seat's, once a
    rated game is over (but aborted) and not rated yet; none otherwise."""
    if not rated or outcome is None or outcome.result == ABORTED or changes:
        return ()
    return tuple(p for p in player_ids if p is not None)


def rate(rated: bool, outcome: Outcome | None, changes: Sequence[RatingChange], player_ids: Sequence[str | None],
         teams: Sequence[int], command: Rate) -> tuple[RatingChange, ...]:
    """Each seat's rating change from the game's ``outcome`` (``teams``: each
    seat's side), or a :class:`RuleViolation` when there is nothing to rate."""
    players = to_rate(rated, outcome, changes, player_ids)
    if not players:
        raise RuleViolation("not_rated", "Only a rated game that has ended, and has not been rated, is rated.")
    assert outcome is not None and len(players) == len(player_ids)
    before = [command.ratings.get(p, INITIAL) for p in players]
    sides = [[seat for seat, team in enumerate(teams) if team == side] for side in sorted(set(teams))]
    after = _rated_sides(sides, _ranks(sides, outcome.winners), before)
    return tuple(RatingChange(seat, players[seat], before[seat], after[seat]) for seat in range(len(players)))


def _ranks(sides: Sequence[Sequence[int]], winners: Sequence[int]) -> list[float]:
    """Each side's place: the winners' first, the rest tied behind them; all tied in a draw."""
    return [1.0 if not winners or set(side) & set(winners) else 2.0 for side in sides]


def _rated_sides(sides: Sequence[Sequence[int]], ranks: list[float], before: Sequence[Rating]) -> dict[int, Rating]:
    """Each seat's rating after its side finished at its rank (the model's update)."""
    new = _MODEL.rate([[_MODEL.rating(mu=before[s].rating, sigma=before[s].deviation) for s in side]
                       for side in sides], ranks=ranks)
    return {seat: Rating(r.mu, r.sigma, before[seat].games + 1)
            for side, rated in zip(sides, new, strict=True) for seat, r in zip(side, rated, strict=True)}


def check_rated_seats(rated: bool, player_ids: Sequence[str | None], names: Sequence[str | None]) -> None:
    """A rated game seats registered players only (``unrated_seat``): at its
    creation every seat is open or a player's."""
    if rated and any(name is not None and player is None for name, player in zip(names, player_ids, strict=True)):
        raise RuleViolation("unrated_seat", "A rated game seats registered players only: leave the other seats"
                            " open for players to join.")


def rating_view(rated: bool, changes: Sequence[RatingChange]) -> dict[str, Any]:
    """The fields of every game's view on its rating: ``rated``, and
    ``rating_changes`` (each seat's, once the finished game is rated; else null)."""
    return {"rated": rated, "rating_changes": [c.to_dict() for c in changes] if changes else None}


def rating_describers(*, rated: str, changed: str) -> dict[str, Describer]:
    """The describers of a game's rating events, by the game's names for them."""
    return {
        rated: lambda d: "a rated game",
        changed: lambda d: "ratings: " + ", ".join(
            f"seat {c['seat']} {round(c['before'][0])} to {round(c['after'][0])}" for c in d["changes"]),
    }
