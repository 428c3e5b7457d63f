"""Engine scores with a point of view, in the style of python-chess's ``chess.engine``.

A :class:`Score` is an evaluation from *one side's* view: :class:`Cp` (centipawns) or
:class:`Mate` (mate in N moves; negative: mated in N). ``Mate(0)`` means that side is mated now
and :data:`MATE_GIVEN` that it has just mated its opponent (the negation of ``Mate(0)``).
Scores negate (the other side's view) and compare: being mated now < mated in 5 < any centipawn
score < mate in 5 < mate in 1 < :data:`MATE_GIVEN`.

A :class:`PovScore` is a score together with whose view it is in. Engines report scores *relative*
to the side to move; ``PovScore(Cp(35), BLACK).red()`` is ``Cp(-35)``. Nothing else flips a sign.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Optional

from xqdesk.pieces import BLACK, RED, Color, color_name


class Score(abc.ABC):
    """An evaluation from one side's point of view (see the module docstring)."""

    @abc.abstractmethod
    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; a mate is ``mate_score`` minus the moves to mate (negated for the side
        being mated), or None when ``mate_score`` is not given."""

    @abc.abstractmethod
    def mate(self) -> Optional[int]:
        """Moves to mate (negative: to be mated; ``Mate(0)`` gives ``0``), None for centipawns."""

    def is_mate(self) -> bool:
        """Whether this is a mate score (either way)."""
        return self.mate() is not None

    @abc.abstractmethod
    def __neg__(self) -> Score:
        """The same evaluation from the other side's view."""

    def __pos__(self) -> Score:
        return self

    @abc.abstractmethod
    def _order_key(self) -> tuple[int, int]:
        """A key that sorts scores from worst to best for the side whose view they are in."""

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._order_key() < other._order_key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._order_key() <= other._order_key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._order_key() > other._order_key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._order_key() >= other._order_key()


@dataclass(frozen=True, eq=True, order=False)
class Cp(Score):
    """A score in centipawns: ``Cp(35)`` is a third of a pawn better. Prints as ``+0.35``."""

    centipawns: int

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.centipawns

    def mate(self) -> Optional[int]:
        return None

    def __neg__(self) -> Cp:
        return Cp(-self.centipawns)

    def _order_key(self) -> tuple[int, int]:
        return (0, self.centipawns)

    def __str__(self) -> str:
        return f"{self.centipawns / 100:+.2f}"


@dataclass(frozen=True, eq=True, order=False)
class Mate(Score):
    """Mate in ``moves`` (negative: mated in ``-moves``; 0: mated now). Prints as ``#3``, ``#-2``."""

    moves: int

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def __neg__(self) -> Score:
        return MATE_GIVEN if self.moves == 0 else Mate(-self.moves)

    def _order_key(self) -> tuple[int, int]:
        return (1, -self.moves) if self.moves > 0 else (-1, -self.moves)

    def __str__(self) -> str:
        return f"#{self.moves}" if self.moves else "#-0"


@dataclass(frozen=True, eq=True, order=False)
class MateGiven(Score):
    """This side has just mated its opponent (the other side's ``Mate(0)``). Use :data:`MATE_GIVEN`."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> Optional[int]:
        return 0

    def __neg__(self) -> Mate:
        return Mate(0)

    def _order_key(self) -> tuple[int, int]:
        return (2, 0)

    def __str__(self) -> str:
        return "#+0"


MATE_GIVEN = MateGiven()


@dataclass(frozen=True, eq=False)
class PovScore:
    """A :class:`Score` (``relative``) from the point of view of ``turn``, e.g. an engine's
    score, which is relative to the side to move. Convert it with :meth:`pov`, :meth:`red`,
    :meth:`black`. Two PovScores are equal when they say the same for Red."""

    relative: Score
    turn: Color

    def pov(self, color: Color) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def red(self) -> Score:
        """The score from Red's point of view."""
        return self.pov(RED)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(BLACK)

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.red() == other.red()

    def __hash__(self) -> int:
        return hash(self.red())

    def __str__(self) -> str:
        """The relative score, as engines write it (``+0.35``, ``#-2``)."""
        return str(self.relative)

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {color_name(self.turn).upper()})"


__all__ = ["Score", "Cp", "Mate", "MateGiven", "MATE_GIVEN", "PovScore"]
