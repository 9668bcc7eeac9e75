"""Who is asking: a seat, the operator, or the public."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Caller:
    kind: str  # "seat", "operator" or "public"
    seat: int | None = None

    @property
    def is_operator(self) -> bool:
        return self.kind == "operator"

    @property
    def is_seat(self) -> bool:
        return self.kind == "seat"

    @property
    def actor(self) -> str:
        """How events' metadata names the caller."""
        return "operator" if self.is_operator else f"seat:{self.seat}" if self.is_seat else "public"


PUBLIC = Caller("public")
OPERATOR = Caller("operator")


def seat(n: int) -> Caller:
    return Caller("seat", n)
