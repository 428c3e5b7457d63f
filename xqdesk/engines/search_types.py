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
    restricts the root to these moves (the course's perpetual-check rule uses it).
    """

    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    infinite: bool = False
    searchmoves: Optional[tuple[Move, ...]] = None
    multipv: int = 1


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
