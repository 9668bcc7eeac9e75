"""Rematches: the seats of a finished game answer a rematch
(``domain.rematch``), and the answer that completes it has the new game
created, with every player seated as themselves (``rematch_game``).

Each answer is an event of the finished game, appended under its version
check: two seats accepting at once append one after the other (the later
decided again on the game as it then is), so only one answer completes
the rematch and names its new game. The new game is created under that
id, so a second creation of it writes nothing. Should the process die
between the two appends, the new game is still made, with nobody calling:
the completing answer's append leaves a deadline on the finished game
(``service.games.REMATCH_LOOK`` on), claimed by the time keeper as any
deadline is, which creates the new game if it is not there
(``make_if_missing``); a later answer's call would too. A seat that
answers again is told the game as it stands (``Answered``: nothing appended).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from domain.clocks import ClockRule
from domain.errors import RuleViolation
from domain.game_types import State, game_of

from service.commands import AnswerRematch, CreateGame, SeatedPlayer
from service.events import ConcurrencyError
from service.games import Applied, GameNotFound, GameService

#: How often an answer that lost its append to another answer is decided again.
DECIDE_AGAIN = 8


@dataclass(frozen=True)
class Answered:
    """A seat's answer that was given before: the game as it stands."""

    state: State


def rematch_game(finished: uuid.UUID, state: State) -> CreateGame:
    """The creation of the rematch of the finished game ``finished``, whose
    answers named its id: the same terms, each player seated as themselves."""
    terms = game_of(state.variant).rematch_terms(state)
    assert state.rematch is not None and state.rematch.game_id is not None
    seated = tuple(SeatedPlayer(seat, uuid.UUID(player), name) for seat, (player, name) in enumerate(terms.players))
    clock = ClockRule.from_dict(dict(terms.clock)) if terms.clock is not None else None
    return CreateGame(variant=terms.variant, seats=(None,) * len(seated), options=dict(terms.options),
                      first_dealer=terms.first_dealer, clock=clock, rated=terms.rated,
                      guests=False, seated=seated, game_id=uuid.UUID(state.rematch.game_id), rematch_of=finished)


def answer(games: GameService, command: AnswerRematch) -> Applied | Answered:
    """Append the seat's answer, and create the new game once every seat
    has answered; a seat that answered before gets the game as it stands."""
    try:
        applied = games.execute(command)
    except RuleViolation as refused:
        if refused.rule == "rematch_answered":
            return Answered(games.load(command.game_id))
        if refused.rule == "rematch_exists":
            _made(games, command.game_id, games.load(command.game_id))
        raise
    made = applied.state.rematch
    if made is not None and made.game_id is not None:
        _made(games, command.game_id, applied.state)
    return applied


def make_if_missing(games: GameService, finished: uuid.UUID, state: State) -> bool:
    """Whether the finished game's rematch is complete (``state``: the
    finished game ``finished`` as it stands); if so, its new game is created
    unless it exists already. The time keeper calls it on the deadline the
    completing answer's append left on the finished game
    (``service.games.REMATCH_LOOK``), so a rematch whose process died
    between the answer and the creation is made with nobody calling."""
    if state.rematch is None or state.rematch.game_id is None:
        return False
    _made(games, finished, state)
    return True


def _made(games: GameService, finished: uuid.UUID, state: State) -> None:
    """Create the rematch the answers completed, unless it exists already."""
    assert state.rematch is not None and state.rematch.game_id is not None
    new_game = uuid.UUID(state.rematch.game_id)
    try:
        games.load(new_game)
        return
    except GameNotFound:
        pass
    try:
        games.create(rematch_game(finished, state))
    except ConcurrencyError:  # created meanwhile, by another answer's retry
        pass
