"""Move tables of the 90-square board as numpy arrays for the compiled generator.

Built from the core's own tables in :mod:`xqdesk.movegen`, so the generator moves pieces exactly as
the rules do. Squares are ``rank * 9 + file``; a colour axis has Red at 0 and Black at 1; every
table is padded with ``-1``. :data:`DOMAINS` gives, per piece code, the squares where that piece
can ever stand (reached from its starting squares by its own moves).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from xqdesk import movegen
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN
from xqdesk.squares import FILES, SQUARE_COUNT, square

COLORS = (True, False)  # index 0 is Red


def _padded(rows: list[list[int]], width: int) -> np.ndarray:
    table = np.full((len(rows), width), -1, np.int16)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
    return table


RAYS = np.full((SQUARE_COUNT, 4, 10), -1, np.int16)
for _sq in range(SQUARE_COUNT):
    for _d, _ray in enumerate(movegen.RAYS[_sq]):
        RAYS[_sq, _d, :len(_ray)] = _ray
KING_STEPS = np.stack([_padded([list(s) for s in movegen.KING_STEPS[c]], 4) for c in COLORS])
ADVISOR_STEPS = np.stack([_padded([list(s) for s in movegen.ADVISOR_STEPS[c]], 4) for c in COLORS])
ELEPHANT_STEPS = np.stack([_padded([[to for to, _ in s] for s in movegen.ELEPHANT_STEPS[c]], 4) for c in COLORS])
ELEPHANT_EYES = np.stack([_padded([[eye for _, eye in s] for s in movegen.ELEPHANT_STEPS[c]], 4) for c in COLORS])
HORSE_TARGETS = _padded([[to for to, _ in s] for s in movegen.HORSE_STEPS], 8)
HORSE_LEGS = _padded([[leg for _, leg in s] for s in movegen.HORSE_STEPS], 8)
HORSE_SOURCES = _padded([[origin for origin, _ in s] for s in movegen.HORSE_ATTACKERS], 8)
"""Per square, the squares a horse reaches it from (for un-moves and attacks)."""
HORSE_SOURCE_LEGS = _padded([[leg for _, leg in s] for s in movegen.HORSE_ATTACKERS], 8)
PAWN_STEPS = np.stack([_padded([list(s) for s in movegen.PAWN_STEPS[c]], 3) for c in COLORS])
PAWN_SOURCES = np.stack([_padded([list(s) for s in movegen.PAWN_ATTACKERS[c]], 3) for c in COLORS])
"""``[colour, sq]``: squares a pawn of that colour steps onto ``sq`` from."""

MIRROR = np.array([(sq // FILES) * FILES + (FILES - 1 - sq % FILES) for sq in range(SQUARE_COUNT)], np.int16)
"""Left-right mirror of each square."""
FLIP = np.array([(9 - sq // FILES) * FILES + sq % FILES for sq in range(SQUARE_COUNT)], np.int16)
"""Top-bottom flip of each square (used with swapped colours)."""


def _reachable(starts: list[int], steps: Callable[[int], list[int]]) -> list[int]:
    seen = set(starts)
    todo = list(starts)
    while todo:
        for nxt in steps(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return sorted(seen)


def _domain(code: int) -> list[int]:
    red = code > 0
    kind = abs(code)
    back = 0 if red else 9
    if kind == KING:
        return _reachable([square(4, back)], lambda s: list(movegen.KING_STEPS[red][s]))
    if kind == ADVISOR:
        return _reachable([square(3, back)], lambda s: list(movegen.ADVISOR_STEPS[red][s]))
    if kind == ELEPHANT:
        return _reachable([square(2, back)], lambda s: [to for to, _ in movegen.ELEPHANT_STEPS[red][s]])
    if kind == PAWN:
        rank = 3 if red else 6
        return _reachable([square(f, rank) for f in range(0, FILES, 2)], lambda s: list(movegen.PAWN_STEPS[red][s]))
    if kind in (HORSE, CANNON, CHARIOT):
        return list(range(SQUARE_COUNT))
    raise ValueError(f"not a piece code: {code!r}")


DOMAINS: dict[int, list[int]] = {code: _domain(code) for kind in (PAWN, ADVISOR, ELEPHANT, HORSE, CANNON, CHARIOT, KING)
                                 for code in (kind, -kind)}
"""Per piece code, the sorted squares the piece can stand on."""
