"""Card games as a pure library: Cassino and its family, Mass Cool Casino,
and room for more.

This door is game-neutral: it hands out the kernel and the registry, and
each game's own names are in its package (:mod:`domain.cassino`,
:mod:`domain.masscool`). The kernel is what every game shares:
:mod:`domain.cards` (cards and their notation), :mod:`domain.groups`
(splitting values into groups of a sum), :mod:`domain.shuffle` (decks
derived from committed seeds), :mod:`domain.errors`, :mod:`domain.codec`
(events as stored JSON: one codec, each game's registry of event types,
upcasters), :mod:`domain.deciding` and :mod:`domain.folding` (``decide``
and ``fold`` from a game's handlers), :mod:`domain.standing` (the statuses
every game has, what a game awaits, its outcome), :mod:`domain.summary`
and :mod:`domain.views`.

Each game is a package behind one interface, :class:`GameType`, in the
manner of python-chess's variants, generic over the game's own state,
commands, events and moves::

    decide(state, command) -> list[Event]   # or raise RuleViolation
    evolve(state, event) -> State
    fold(events, state=None) -> State        # never None: no events is a ValueError
    legal_moves(state, seat)                 # a lazy view; .first() a bounded list
    awaiting(state), outcome(state)          # what it waits for; how it ended
    to_json(event) / from_json(stored)       # the stored form of events
    VARIANTS, resolve, create_command, ...   # what a service needs besides (see domain.game_types)

:data:`GAME_TYPES` maps a game type's name to its package,
:func:`game_of` finds the game of a variant and
:func:`~domain.game_types.game_of_event` the game of a stored event. A game
is played through the interface alone::

    >>> from domain import full_deck, game_of
    >>> game = game_of("cassino")
    >>> state = game.fold(game.decide(None, game.create_command("cassino", ("Ann", "Bob"), 1, None, None)))
    >>> state = game.fold(game.decide(state, game.deal_command(None, full_deck(), None)), state)
    >>> game.awaiting(state)
    Awaiting(command=<Awaited.PLAY: 'play'>, seats=(0,))
    >>> move = game.legal_moves(state, 0).first().moves[0]
    >>> state = game.fold(game.decide(state, game.command_for(0, move, None)), state)
    >>> game.game_view(state)["awaiting"]
    {'command': 'play', 'seats': [1]}

Nothing here does I/O, reads the clock, or draws random numbers: the shuffled
deck comes in as data.
"""

from . import cassino, game_types, masscool
from .cards import Card, card, cards, full_deck
from .errors import NotationError, OptionError, RuleViolation
from .game_types import GAME_TYPES, AnyGameType, GameType, game_of, game_of_event
from .standing import FINISHED, WAITING, Awaited, Awaiting, Outcome, is_finished

__all__ = [
    "FINISHED", "GAME_TYPES", "WAITING", "AnyGameType", "Awaited", "Awaiting", "Card", "GameType", "NotationError",
    "OptionError", "Outcome", "RuleViolation", "card", "cards", "cassino", "full_deck", "game_of", "game_of_event",
    "game_types", "is_finished", "masscool",
]
