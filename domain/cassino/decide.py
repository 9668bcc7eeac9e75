"""Deciding commands: ``decide(state, command) -> list[Event]``.

``decide`` checks a command against the rules and returns the events that
record what happened; it never changes ``state``. A refused command raises
:class:`RuleViolation` (or :class:`OptionError` when creating a game). The
kernel's :class:`~domain.deciding.Decider` hands each command to its
handler here.

A play may bring more than one event: when it empties the last hand of a
round the next round is dealt (``RoundDealt``), and when it is the last card
of the hand the hand is scored (``HandEnded``) and perhaps the game won
(``GameFinished``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from .. import kernel_rules, rating, seating
from ..cards import Card
from ..deciding import Decider
from ..kernel_events import ClockSet, RatedSet
from ..errors import OptionError, RuleViolation
from ..shuffle import commitment, deck_from_seed
from . import commands as cmd
from .dealing import deal_round, deck_for, play_order
from .computer import stand_in
from .events import (BuildMade, BundleStolen, CardDrawn, CardPlucked, CardsCaptured, CardTrailed, ClientSeedSet,
                     CountedOut, Event, GameCreated, GameFinished, HandDealt, HandEnded, HandVoided,
                     InitialPairsTaken, PointsScored, RoundDealt, SeedRevealed, ShuffleCommitted)
from .evolve import evolve, fold
from .game import outcome
from .moves import Action, Move, pile_seat
from .options import resolve
from .play import resolve_play
from .scoring import count_out_claim, hand_points, instant_points, secured_points, settle
from .state import FINISHED, IN_PROGRESS, EndReason, GameState, Seat
from .table import item_id


def _create(c: cmd.CreateGame) -> list[Event]:
    n = len(c.players)
    options = resolve(c.variant, c.options, players=n)
    if not 0 <= c.first_dealer < n:
        raise OptionError(f"The first dealer must be a seat from 0 to {n - 1}.", "first_dealer")
    teams = [i % 2 if options.teams else i for i in range(n)]
    seats = tuple(Seat(name, team) for name, team in zip(c.players, teams))
    rating.check_rated_seats(c.rated, (None,) * n, c.players)
    clock = [ClockSet(c.clock)] if c.clock is not None else []
    rated = [RatedSet()] if c.rated else []
    return [GameCreated(c.variant, options, seats, c.first_dealer), *clock, *rated, *_commit(1, c.seed)]


def _commit(hand_number: int, seed: bytes | None) -> list[Event]:
    """Commit to the secret seed of a coming hand, if the service gave one."""
    return [ShuffleCommitted(hand_number, commitment(seed), seed.hex())] if seed is not None else []


def _reveal(state: GameState) -> list[Event]:
    """Reveal the committed seed once its hand is over, or the game ends
    before it: the hand being played's, or between hands the next one's."""
    number = state.hand_number if state.status == IN_PROGRESS else state.hand_number + 1
    return [SeedRevealed(number, state.seed)] if state.seed is not None else []


def _deal(state: GameState, c: cmd.Deal) -> list[Event]:
    seating.check_all_seated(state.names)
    if state.status == IN_PROGRESS:
        raise RuleViolation("hand_in_progress", "A hand is being played; it must end before the next deal.")
    dealer = state.next_dealer
    if c.seat is not None and c.seat != dealer:
        raise RuleViolation("not_dealer", f"Seat {dealer} deals this hand.")
    number = state.hand_number + 1
    client_seeds: tuple[str, ...] = ()
    if c.deck is not None:
        deck = tuple(c.deck)
        cards = deck_for(state.options)
        if len(deck) != len(cards) or Counter(deck) != Counter(cards):
            raise RuleViolation("invalid_deck", f"The deck must hold each of the game's {len(cards)} cards "
                                "exactly once.")
        fixed, committed = True, None
    elif state.seed is not None:
        client_seeds = tuple(x for x in state.client_seeds if x)
        deck = deck_from_seed(bytes.fromhex(state.seed), number, client_seeds, deck_for(state.options))
        fixed, committed = False, state.commitment
    else:
        raise RuleViolation("no_shuffle_committed", "No shuffle has been committed for this hand; give the deck.")
    hands, table, _ = deal_round(deck, state.players, dealer, True, state.options)
    dealt = HandDealt(number, dealer, deck, hands, table, fixed, committed, client_seeds)
    if not state.options.initial_pairs:
        return [dealt]
    return [dealt, *_initial_pairs(evolve(state, dealt))]


def _initial_pairs(state: GameState) -> list[Event]:
    """``initial_pairs``: pairs of a rank dealt to the table go to the first player."""
    by_rank: dict[int, list[Card]] = {}
    for c in state.table:  # all loose: nothing is built before the first play
        if isinstance(c, Card):
            by_rank.setdefault(c.rank, []).append(c)
    pairs = tuple(c for same in by_rank.values() for c in same[: len(same) // 2 * 2])
    if not pairs:
        return []
    first = state.turn
    assert first is not None, "a hand being played has a seat to play"
    sweep = len(pairs) == len(state.table) and state.options.sweeps > 0
    taken = InitialPairsTaken(first, pairs, sweep)
    return [taken, *_score_now(evolve(state, taken), first, pairs, sweep)]


def _score_now(state: GameState, seat: int, cards: Collection[Card], sweep: bool, pips: int = 0,
               default: bool = False) -> list[Event]:
    """What a play scores at once (:func:`~.scoring.instant_points`), and the
    game's end when that decides it: a side reaching the target under sudden
    death, or too many strikes against a side (``strikes_to_lose``)."""
    awards = tuple(instant_points(state, seat, cards, sweep, pips, default))
    if not awards:
        return []
    scores = list(state.scores)
    for a in awards:
        scores[a.team] += a.points
    scored = PointsScored(awards, tuple(scores))
    return [scored, *_ended_at_once(evolve(state, scored), seat)]


def _ended_at_once(state: GameState, seat: int) -> list[Event]:
    opts = state.options
    team = state.team_of(seat)
    if opts.sudden_death and opts.target is not None and state.scores[team] >= opts.target:
        return [*_reveal(state), GameFinished(team, EndReason.TARGET, state.scores)]
    limit = opts.strikes_to_lose
    struck = next((t for t, n in enumerate(state.strikes) if limit is not None and n >= limit), None)
    if struck is not None:
        winner = _best_other(state, struck, seat, state.scores)
        return [*_reveal(state), GameFinished(winner, EndReason.STRIKES, state.scores)]
    return []


def _best_other(state: GameState, team: int, seat: int, totals: Sequence[int]) -> int:
    """The side with the best of ``totals`` other than ``team``; a tie goes to
    the first of them in turn order after ``seat``."""
    order = [state.team_of(s) for s in play_order(state.players, seat, state.options.counter_clockwise)]
    return max((t for t in dict.fromkeys(order) if t != team), key=lambda t: totals[t])


def _play(state: GameState, c: cmd.Play) -> list[Event]:
    play = resolve_play(state, c.seat, c.move)
    move = play.move
    if move.action == Action.PLUCK:
        return [CardPlucked(c.seat, move.card)]
    if move.action == Action.TRAIL and not play.taken:
        event: Event = CardTrailed(c.seat, move.card)
    elif move.action in (Action.CAPTURE, Action.TRAIL):  # a trail that takes sweeps (spade_five_sweeps)
        taking = move if move.action == Action.CAPTURE else Move.capture(move.card, *map(item_id, play.taken))
        event = CardsCaptured(c.seat, move.card, taking.targets, play.captured, play.sweep)
    elif move.action == Action.STEAL:
        victim = pile_seat(move.targets[0])
        assert victim is not None, "a legal steal names a seat's pile"
        event = BundleStolen(c.seat, move.card, victim, play.captured)
    else:
        assert play.build is not None, "a legal build move leaves a build"
        event = BuildMade(c.seat, move.card, move.targets, play.build)
    events = [event]
    after = evolve(state, event)
    taken = play.captured if isinstance(event, CardsCaptured) else ()
    scored = _score_now(after, c.seat, taken, play.sweep, play.pips, play.default)
    events += scored
    after = fold(scored, after)
    if after.status == FINISHED:
        return events
    if after.options.draw and after.stock:
        drawn = CardDrawn(c.seat, after.stock[0])
        events.append(drawn)
        after = evolve(after, drawn)
    if any(after.hands):
        return events
    if after.stock:
        hands, table, rest = deal_round(after.stock, after.players, after.dealer, False, after.options)
        events.append(RoundDealt(after.round + 1, hands, last=not rest, table=table))
        return events
    return events + _end_hand(after, c.next_seed)


def _end_hand(state: GameState, next_seed: bytes | None) -> list[Event]:
    residue = tuple(c for it in state.table for c in (it.cards if hasattr(it, "cards") else (it,)))
    # The residue goes to the last capturer; in a hand where no one captured, to the dealer.
    taker = state.last_capturer if state.last_capturer is not None else state.dealer
    ended = HandEnded(state.hand_number, taker, residue, (), state.scores)
    scored = evolve(state, ended)  # the residue joins the last capturer's pile
    points = tuple(hand_points(scored))
    scores, winner, reason = settle(state, list(points))
    events: list[Event] = [HandEnded(state.hand_number, taker, residue, points, scores)]
    events += _reveal(state)
    if reason is not None:
        events.append(GameFinished(winner, reason, scores))
    else:
        events += _commit(state.hand_number + 1, next_seed)
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
    claims = [count_out_claim(state, t) for t in range(state.teams)]
    claim = claims[team]
    if claim.succeeds:
        winner = team
    else:  # the best of the others wins; a tie goes to the first of them in turn order
        winner = _best_other(state, team, c.seat, [other.total for other in claims])
    return [CountedOut(c.seat, team, claim.total, claim.succeeds), *_reveal(state),
            GameFinished(winner, EndReason.COUNT_OUT, state.scores)]


def _set_client_seed(state: GameState, c: cmd.SetClientSeed) -> list[Event]:
    if state.status == IN_PROGRESS:
        raise RuleViolation("hand_in_progress", "Client seeds are set between hands, before the deal.")
    return [ClientSeedSet(c.seat, c.seed)]


def _latest_play(state: GameState) -> tuple[int, int | None]:
    """The seat whose play an undo takes back, and the seat the service played for in it."""
    if state.before_play is None or state.last_player is None:
        raise RuleViolation("nothing_to_undo",
                            "There is no play to take back: a deal or the end of a round cannot be undone.")
    if _drew_since(state.before_play, state):
        raise RuleViolation("nothing_to_undo",
                            "This play cannot be taken back: the card drawn after it has been seen.")
    return state.last_player, state.before_play.stood_in


def _drew_since(before: GameState, now: GameState) -> bool:
    """Whether a card left the stock between ``before`` and ``now``: a play
    never takes one, so the player drew after playing (Draw Cassino). The
    drawn card was seen, and an undo would put it back on top of the stock
    for all to know. (The undo point is kept through a draw, not cleared as a
    deal clears it, so that logs written before this rule still fold.)"""
    return len(now.stock) != len(before.stock)


def _void(state: GameState, c: cmd.VoidHand) -> list[Event]:
    if state.status != IN_PROGRESS:
        raise RuleViolation("no_hand_in_progress", "Only a hand being played can be voided.")
    return [HandVoided(state.hand_number, c.reason), *_reveal(state),
            *_commit(state.hand_number + 1, c.next_seed)]


def _forfeit(state: GameState, seat: int, reason: str) -> list[Event]:
    """``seat``'s side loses: the best of the other sides wins, on their
    scores and the points they have made sure of in the hand being played
    (a tie goes to the first of them in turn order after ``seat``), as
    when a count-out falls short."""
    totals = [state.scores[t] + (secured_points(state, t) if state.status == IN_PROGRESS else 0)
              for t in range(state.teams)]
    winner = _best_other(state, state.team_of(seat), seat, totals)
    return [*_reveal(state), GameFinished(winner, EndReason(reason), state.scores)]


def _call_off(state: GameState) -> list[Event]:
    """The game ends with no winner (aborted)."""
    return [*_reveal(state), GameFinished(None, EndReason.ABORTED, state.scores)]


def _decide(state: GameState, command: cmd.Command) -> list[Event]:
    """The time-out's stand-in move, decided as any command."""
    return decide(state, command)


#: Cassino's part of the kernel's handlers (:mod:`domain.kernel_rules`).
KERNEL: kernel_rules.Hooks[GameState] = kernel_rules.Hooks(
    dealt=lambda s: s.hand_number > 0,
    check_seat=lambda s, seat: seating.check_held(s.names, seat), forfeit=_forfeit, call_off=_call_off,
    sides=lambda s: [seat.team for seat in s.seats], outcome=outcome, stand_in=stand_in, evolve=evolve,
    decide=_decide, undo_policy=lambda s: s.options.undo, latest=_latest_play,
    answering=lambda s, seat: range(s.players), undo=cmd.Undo, answer_undo=cmd.AnswerUndo, move="play")

decide = Decider[GameState, cmd.Command, Event](cmd.CreateGame, _create, {
    cmd.Deal: _deal, cmd.Play: _play, cmd.CountOut: _count_out, cmd.SetClientSeed: _set_client_seed,
    cmd.VoidHand: _void, **kernel_rules.decide_handlers(KERNEL),
}).decide
