"""Cassino and its fishing family: the rules of one game type.

The modules, in the order a command meets them: :mod:`.commands`,
:mod:`.decide` (with :mod:`.play` for a turn's rules, :mod:`.dealing`,
:mod:`.scoring`), :mod:`.events`, :mod:`.evolve` into a :mod:`.state`;
:mod:`.legal` lists moves, :mod:`.moves` reads and writes them, and
:mod:`.options` holds every rule on which the sources differ.
"""

from .commands import AnswerUndo, CountOut, CreateGame, Deal, Play, SetClientSeed, Undo, VoidHand
from .decide import decide
from .events import EVENT_TYPES, UPCASTERS, Event, from_json, to_json
from .evolve import evolve, fold
from .legal import LegalMoves, MoveList, is_legal, legal_moves
from .moves import Action, Move
from .options import VARIANTS, Options, resolve
from .state import EndReason, GameState, Outcome, Seat, Status
from .table import Build

__all__ = [
    "Action", "AnswerUndo", "Build", "CountOut", "CreateGame", "Deal", "EVENT_TYPES", "EndReason", "Event",
    "GameState", "LegalMoves", "Move", "MoveList", "Options", "Outcome", "Play", "SetClientSeed", "Seat",
    "Status", "UPCASTERS", "Undo", "VARIANTS", "VoidHand", "decide", "evolve", "fold", "from_json",
    "is_legal", "legal_moves", "resolve", "to_json",
]
