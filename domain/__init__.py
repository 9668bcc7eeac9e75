"""The rules of Cassino and its family, as a pure library.

The whole game in a few names::

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

from .cards import Card, card, cards, full_deck
from .commands import AnswerUndo, CountOut, CreateGame, Deal, Play, SetClientSeed, Undo, VoidHand
from .decide import decide
from .errors import NotationError, OptionError, RuleViolation
from .events import EVENT_TYPES, UPCASTERS, Event, from_json, to_json
from .evolve import evolve, fold
from .legal import LegalMoves, MoveList, is_legal, legal_moves
from .moves import Move
from .options import VARIANTS, Options, resolve
from .state import GameState, Outcome, Seat
from .table import Build

__all__ = [
    "AnswerUndo", "SetClientSeed", "Undo", "VoidHand", "Build", "Card", "CountOut", "CreateGame", "Deal", "EVENT_TYPES", "Event", "GameState",
    "LegalMoves", "Move", "MoveList", "NotationError", "OptionError", "Options", "Outcome",
    "Play", "RuleViolation", "Seat", "UPCASTERS", "VARIANTS", "card", "cards", "decide",
    "evolve", "fold", "from_json", "full_deck", "is_legal", "legal_moves", "resolve", "to_json",
]
