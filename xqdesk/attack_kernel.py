"""The king-attack scan that every compiled kernel shares (the built-in engine's board and its
perpetual-check ban, the tablebase solver): which pieces of the other side attack a general, as
numba code over a board of the course's signed piece codes (``int8[90]``, Red positive).

A general is attacked by a chariot, or the other general, first on a line from it (the generals
facing each other on an open file); by a cannon second on a line, over one screen; by a horse whose
leg next to it is free; by a pawn one step away (the tables of :mod:`xqdesk.move_tables`).

The attackers come back packed in one integer: each as its square + 1 in :data:`CHECKER_BITS`
bits, lowest first, 0 ending the list (0: none).
"""
from __future__ import annotations

from numba import njit

from xqdesk import move_tables
from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.move_tables import HORSE_ATTACKER_LEGS, HORSE_ATTACKERS, PAWN_ATTACKERS, RAYS
from xqdesk.pieces import CANNON, CHARIOT, HORSE, KING, PAWN

drop_stale_compiled_code(__file__, (move_tables,))
index_without_wraparound(__name__)

CHECKER_BITS = 7
"""Each attacker is packed as its square + 1 in this many bits (0 ends the list)."""
CHECKER_MASK = (1 << CHECKER_BITS) - 1
MAX_CHECKERS = 8
"""More than can ever attack one general at once (two chariots, two cannons, two horses, pawns …)."""


@njit(cache=True, nogil=True)
def packed_with(checkers, count, sq):
    """``checkers`` (holding ``count`` squares) with ``sq`` added (unchanged once full)."""
    if count >= MAX_CHECKERS:
        return checkers
    return checkers | ((sq + 1) << (CHECKER_BITS * count))


@njit(**BORROWING_OPTIONS)  # no reference counting: it only reads arrays
def king_attackers(board, king_sq, sign, first_only):
    """The pieces of side ``-sign`` that attack the general of side ``sign`` (+1 Red, -1 Black)
    on ``king_sq``, packed (0: none); with ``first_only`` the scan ends at the first one found."""
    enemy = -sign
    checkers = 0
    count = 0
    for d in range(4):
        k = 0
        piece = 0
        while k < 10:
            target = RAYS[king_sq, d, k]
            if target < 0:
                break
            piece = board[target]
            if piece != 0:
                break
            k += 1
        if k >= 10 or RAYS[king_sq, d, k] < 0:
            continue
        if piece == enemy * CHARIOT or piece == enemy * KING:
            checkers = packed_with(checkers, count, RAYS[king_sq, d, k])
            count += 1
            if first_only:
                return checkers
        k += 1
        while k < 10:
            target = RAYS[king_sq, d, k]
            if target < 0:
                break
            piece = board[target]
            if piece != 0:
                if piece == enemy * CANNON:
                    checkers = packed_with(checkers, count, target)
                    count += 1
                    if first_only:
                        return checkers
                break
            k += 1
    for i in range(HORSE_ATTACKERS.shape[1]):
        horse = HORSE_ATTACKERS[king_sq, i]
        if horse < 0:
            break
        if board[horse] == enemy * HORSE and board[HORSE_ATTACKER_LEGS[king_sq, i]] == 0:
            checkers = packed_with(checkers, count, horse)
            count += 1
            if first_only:
                return checkers
    color = 0 if enemy == 1 else 1
    for i in range(PAWN_ATTACKERS.shape[2]):
        pawn = PAWN_ATTACKERS[color, king_sq, i]
        if pawn < 0:
            break
        if board[pawn] == enemy * PAWN:
            checkers = packed_with(checkers, count, pawn)
            count += 1
            if first_only:
                return checkers
    return checkers
