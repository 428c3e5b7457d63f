"""The tablebase's board symmetries and piece domains (its move tables are the core's,
:mod:`xqdesk.move_tables`). Squares are ``rank * 9 + file``. :data:`DOMAINS` gives, per piece
code, the squares where that piece can ever stand (reached from its starting squares by its own
moves).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from xqdesk import movegen
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN
from xqdesk.squares import FILES, SQUARE_COUNT, square

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
