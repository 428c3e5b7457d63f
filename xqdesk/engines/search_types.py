"""Immutable values that every engine kind shares: what to search, and what a search reports.

They are plain data (no I/O) so the UCI text layer, the built-in searcher, the referee and the
window all speak the same vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from xqdesk.move import Move


@dataclass(frozen=True)
class SearchLimits:
    """When a search must stop. ``None`` means "no limit of this kind".

    ``movetime`` is in seconds. ``infinite`` searches until told to stop. ``searchmoves``
    restricts the root to these moves (the course's perpetual-check rule uses it).
    """

    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    infinite: bool = False
    searchmoves: Optional[tuple[Move, ...]] = None
    multipv: int = 1


@dataclass(frozen=True)
class Score:
    """A score from the point of view of the side to move: centipawns or mate in N moves.

    Exactly one of ``cp`` and ``mate`` is set. ``mate`` > 0 means the mover mates in ``mate``
    moves; < 0 means it is mated.
    """

    cp: Optional[int] = None
    mate: Optional[int] = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.mate is None):
            raise ValueError(f"a Score needs exactly one of cp and mate, got cp={self.cp!r} mate={self.mate!r}")

    def __str__(self) -> str:
        return f"#{self.mate}" if self.mate is not None else f"{self.cp / 100:+.2f}"


@dataclass(frozen=True)
class SearchInfo:
    """One progress report of a search (one UCI ``info`` line)."""

    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score: Optional[Score] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time_ms: Optional[int] = None
    pv: tuple[Move, ...] = ()
    multipv: int = 1
    string: Optional[str] = None
