"""The move tables of the 90-square board as numpy arrays, for every compiled kernel.

Built from the core's own tables in :mod:`xqdesk.movegen`, so compiled code moves pieces exactly
as the rules do. Squares are ``rank * 9 + file`` as in :mod:`xqdesk.squares`; a colour axis has
Red at 0 and Black at 1; every row is padded with ``-1`` after its last entry.

A king's, advisor's or elephant's steps depend on the square alone (the two palaces, and the two
halves of the river, are apart), so those tables have no colour axis. The order of each row is
part of the contract, because a search visits moves in the order they are generated:

- :data:`RAYS` ``[sq, d, k]``: the ``k``-th square outward in direction ``d``, the directions
  ordered +file, -file, +rank, -rank (a square step of +1, -1, +9, -9);
- :data:`KING_STEPS` in the same direction order; advisor and elephant steps ordered
  (+file +rank), (+file -rank), (-file +rank), (-file -rank); horse steps as :mod:`xqdesk.movegen`;
- the attacker tables (:data:`HORSE_ATTACKERS`, :data:`PAWN_ATTACKERS`) by ascending source square.
"""
from __future__ import annotations

import numpy as np

from xqdesk import movegen
from xqdesk.squares import FILES, SQUARE_COUNT

COLORS = (True, False)
"""``movegen``'s side keys in colour-axis order: Red (index 0), then Black."""

_RAY_ORDER = (2, 3, 0, 1)
"""``movegen.RAYS`` holds up, down, right, left: this picks right, left, up, down."""
_STEP_ORDER = (1, -1, FILES, -FILES)


def _padded(rows: list[list[int]], width: int) -> np.ndarray:
    table = np.full((len(rows), width), -1, np.int16)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
    return table


def _palace_of(sq: int) -> bool | None:
    """``True`` in Red's palace, ``False`` in Black's, ``None`` outside both."""
    file, rank = sq % FILES, sq // FILES
    if 3 <= file <= 5 and (rank <= 2 or rank >= 7):
        return rank <= 2
    return None


def _half_of(sq: int) -> bool:
    """``True`` on Red's side of the river."""
    return sq // FILES <= 4


def _king_steps(sq: int) -> list[int]:
    palace = _palace_of(sq)
    if palace is None:
        return []
    return sorted(movegen.KING_STEPS[palace][sq], key=lambda to: _STEP_ORDER.index(to - sq))


def _advisor_steps(sq: int) -> list[int]:
    palace = _palace_of(sq)
    return [] if palace is None else list(movegen.ADVISOR_STEPS[palace][sq])


RAYS = np.full((SQUARE_COUNT, 4, 10), -1, np.int16)
for _sq in range(SQUARE_COUNT):
    for _d, _source in enumerate(_RAY_ORDER):
        _ray = movegen.RAYS[_sq][_source]
        RAYS[_sq, _d, :len(_ray)] = _ray
RAY_LENGTHS = np.count_nonzero(RAYS >= 0, axis=2).astype(np.int8)
"""``[sq, d]``: how many squares ray ``d`` of ``sq`` has before the board's edge."""
KING_STEPS = _padded([_king_steps(sq) for sq in range(SQUARE_COUNT)], 4)
ADVISOR_STEPS = _padded([_advisor_steps(sq) for sq in range(SQUARE_COUNT)], 4)
ELEPHANT_STEPS = _padded([[to for to, _ in movegen.ELEPHANT_STEPS[_half_of(sq)][sq]]
                          for sq in range(SQUARE_COUNT)], 4)
ELEPHANT_EYES = _padded([[eye for _, eye in movegen.ELEPHANT_STEPS[_half_of(sq)][sq]]
                         for sq in range(SQUARE_COUNT)], 4)
"""``[sq, i]``: the square an elephant's ``i``-th step jumps over (it must be empty)."""
HORSE_TARGETS = _padded([[to for to, _ in steps] for steps in movegen.HORSE_STEPS], 8)
HORSE_LEGS = _padded([[leg for _, leg in steps] for steps in movegen.HORSE_STEPS], 8)
"""``[sq, i]``: the square next to a horse that must be empty for its ``i``-th step."""
HORSE_ATTACKERS = _padded([[origin for origin, _ in sorted(sources)] for sources in movegen.HORSE_ATTACKERS], 8)
"""``[sq, i]``: the squares a horse reaches ``sq`` from (for attacks and un-moves)."""
HORSE_ATTACKER_LEGS = _padded([[leg for _, leg in sorted(sources)] for sources in movegen.HORSE_ATTACKERS], 8)
PAWN_STEPS = np.stack([_padded([list(steps) for steps in movegen.PAWN_STEPS[red]], 3) for red in COLORS])
PAWN_ATTACKERS = np.stack([_padded([sorted(sources) for sources in movegen.PAWN_ATTACKERS[red]], 3)
                           for red in COLORS])
"""``[colour, sq]``: the squares a pawn of that colour steps onto ``sq`` from."""
