"""Playing levels of the built-in engine: caps on depth and nodes for weaker play.

Level 20 is full strength (only the clock limits it). Lower levels cap the search; the caps were
chosen so each level is clearly stronger than the one below (depth and nodes roughly double).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from xqdesk.errors import XqdeskError

MIN_LEVEL = 1
MAX_LEVEL = 20


@dataclass(frozen=True)
class LevelLimits:
    """Caps applied on top of the caller's limits; None means no cap."""

    max_depth: Optional[int]
    max_nodes: Optional[int]


LEVEL_LIMITS: dict[int, LevelLimits] = {
    1: LevelLimits(1, 500),
    2: LevelLimits(1, 2_000),
    3: LevelLimits(2, 4_000),
    4: LevelLimits(2, 8_000),
    5: LevelLimits(3, 15_000),
    6: LevelLimits(3, 30_000),
    7: LevelLimits(4, 60_000),
    8: LevelLimits(4, 120_000),
    9: LevelLimits(5, 250_000),
    10: LevelLimits(5, 500_000),
    11: LevelLimits(6, 1_000_000),
    12: LevelLimits(7, 2_000_000),
    13: LevelLimits(8, 4_000_000),
    14: LevelLimits(9, 8_000_000),
    15: LevelLimits(10, 16_000_000),
    16: LevelLimits(11, 32_000_000),
    17: LevelLimits(12, 64_000_000),
    18: LevelLimits(14, 128_000_000),
    19: LevelLimits(16, 256_000_000),
    20: LevelLimits(None, None),
}


@dataclass(frozen=True)
class LadderPlace:
    """Where a level stands on the strength ladder (``bench/ladder.py``): the strongest
    Fairy-Stockfish ``Skill Level`` it beat in a best of 5 and the one it lost to, both sides at
    ``movetime`` seconds a move under the referee, from the master openings."""

    beats_skill: int
    loses_to_skill: Optional[int]
    movetime: float


LADDER_PLACES: dict[int, LadderPlace] = {
    1: LadderPlace(beats_skill=-5, loses_to_skill=0, movetime=0.5),
    3: LadderPlace(beats_skill=0, loses_to_skill=5, movetime=0.5),
    5: LadderPlace(beats_skill=5, loses_to_skill=10, movetime=0.5),
}
"""The levels the window offers before any engine is set up, measured on the ladder with
``python bench/ladder.py --engine builtin:Level=N --movetime 0.5 --engine-movetime 0.5 --rungs random
greedy minimax fsf:-20 fsf:-15 fsf:-10 fsf:-5 fsf:0 fsf:5 fsf:10``. Level 1 beat random, greedy, the
minimax student and skill −20 … −5, each 3–0, and lost to skill 0 2–3. Level 3 (the quick-start
opponent) beat everything up to skill 0, each 3–0, and lost to skill 5 1–3. Level 5 beat everything
up to skill 0 3–0 and skill 5 3–1, and lost to skill 10 0–3. A best of 5 places a level within a
step of the ladder, not closer."""


def ladder_place(level: int) -> Optional[LadderPlace]:
    """The measured ladder place of ``level`` (None when it was not measured)."""
    return LADDER_PLACES.get(level)


def level_limits(level: int) -> LevelLimits:
    """The caps of ``level`` (1..20); ValueError outside that range."""
    if level not in LEVEL_LIMITS:
        raise XqdeskError(f"level must be {MIN_LEVEL}..{MAX_LEVEL}, got {level!r}")
    return LEVEL_LIMITS[level]
