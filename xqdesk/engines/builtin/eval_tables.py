"""The built-in engine's evaluation, as data: piece values, piece-square tables and term weights.

Tables are written from Red's seat the way a diagram is read: the first row is rank 9 (Black's back
rank), the last row is rank 0 (Red's back rank), files a..i left to right. Black uses the same tables
mirrored top to bottom. Values are centipawns added to the piece's base value.

:func:`build_params` packs everything into one int32 array, the layout the compiled kernel reads
(see the ``PARAM_*`` offsets).

How they were set: by hand from Xiangqi principles (crossed pawns near the palace worth about a
horse, central horses and cannons, chariots on open files, advisors and elephants that matter more
the more attackers the opponent has). ``bench/tune_eval.py`` then played each single-term variant
(no king-safety term, hollow cannon 35, chariot mobility 4, horse mobility 10, no open-file bonus,
screened cannon 30) against these values, 14 games at 20,000 nodes a move: every result stayed
inside its 95% interval (about ±200 Elo; horse mobility 10 scored worst, 33%), so the values above
stand. Finer tuning needs far longer runs than the shared machine allowed.
"""
from __future__ import annotations

import numpy as np

from xqdesk.engines.builtin.geometry import FILES, RANKS, SQUARES
from xqdesk.errors import XqdeskError

PIECE_VALUES = {1: 100, 2: 200, 3: 200, 4: 420, 5: 450, 6: 950, 7: 0}

