"""Immutable values that every engine kind shares: what to search, and what a search reports.

They are plain data (no I/O) so the UCI text layer, the built-in searcher, the referee and the
window all speak the same vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from xqdesk.move import Move
from xqdesk.score import PovScore


@dataclass(frozen=True)
class SearchLimits:
    """When a search must stop. ``None`` means "no limit of this kind".

    ``movetime`` is in seconds. ``infinite`` searches until told to stop. ``searchmoves``
    restricts the root to these moves (the course's perpetual-check rule uses it). Under a game
    clock, ``red_time``/``black_time`` are each side's seconds left and ``red_increment``/
    ``black_increment`` what each move adds (UCI ``wtime btime winc binc``); the engine plans its
    own time from them.
    """

    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    infinite: bool = False
    searchmoves: Optional[tuple[Move, ...]] = None
    multipv: int = 1
    red_time: Optional[float] = None
    black_time: Optional[float] = None
    red_increment: Optional[float] = None
    black_increment: Optional[float] = None

    def clock_for(self, red: bool) -> tuple[Optional[float], float]:
        """The searching side's seconds left and increment (None, 0 when no game clock runs)."""
        left, increment = (self.red_time, self.red_increment) if red else (self.black_time, self.black_increment)
        return left, increment or 0.0


@dataclass(frozen=True)
class SearchInfo:
    """One progress report of a search (one UCI ``info`` line). ``score`` knows whose view it
    is in (engines score from the side to move's)."""

    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score: Optional[PovScore] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time_ms: Optional[int] = None
    pv: tuple[Move, ...] = ()
    multipv: int = 1
    string: Optional[str] = None
