"""Taking the latest move back, the same in every game: under the game's
``undo`` option (``consent``: the mover asks and every other player must
accept; ``free``: the mover takes it back at once; ``off``: never), or by
the operator without asking.

A game keeps the state before the latest move and whose it was; here are
the checks on an undo and on an answer to a request, and who is yet to
answer. ``move`` names the move in the sentences a player reads ("play",
"move"). What the game records, and when nothing can be taken back, is
the game's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import RuleViolation

POLICIES = ("consent", "free", "off")


def check_allowed(policy: str) -> None:
    """Refuse any undo where the game's ``undo`` option is ``off``."""
    if policy == "off":
        raise RuleViolation("undo_not_allowed", "This game does not allow taking moves back.")


def check_not_stood_in(seat: int | None, mover: int, stood_in: int | None, move: str) -> None:
    """Refuse the mover's undo of a move the service made for it when its
    time ran out (``stood_in``: the seat the service moved for, if it did);
    the operator may still take it back."""
    if seat is not None and seat == mover == stood_in:
        raise RuleViolation("moved_on_time_out",
                            f"This {move} was made for you when your time ran out; it cannot be taken back.")


def takes_back_at_once(policy: str, seat: int | None, mover: int, pending: int | None, move: str) -> bool:
    """Whether an undo by ``seat`` (None: the operator) of the latest move,
    made by ``mover``, takes it back at once (True) or asks the other
    players (False); a :class:`RuleViolation` when it may do neither. The
    game has checked the policy first (:func:`check_allowed`), and that there
    is a move to take back."""
    if seat is not None and seat != mover:
        raise RuleViolation("not_your_play", f"You can take back only your own {move}, and only the latest one.")
    if seat is None or policy == "free":
        return True
    if pending is not None:
        raise RuleViolation("undo_pending", f"You have already asked to take this {move} back.")
    return False


def yet_to_answer(asker: int, accepted: Iterable[int], players: Iterable[int]) -> tuple[int, ...]:
    """The ``players`` (in the game, in seat order) who must still accept ``asker``'s request."""
    done = set(accepted)
    return tuple(s for s in players if s != asker and s not in done)


def requested(asker: int | None, move: str) -> int:
    """The seat whose request to take its move back is pending; a
    :class:`RuleViolation` when there is none to answer."""
    if asker is None:
        raise RuleViolation("no_undo_request", f"No one has asked to take a {move} back.")
    return asker


def answer_completes(asker: int, seat: int, accept: bool, accepted: tuple[int, ...], players: Iterable[int]) -> bool:
    """Check ``seat``'s answer to ``asker``'s pending request; whether it is
    the last acceptance the request needs, which takes the move back. A
    refusal drops the request."""
    if seat == asker:
        raise RuleViolation("own_undo_request", "The others answer your request, not you.")
    if seat in accepted:
        raise RuleViolation("already_answered", "You have already accepted.")
    return accept and yet_to_answer(asker, accepted, players) == (seat,)
