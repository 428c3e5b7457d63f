"""The piece moves that every compiled kernel shares (the built-in engine's move generator, the
tablebase solver's), as numba code over a board of the course's signed piece codes (``int8[90]``,
Red positive) and the tables of :mod:`xqdesk.move_tables`.
"""
from __future__ import annotations

from numba import njit

from xqdesk.compiled_cache import BORROWING_OPTIONS
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.move_tables import (
    ADVISOR_STEPS,
    ELEPHANT_EYES,
    ELEPHANT_STEPS,
    HORSE_LEGS,
    HORSE_TARGETS,
    KING_STEPS,
    PAWN_STEPS,
    RAYS,
)
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, PAWN

index_without_wraparound(__name__)


@njit(inline="always", **BORROWING_OPTIONS)  # numba inlines it: a call per piece costs
def piece_moves(board, sq, out, n, origin_bits, captures_only):
    """Write the moves of the piece on ``sq`` by its piece move (onto an empty square or an
    enemy piece; king safety not considered) into ``out`` from index ``n``, each as
    ``origin_bits | target``; return the new count. With ``captures_only`` only captures.

    The order is the tables' (see :mod:`xqdesk.move_tables`); a search depends on it.
    """
    piece = board[sq]
    side = 1 if piece > 0 else -1
    kind = piece * side
    if kind == CHARIOT:
        for d in range(4):
            for k in range(10):
                target = RAYS[sq, d, k]
                if target < 0:
                    break
                other = board[target]
                if other == 0:
                    if not captures_only:
                        out[n] = origin_bits | target
                        n += 1
                else:
                    if other * side < 0:
                        out[n] = origin_bits | target
                        n += 1
                    break
    elif kind == CANNON:
        for d in range(4):
            screened = False
            for k in range(10):
                target = RAYS[sq, d, k]
                if target < 0:
                    break
                other = board[target]
                if not screened:
                    if other == 0:
                        if not captures_only:
                            out[n] = origin_bits | target
                            n += 1
                    else:
                        screened = True
                elif other != 0:
                    if other * side < 0:
                        out[n] = origin_bits | target
                        n += 1
                    break
    elif kind == HORSE:
        for i in range(8):
            target = HORSE_TARGETS[sq, i]
            if target < 0:
                break
            if board[HORSE_LEGS[sq, i]] != 0:
                continue
            other = board[target]
            if other * side > 0 or (other == 0 and captures_only):
                continue
            out[n] = origin_bits | target
            n += 1
    elif kind == PAWN:
        color = 0 if side == 1 else 1
        for i in range(3):
            target = PAWN_STEPS[color, sq, i]
            if target < 0:
                break
            other = board[target]
            if other * side > 0 or (other == 0 and captures_only):
                continue
            out[n] = origin_bits | target
            n += 1
    elif kind == ELEPHANT:
        for i in range(4):
            target = ELEPHANT_STEPS[sq, i]
            if target < 0:
                break
            if board[ELEPHANT_EYES[sq, i]] != 0:
                continue
            other = board[target]
            if other * side > 0 or (other == 0 and captures_only):
                continue
            out[n] = origin_bits | target
            n += 1
    else:
        steps = ADVISOR_STEPS if kind == ADVISOR else KING_STEPS
        for i in range(4):
            target = steps[sq, i]
            if target < 0:
                break
            other = board[target]
            if other * side > 0 or (other == 0 and captures_only):
                continue
            out[n] = origin_bits | target
            n += 1
    return n
