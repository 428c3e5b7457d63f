"""Moves: a from-square and a to-square (see :mod:`xqdesk.squares`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from xqdesk.squares import SQUARE_COUNT, Square, from_course, parse_square, square_name, to_course


@dataclass(frozen=True, slots=True)
class Move:
    """A move from ``from_square`` to ``to_square``. Says nothing about legality."""

    from_square: Square
    to_square: Square

    def __post_init__(self) -> None:
        if not (0 <= self.from_square < SQUARE_COUNT and 0 <= self.to_square < SQUARE_COUNT):
            raise ValueError(f"square out of range in Move({self.from_square!r}, {self.to_square!r})")

    def iccs(self) -> str:
        """ICCS / Pikafish UCI text, e.g. ``'h2e2'``."""
        return square_name(self.from_square) + square_name(self.to_square)

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Parse ``'h2e2'`` or ``'H2-E2'``; raises ValueError on anything else."""
        cleaned = text.strip().replace("-", "")
        if len(cleaned) != 4:
            raise ValueError(f"not an ICCS move: {text!r} (expected like 'h2e2' or 'H2-E2')")
        try:
            return cls(parse_square(cleaned[:2]), parse_square(cleaned[2:]))
        except ValueError:
            raise ValueError(f"not an ICCS move: {text!r} (expected like 'h2e2' or 'H2-E2')") from None

    @classmethod
    def from_course(cls, action: Sequence[int]) -> Move:
        """The move for a course action ``(old_x, old_y, new_x, new_y)`` (any four ints)."""
        if len(action) < 4:
            raise ValueError(f"a course action needs four integers, got {action!r}")
        x0, y0, x1, y1 = (int(v) for v in action[:4])
        return cls(from_course(x0, y0), from_course(x1, y1))

    def to_course(self) -> tuple[int, int, int, int]:
        """The course action ``(old_x, old_y, new_x, new_y)``."""
        return to_course(self.from_square) + to_course(self.to_square)

    def __str__(self) -> str:
        return self.iccs()

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"
