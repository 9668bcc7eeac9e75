"""Mass Cool Casino (seed 000): a betting game for 2 to 8 players, as a pure
library beside Cassino's, on the same kernel (cards, errors, shuffles).

The whole game in a few names::

    from domain.masscool import CreateGame, Deal, Move, command_for, decide, fold, follow_up, legal_moves

    events = decide(None, CreateGame(("Ann", "Bob"), first_dealer=0, seed=secret))
    state = fold(events)
    events += decide(state, Deal(seat=0, next_seed=secret2))
    state = fold(events)
    move = legal_moves(state, state.turn).first().moves[0]   # {"action": "bet", "cards": [...]} or stop
    events += decide(state, command_for(state.turn, move))
    # after each command, the service runs follow_up(state, fresh_secret) if it returns a command

Nothing here does I/O, reads the clock or draws random numbers.
"""

from .audit import audit_shuffles
from .audit import audit_shuffles as audit
from .betting import is_legal
from .commands import AnswerUndo, Bet, Command, CreateGame, Deal, Reshuffle, Stop, Undo, command_for
from .decide import decide, follow_up
from .events import CODEC, EVENT_TYPES, UPCASTERS, Event, from_json, to_json
from .evolve import evolve, fold
from .game import (PLAYERS, STATE, STATUSES, VARIANTS, Variant, abort_command, answer_undo_command, awaiting,
                   client_seed_command, computer_command, count_out_command, create_command, deadline, deal_command,
                   join_command, leave_command, log_revealed, outcome, parse_move, players_to_rate, rate_command,
                   rematch_command, rematch_terms,
                   resign_command, seat_holders, seats, summary, time_out_command, undo_command, void_command)
from ..paging import MoveList
from .legal import LegalMoves, legal_moves
from .moves import Move
from .rules import DESCRIPTION, GAME_TYPE, MAX_PLAYERS, MIN_PLAYERS, Options, default_options, resolve
from .state import MassCoolState, Outcome
from .views import describe_event, event_view, game_view

__all__ = [
    "CODEC", "AnswerUndo", "Bet", "Command", "CreateGame", "DESCRIPTION", "Deal", "EVENT_TYPES", "Event", "GAME_TYPE",
    "LegalMoves", "MAX_PLAYERS", "MIN_PLAYERS", "MassCoolState", "Move", "MoveList", "Options", "Outcome",
    "PLAYERS", "Reshuffle", "STATE", "STATUSES", "Stop", "UPCASTERS", "Undo", "VARIANTS", "Variant", "abort_command",
    "answer_undo_command", "audit", "audit_shuffles", "awaiting", "client_seed_command", "command_for",
    "computer_command", "count_out_command", "create_command", "deadline", "deal_command", "decide",
    "default_options", "describe_event", "event_view", "evolve", "fold", "follow_up", "from_json", "game_view",
    "is_legal", "join_command", "leave_command", "legal_moves", "log_revealed", "outcome", "parse_move",
    "players_to_rate", "rate_command", "rematch_command", "rematch_terms", "resign_command", "resolve",
    "seat_holders", "seats", "summary",
    "time_out_command", "to_json", "undo_command", "void_command",
]
