"""Card games as a pure library: Cassino and its family, and room for more.

The shared kernel is game-neutral: :mod:`domain.cards` (cards and their
notation), :mod:`domain.groups` (splitting values into groups of a sum),
:mod:`domain.shuffle` (decks derived from committed seeds),
:mod:`domain.errors`, :mod:`domain.standing` (what a game awaits, and its
outcome), :mod:`domain.summary` and :mod:`domain.views`. Each
game is a module behind one interface, :class:`domain.game_types.GameType`, in
the manner of python-chess's variants::

    decide(state, command) -> list[Event]   # or raise RuleViolation
    evolve(state, event) -> State
    fold(events, state=None) -> State        # never None: no events is a ValueError
    legal_moves(state, seat)                 # a lazy view; .first() a bounded list
    to_json(event) / from_json(stored)       # the stored form of events
    VARIANTS, resolve, create_command, ...   # what a service needs besides (see domain.game_types)

:data:`domain.game_types.GAME_TYPES` maps a game type's name to its module;
:func:`domain.game_types.game_of` finds the game of a variant and
:func:`domain.game_types.game_of_event` the game of a stored event. The games
are :mod:`domain.cassino` and :mod:`domain.masscool` (Mass Cool Casino).

The Cassino names are also here, for a caller that knows its game::

    from domain import Card, Move, CreateGame, Deal, Play, decide, fold, legal_moves

    events = decide(None, CreateGame("cassino", ("Ann", "Bob"), first_dealer=1))
    state = fold(events)
    events += decide(state, Deal(deck))            # deck: 52 cards, top first
    state = fold(events)
    move = legal_moves(state, state.turn).first().moves[0]
    events += decide(state, Play(state.turn, move))

Nothing here does I/O, reads the clock, or draws random numbers: the shuffled
deck comes in as data.
"""

from . import game_types
from .cards import Card, card, cards, full_deck
from .cassino import (EVENT_TYPES, UPCASTERS, VARIANTS, Action, AnswerUndo, Build, CountOut, CreateGame, Deal,
                      EndReason, Event, GameState, LegalMoves, Move, MoveList, Options, Outcome, Play, Seat,
                      SetClientSeed, Status, Undo, VoidHand, decide, evolve, fold, from_json, is_legal,
                      legal_moves, resolve, to_json)
from .errors import NotationError, OptionError, RuleViolation
from .game_types import GAME_TYPES, GameType, game_of

__all__ = [
    "Action", "AnswerUndo", "Build", "Card", "CountOut", "CreateGame", "Deal", "EVENT_TYPES", "EndReason", "Event",
    "GAME_TYPES", "GameState", "GameType", "LegalMoves", "Move", "MoveList", "NotationError", "OptionError",
    "Options", "Outcome", "Play", "RuleViolation", "Seat", "SetClientSeed", "Status", "UPCASTERS", "Undo",
    "VARIANTS", "VoidHand", "card", "cards", "decide", "evolve", "fold", "from_json", "full_deck", "game_of",
    "game_types", "is_legal", "legal_moves", "resolve", "to_json",
]
