"""Cassino and its fishing family: the rules of one game type.

The modules, in the order a command meets them: :mod:`.commands`,
:mod:`.decide` (with :mod:`.play` for a turn's rules, :mod:`.dealing`,
:mod:`.scoring`), :mod:`.events`, :mod:`.evolve` into a :mod:`.state`;
:mod:`.legal` lists moves, :mod:`.moves` reads and writes them, and
:mod:`.options` holds every rule on which the sources differ. :mod:`.views`
says what each caller may see, and :mod:`.game` completes the game-type
interface (:class:`domain.game_types.GameType`) that a service serves it through.
"""

from .audit import audit_deals
from .audit import audit_deals as audit
from .commands import AnswerUndo, Command, CountOut, CreateGame, Deal, Play, SetClientSeed, Undo, VoidHand
from .decide import decide
from .events import CODEC, EVENT_TYPES, UPCASTERS, Event, from_json, to_json
from .evolve import evolve, fold
from .game import (DESCRIPTION, GAME_TYPE, PLAYERS, STATE, STATUSES, abort_command, answer_undo_command, awaiting,
                   client_seed_command, command_for, computer_command, count_out_command, create_command, deadline,
                   deal_command, follow_up, join_command, leave_command, outcome, parse_move, players_to_rate,
                   rate_command, rematch_command, rematch_terms, resign_command, seat_holders, seats, summary,
                   time_out_command, undo_command,
                   void_command)
from ..paging import MoveList
from .legal import LegalMoves, is_legal, legal_moves
from .moves import Action, Move
from .options import VARIANTS, Options, resolve
from .state import EndReason, GameState, Outcome, Seat, Status
from .table import Build
from .views import describe_event, event_view, game_view, log_revealed

__all__ = [
    "CODEC", "Action", "AnswerUndo", "Build", "Command", "CountOut", "CreateGame", "DESCRIPTION", "Deal", "EVENT_TYPES",
    "EndReason", "Event", "GAME_TYPE", "GameState", "LegalMoves", "Move", "MoveList", "Options", "Outcome",
    "PLAYERS", "Play", "STATE", "STATUSES", "Seat", "SetClientSeed", "Status", "UPCASTERS", "Undo", "VARIANTS",
    "VoidHand",
    "abort_command", "answer_undo_command", "audit", "audit_deals", "awaiting", "client_seed_command", "command_for",
    "computer_command", "count_out_command", "create_command", "deadline", "deal_command", "decide",
    "describe_event", "event_view", "evolve", "fold", "follow_up", "from_json", "game_view", "is_legal",
    "join_command", "leave_command", "legal_moves", "log_revealed", "outcome", "parse_move", "players_to_rate",
    "rate_command", "rematch_command", "rematch_terms", "resign_command",
    "resolve", "seat_holders", "seats", "summary", "time_out_command", "to_json", "undo_command", "void_command",
]
