"""The built-in search's tunables: one table of the numbers its pruning, reductions and extensions
use, each with the range a tuner may try.

The compiled search reads them at run time from an ``int64`` array (``SearchContext.tunables``),
indexed by the ``T_*`` constants, so two engines in one process can search with different values
and nothing is recompiled. The engine's ``Tunables`` option sets them by name
(``"FUTILITY_MARGIN=140 LMR_FIRST_MOVES=4"``); ``bench/tune_search.py`` tunes them by SPSA. Depths
and move counts are plies and moves; margins are centipawns.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tunable:
    """One number of the search: its shipped ``value``, the range ``low..high`` a tuner may try, and
    what it does."""

    name: str
    value: int
    low: int
    high: int
    doc: str


TUNABLES: tuple[Tunable, ...] = (
    Tunable("FUTILITY_MARGIN", 130, 50, 300,
            "per ply of depth: at depth <= FUTILITY_DEPTH, quiet moves that give no check are skipped "
            "when the static score is this far below alpha"),
    Tunable("FUTILITY_DEPTH", 2, 0, 4, "the deepest node futility pruning applies to"),
    Tunable("REVERSE_FUTILITY_MARGIN", 110, 40, 300,
            "per ply of depth: at depth <= REVERSE_FUTILITY_DEPTH, a static score this far above beta cuts"),
    Tunable("REVERSE_FUTILITY_DEPTH", 3, 0, 6, "the deepest node reverse futility applies to"),
    Tunable("NULL_MOVE_MIN_DEPTH", 3, 2, 5, "the shallowest node that tries a null move"),
    Tunable("NULL_MOVE_REDUCTION", 2, 1, 4, "the null move's reduction below NULL_MOVE_DEEP_DEPTH ..."),
    Tunable("NULL_MOVE_DEEP_REDUCTION", 3, 2, 5, "... and from it"),
    Tunable("NULL_MOVE_DEEP_DEPTH", 7, 4, 12, "where the null move's deeper reduction starts"),
    Tunable("LATE_MOVE_PRUNING_DEPTH", 3, 0, 5,
            "at depth <= this, a quiet move that gives no check is tried only among the first "
            "LATE_MOVE_BASE + LATE_MOVE_SCALE * depth² legal moves"),
    Tunable("LATE_MOVE_BASE", 6, 2, 16, "see LATE_MOVE_PRUNING_DEPTH"),
    Tunable("LATE_MOVE_SCALE", 4, 1, 10, "see LATE_MOVE_PRUNING_DEPTH"),
    Tunable("LMR_MIN_DEPTH", 3, 2, 5, "the shallowest node whose late quiet moves are reduced"),
    Tunable("LMR_FIRST_MOVES", 3, 1, 8, "legal moves searched before any is reduced"),
    Tunable("LMR_MORE_MOVES", 8, 4, 20, "legal moves after which a reduction grows by one ply ..."),
    Tunable("LMR_DEEP_DEPTH", 8, 5, 14, "... and from this depth ..."),
    Tunable("LMR_DEEP_MOVES", 16, 8, 40, "... after this many legal moves, by one more"),
    Tunable("CHECK_EXTENSION_PLY_FACTOR", 2, 1, 3,
            "checks, mate threats and singular moves are extended while ply < factor * root depth + slack"),
    Tunable("CHECK_EXTENSION_PLY_SLACK", 4, 0, 10, "see CHECK_EXTENSION_PLY_FACTOR"),
    Tunable("SINGULAR_MIN_DEPTH", 6, 4, 12, "the shallowest node that tests its hash move for singularity"),
    Tunable("SINGULAR_TT_SLACK", 3, 1, 5, "how much shallower than the node the hash move's entry may be"),
    Tunable("SINGULAR_MARGIN", 2, 1, 8,
            "per ply of depth: how far below the hash move's score every other move must stay"),
    Tunable("DELTA_MARGIN", 150, 50, 400,
            "quiescence skips a capture whose victim's value and this margin cannot lift the score to alpha"),
)
"""Every tunable, in the order of the ``T_*`` indices."""

(T_FUTILITY_MARGIN, T_FUTILITY_DEPTH, T_REVERSE_FUTILITY_MARGIN, T_REVERSE_FUTILITY_DEPTH, T_NULL_MOVE_MIN_DEPTH,
 T_NULL_MOVE_REDUCTION, T_NULL_MOVE_DEEP_REDUCTION, T_NULL_MOVE_DEEP_DEPTH, T_LATE_MOVE_PRUNING_DEPTH,
 T_LATE_MOVE_BASE, T_LATE_MOVE_SCALE, T_LMR_MIN_DEPTH, T_LMR_FIRST_MOVES, T_LMR_MORE_MOVES, T_LMR_DEEP_DEPTH,
 T_LMR_DEEP_MOVES, T_CHECK_EXTENSION_PLY_FACTOR, T_CHECK_EXTENSION_PLY_SLACK, T_SINGULAR_MIN_DEPTH,
 T_SINGULAR_TT_SLACK, T_SINGULAR_MARGIN, T_DELTA_MARGIN) = range(len(TUNABLES))

BY_NAME: dict[str, Tunable] = {tunable.name: tunable for tunable in TUNABLES}
_INDEX: dict[str, int] = {tunable.name: index for index, tunable in enumerate(TUNABLES)}


def tunable_values(changes: dict[str, int] | None = None) -> np.ndarray:
    """The array the search reads: the shipped values with ``changes`` (by name) applied.
    ValueError names an unknown tunable or a value outside its range."""
    values = np.array([tunable.value for tunable in TUNABLES], np.int64)
    for name, value in (changes or {}).items():
        tunable = BY_NAME.get(name)
        if tunable is None:
            raise ValueError(f"no search tunable {name!r} (there are: {', '.join(BY_NAME)})")
        if not tunable.low <= value <= tunable.high:
            raise ValueError(f"{name}={value} is outside its range {tunable.low}..{tunable.high}")
        values[_INDEX[name]] = value
    return values


def parse_tunables(text: str) -> np.ndarray:
    """The array the search reads for ``"NAME=VALUE NAME=VALUE"`` (spaces or commas between; the
    shipped values for the rest); ValueError says which item is wrong."""
    changes: dict[str, int] = {}
    for item in text.replace(",", " ").split():
        name, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"{item!r} is not NAME=VALUE")
        try:
            changes[name] = int(value)
        except ValueError:
            raise ValueError(f"{item!r}: {value!r} is not an integer") from None
    return tunable_values(changes)
