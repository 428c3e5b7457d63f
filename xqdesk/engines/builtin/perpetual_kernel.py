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

from xqdesk import attack_kernel
from xqdesk.attack_kernel import CHECKER_BITS, CHECKER_MASK, king_attackers
from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound

drop_stale_compiled_code(__file__, (attack_kernel,))
index_without_wraparound(__name__)


@njit(**BORROWING_OPTIONS)
def checking_pieces(board, side, king_sq):
    """The squares of the opponent's pieces that attack the king of ``side`` (+1/-1) on
    ``king_sq`` (the facing king included), packed as :mod:`xqdesk.attack_kernel` packs them;
    0 when the king is not attacked."""
    return king_attackers(board, king_sq, side, False)


@njit(**BORROWING_OPTIONS)
def has_checker(checkers, sq):
    """Whether the packed ``checkers`` hold ``sq``."""
    while checkers != 0:
        if (checkers & CHECKER_MASK) == sq + 1:
            return True
        checkers >>= CHECKER_BITS
    return False


@njit(**BORROWING_OPTIONS)
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


@njit(**BORROWING_OPTIONS)
def is_banned(trail_moves, trail_checkers, height, limit, min_history, history_offset):
    """Whether the move that led to ``height`` breaks a ban of ``limit`` checks (0: no ban) that
    applies once the game holds more than ``min_history`` moves, ``history_offset`` of them before
    height 0."""
    return limit > 0 and history_offset + height - 1 > min_history \
        and is_banned_check(trail_moves, trail_checkers, height, limit)