PAWN_TABLE = (
    (0, 3, 6, 9, 12, 9, 6, 3, 0),
    (18, 36, 56, 80, 120, 80, 56, 36, 18),
    (14, 26, 42, 60, 80, 60, 42, 26, 14),
    (10, 20, 30, 34, 40, 34, 30, 20, 10),
    (6, 12, 18, 18, 20, 18, 18, 12, 6),
    (2, 0, 8, 0, 8, 0, 8, 0, 2),
    (0, 0, -2, 0, 4, 0, -2, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
)
ADVISOR_TABLE = (
    (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9,
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 3, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
)
ELEPHANT_TABLE = (
    (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9,
    (0, 0, -2, 0, 0, 0, -2, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (-2, 0, 0, 0, 3, 0, 0, 0, -2),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0),
)
HORSE_TABLE = (
    (4, 8, 16, 12, 4, 12, 16, 8, 4),
    (4, 10, 28, 16, 8, 16, 28, 10, 4),
    (12, 14, 16, 20, 18, 20, 16, 14, 12),
    (8, 24, 18, 24, 20, 24, 18, 24, 8),
    (6, 16, 14, 18, 16, 18, 14, 16, 6),
    (4, 12, 16, 14, 12, 14, 16, 12, 4),
    (2, 6, 8, 6, 10, 6, 8, 6, 2),
    (4, 2, 8, 8, 4, 8, 8, 2, 4),
    (0, 2, 4, 4, -2, 4, 4, 2, 0),
    (0, -4, 0, 0, 0, 0, 0, -4, 0),
)
CANNON_TABLE = (
    (6, 4, 0, -10, -12, -10, 0, 4, 6),
    (2, 2, 0, -4, -14, -4, 0, 2, 2),
    (2, 2, 0, -10, -8, -10, 0, 2, 2),
    (0, 0, -2, 4, 10, 4, -2, 0, 0),
    (0, 0, 0, 2, 8, 2, 0, 0, 0),
    (-2, 0, 4, 2, 6, 2, 4, 0, -2),
    (0, 0, 0, 2, 4, 2, 0, 0, 0),
    (4, 0, 8, 6, 10, 6, 8, 0, 4),
    (0, 2, 4, 6, 6, 6, 4, 2, 0),
    (0, 0, 2, 6, 6, 6, 2, 0, 0),
)
CHARIOT_TABLE = (
    (14, 14, 12, 18, 16, 18, 12, 14, 14),
    (16, 20, 18, 24, 26, 24, 18, 20, 16),
    (12, 12, 12, 18, 18, 18, 12, 12, 12),
    (12, 18, 16, 22, 22, 22, 16, 18, 12),
    (12, 14, 12, 18, 18, 18, 12, 14, 12),
    (12, 16, 14, 20, 20, 20, 14, 16, 12),
    (6, 10, 8, 14, 14, 14, 8, 10, 6),
    (4, 8, 6, 14, 12, 14, 6, 8, 4),
    (8, 4, 8, 16, 8, 16, 8, 4, 8),
    (-2, 10, 6, 14, 12, 14, 6, 10, -2),
)
KING_TABLE = (
    (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9, (0,) * 9,
    (0, 0, 0, -9, -9, -9, 0, 0, 0),
    (0, 0, 0, -8, -8, -8, 0, 0, 0),
    (0, 0, 0, 1, 5, 1, 0, 0, 0),
)
PIECE_TABLES = {1: PAWN_TABLE, 2: ADVISOR_TABLE, 3: ELEPHANT_TABLE, 4: HORSE_TABLE,
                5: CANNON_TABLE, 6: CHARIOT_TABLE, 7: KING_TABLE}

# Weights of the terms the kernel computes from the whole board (centipawns).
TERM_WEIGHTS = {
    "tempo": 12,                  # the side to move
    "missing_defender": 9,        # per missing advisor/elephant, times the opponent's attackers
    "hollow_cannon": 70,          # cannon facing the enemy king on its file with nothing between
    "screened_cannon": 14,        # cannon on the enemy king's file with one screen
    "chariot_mobility": 2,        # per empty square a chariot sees
    "horse_mobility": 5,          # per unblocked horse jump
    "open_file_chariot": 30,      # chariot on the enemy king's file with nothing between
    "cannon_battery": 20,         # two own heavy pieces lined up on the enemy king's file
}
TERM_ORDER = tuple(TERM_WEIGHTS)

PSQ_SIZE = 15 * SQUARES
PARAM_TEMPO = PSQ_SIZE + TERM_ORDER.index("tempo")
PARAM_MISSING_DEFENDER = PSQ_SIZE + TERM_ORDER.index("missing_defender")
PARAM_HOLLOW_CANNON = PSQ_SIZE + TERM_ORDER.index("hollow_cannon")
PARAM_SCREENED_CANNON = PSQ_SIZE + TERM_ORDER.index("screened_cannon")
PARAM_CHARIOT_MOBILITY = PSQ_SIZE + TERM_ORDER.index("chariot_mobility")
PARAM_HORSE_MOBILITY = PSQ_SIZE + TERM_ORDER.index("horse_mobility")
PARAM_OPEN_FILE_CHARIOT = PSQ_SIZE + TERM_ORDER.index("open_file_chariot")
PARAM_CANNON_BATTERY = PSQ_SIZE + TERM_ORDER.index("cannon_battery")
PARAM_COUNT = PSQ_SIZE + len(TERM_ORDER)


def build_params(weights: dict[str, int] | None = None) -> np.ndarray:
    """The int32 parameter array: value + table for each signed code and square (from Red's point
    of view, so Black's entries are negative), then the term weights in ``TERM_ORDER``."""
    merged = dict(TERM_WEIGHTS)
    if weights:
        unknown = set(weights) - set(TERM_WEIGHTS)
        if unknown:
            raise XqdeskError(f"unknown evaluation weights {sorted(unknown)!r}; known: {list(TERM_ORDER)!r}")
        merged.update(weights)
    params = np.zeros(PARAM_COUNT, np.int32)
    for piece_type, table in PIECE_TABLES.items():
        for rank in range(RANKS):
            for file in range(FILES):
                red_value = PIECE_VALUES[piece_type] + table[RANKS - 1 - rank][file]
                black_value = PIECE_VALUES[piece_type] + table[rank][file]  # mirrored
                sq = rank * FILES + file
                params[(piece_type + 7) * SQUARES + sq] = red_value
                params[(-piece_type + 7) * SQUARES + sq] = -black_value
    for index, name in enumerate(TERM_ORDER):
        params[PSQ_SIZE + index] = merged[name]
    return params
