"""The course's perpetual-check ban inside the built-in engine's search (RULES.md, rule 2).

Two stacks run beside the position's (``board_kernel``), one entry per height ``h``:

- ``trail_moves[h]``: the move that led to height ``h`` (0: a null move, or not known);
- ``trail_checkers[h]``: the squares of the pieces that attack the king of the side to move at
  height ``h`` — that is, the checking pieces of the side that has just moved — packed by
  :func:`checking_pieces` (0: no check).

With them a move can be judged as the referee judges it, without undoing anything: a piece that
has given check ``limit`` times running, each time right after moving, may not give another direct
check. The search also uses ``trail_checkers`` to tell a quiet repetition (a draw in all but name)
from a cycle of checks, which the ban will break.
"""
from __future__ import annotations

from numba import njit

from xqdesk.engines.builtin import geometry
from xqdesk.engines.builtin.compiled import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.engines.builtin.geometry import HORSE_ATTACKER_LEGS, HORSE_ATTACKERS, PAWN_ATTACKERS, RAYS

drop_stale_compiled_code(__file__, (geometry,))

CHECKER_BITS = 7
"""Each checking piece is packed as its square + 1 in this many bits (0 ends the list)."""
CHECKER_MASK = (1 << CHECKER_BITS) - 1
MAX_CHECKERS = 8
"""More than can ever attack one king at once (two chariots, two cannons, two horses, pawns ...)."""


@njit(**COMPILE_OPTIONS)
def _packed(checkers, count, sq):
    if count >= MAX_CHECKERS:
        return checkers
    return checkers | ((sq + 1) << (CHECKER_BITS * count))


@njit(**COMPILE_OPTIONS)
def checking_pieces(board, side, king_sq):
    """The squares of the opponent's pieces that attack the king of ``side`` (+1/-1) on
    ``king_sq`` (the facing king included), packed; 0 when the king is not attacked. The tests
    are those of ``board_kernel.is_attacked_king``."""
    enemy = -side
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
        if piece == enemy * 6 or piece == enemy * 7:
            checkers = _packed(checkers, count, RAYS[king_sq, d, k])
            count += 1
        k += 1
        while k < 10:
            target = RAYS[king_sq, d, k]
            if target < 0:
                break
            piece = board[target]
            if piece != 0:
                if piece == enemy * 5:
                    checkers = _packed(checkers, count, target)
                    count += 1
                break
            k += 1
    for i in range(8):
        horse = HORSE_ATTACKERS[king_sq, i]
        if horse < 0:
            break
        if board[horse] == enemy * 4 and board[HORSE_ATTACKER_LEGS[king_sq, i]] == 0:
            checkers = _packed(checkers, count, horse)
            count += 1
    color = 0 if enemy == 1 else 1
    for i in range(3):
        pawn = PAWN_ATTACKERS[color, king_sq, i]
        if pawn < 0:
            break
        if board[pawn] == enemy:
            checkers = _packed(checkers, count, pawn)
            count += 1
    return checkers


@njit(**COMPILE_OPTIONS)
def has_checker(checkers, sq):
    """Whether the packed ``checkers`` hold ``sq``."""
    while checkers != 0:
        if (checkers & CHECKER_MASK) == sq + 1:
            return True
        checkers >>= CHECKER_BITS
    return False


@njit(**COMPILE_OPTIONS)
def is_banned_check(trail_moves, trail_checkers, height, limit):
    """Whether the move that led to ``height`` (its trail entries set) is a check the ban forbids:
    the moved piece P attacks the enemy king from its target, and in the positions 2, 4 … 2·limit
    plies earlier P attacked the king from the squares it has since come from, having moved into
    each of them but the oldest (each earlier move's target is the next one's origin). The caller
    checks that the game's history is long enough (see :func:`is_banned`)."""
    move = trail_moves[height]
    if move == 0 or not has_checker(trail_checkers[height], move & 127):
        return False
    square = move >> 7  # where P stood before this move
    h = height - 2
    for i in range(limit):
        if h < 0 or not has_checker(trail_checkers[h], square):
            return False
        if i == limit - 1:
            break
        previous = trail_moves[h]
        if previous == 0 or (previous & 127) != square:
            return False
        square = previous >> 7
        h -= 2
    return True


@njit(**COMPILE_OPTIONS)
def is_banned(trail_moves, trail_checkers, height, limit, min_history, history_offset):
    """Whether the move that led to ``height`` breaks a ban of ``limit`` checks (0: no ban) that
    applies once the game holds more than ``min_history`` moves, ``history_offset`` of them before
    height 0."""
    return limit > 0 and history_offset + height - 1 > min_history \
        and is_banned_check(trail_moves, trail_checkers, height, limit)
