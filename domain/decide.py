"""Deciding commands: ``decide(state, command) -> list[Event]``.

``decide`` checks a command against the rules and returns the events that
record what happened; it never changes ``state``. A refused command raises
:class:`RuleViolation` (or :class:`OptionError` when creating a game).

A play may bring more than one event: when it empties the last hand of a
round the next round is dealt (``RoundDealt``), and when it is the last card
of the hand the hand is scored (``HandEnded``) and perhaps the game won
(``GameFinished``).
"""

from __future__ import annotations

from collections import Counter

from . import commands as cmd
from .cards import full_deck
from .dealing import deal_round
from .errors import OptionError, RuleViolation
from .events import (BuildMade, CardsCaptured, CardTrailed, CountedOut, Event, GameCreated,
                     GameFinished, HandDealt, HandEnded, RoundDealt)
from .evolve import evolve
from .options import resolve
from .play import resolve_play
from .scoring import hand_points, secured_points, settle
from .state import FINISHED, HAND_OVER, IN_PROGRESS, WAITING, GameState, Seat


def decide(state: GameState | None, command) -> list[Event]:
    """The events that ``command`` produces in ``state``, or a RuleViolation."""
    if isinstance(command, cmd.CreateGame):
        return _create(state, command)
    if state is None:
        raise RuleViolation("no_game", "There is no such game yet.")
    if state.status == FINISHED:
        raise RuleViolation("game_over", "The game is over.")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"decide() does not know {type(command).__name__}")
    return handler(state, command)


def _create(state, c: cmd.CreateGame) -> list[Event]:
    if state is not None:
        raise RuleViolation("game_exists", "This game has already been created.")
    n = len(c.players)
    options = resolve(c.variant, c.options, players=n)
    if not 0 <= c.first_dealer < n:
        raise OptionError(f"The first dealer must be a seat from 0 to {n - 1}.", "first_dealer")
    teams = [i % 2 if options.teams else i for i in range(n)]
    seats = tuple(Seat(name, team) for name, team in zip(c.players, teams))
    return [GameCreated(c.variant, options, seats, c.first_dealer)]


def _deal(state: GameState, c: cmd.Deal) -> list[Event]:
    if state.status == IN_PROGRESS:
        raise RuleViolation("hand_in_progress", "A hand is being played; it must end before the next deal.")
    dealer = state.next_dealer
    if c.seat is not None and c.seat != dealer:
        raise RuleViolation("not_dealer", f"Seat {dealer} deals this hand.")
    deck = tuple(c.deck)
    if len(deck) != 52 or Counter(deck) != Counter(full_deck()):
        raise RuleViolation("invalid_deck", "The deck must hold each of the 52 cards exactly once.")
    hands, table, _ = deal_round(deck, state.players, dealer, first=True)
    return [HandDealt(state.hand_number + 1, dealer, deck, hands, table, c.fixed)]


def _play(state: GameState, c: cmd.Play) -> list[Event]:
    play = resolve_play(state, c.seat, c.move)
    move = play.move
    if move.action == "trail":
        event: Event = CardTrailed(c.seat, move.card)
    elif move.action == "capture":
        event = CardsCaptured(c.seat, move.card, move.targets, play.captured, play.sweep)
    else:
        event = BuildMade(c.seat, move.card, move.targets, play.build)
    events = [event]
    after = evolve(state, event)
    if any(after.hands):
        return events
    if after.stock:
        hands, _, rest = deal_round(after.stock, after.players, after.dealer, first=False)
        events.append(RoundDealt(after.round + 1, hands, last=not rest))
        return events
    return events + _end_hand(after)


def _end_hand(state: GameState) -> list[Event]:
    residue = tuple(c for it in state.table for c in (it.cards if hasattr(it, "cards") else (it,)))
    ended = HandEnded(state.hand_number, state.last_capturer, residue, (), state.scores)
    scored = evolve(state, ended)  # the residue joins the last capturer's pile
    points = tuple(hand_points(scored))
    scores, winner, reason = settle(state, list(points))
    events: list[Event] = [HandEnded(state.hand_number, state.last_capturer, residue, points, scores)]
    if reason is not None:
        events.append(GameFinished(winner, reason, scores))
    return events


def _count_out(state: GameState, c: cmd.CountOut) -> list[Event]:
    opts = state.options
    if not opts.count_out:
        raise RuleViolation("count_out_not_allowed", "This game does not allow counting out.")
    if state.status != IN_PROGRESS:
        raise RuleViolation("no_hand_in_progress", "You can count out only while a hand is being played.")
    if not 0 <= c.seat < state.players:
        raise RuleViolation("not_a_seat", f"There is no seat {c.seat}.")
    team = state.team_of(c.seat)
    totals = [state.scores[t] + secured_points(state, t) for t in range(state.teams)]
    success = totals[team] >= opts.target
    if success:
        winner = team
    else:  # the best of the others wins; a tie goes to the first of them in turn order
        order = [state.team_of((c.seat + i) % state.players) for i in range(1, state.players)]
        winner = max((t for t in dict.fromkeys(order) if t != team), key=lambda t: totals[t])
    return [CountedOut(c.seat, team, totals[team], success),
            GameFinished(winner, "count_out", state.scores)]


_HANDLERS = {cmd.Deal: _deal, cmd.Play: _play, cmd.CountOut: _count_out}
