"""The compiled retrograde solver: encode/decode positions, generate moves and un-moves.

Works on plain numpy arrays (see :class:`xqdesk.egtb.layout.Layout` for the index). A board is
``int8[90]`` of the course's signed piece codes; Red is side 0 (sign +1), Black side 1 (sign -1).

Entry codes (``uint16``, also the on-disk values): ``0`` draw (while solving: not yet known),
``1`` no such position (pieces on one square, or the side not to move in check), ``2 + d`` the side
to move mates or is mated in ``d`` plies: ``d`` odd is a win, ``d`` even a loss (``d = 0``: no legal
move, which loses under these rules whether in check or not).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk import attack_kernel, move_kernel, move_tables
from xqdesk.attack_kernel import king_attackers
from xqdesk.compiled_cache import drop_stale_compiled_code
from xqdesk.egtb import geometry, layout
from xqdesk.egtb.geometry import FLIP, MIRROR
from xqdesk.egtb.layout import BINOMIAL, KING_PAIR_INDEX, KING_PAIRS
from xqdesk.move_kernel import piece_moves
from xqdesk.move_tables import (
    ADVISOR_STEPS,
    ELEPHANT_EYES,
    ELEPHANT_STEPS,
    HORSE_ATTACKER_LEGS,
    HORSE_ATTACKERS,
    KING_STEPS,
    PAWN_ATTACKERS,
    RAYS,
)
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN

drop_stale_compiled_code(__file__, (geometry, layout, attack_kernel, move_kernel, move_tables))

DRAW = 0
ILLEGAL = 1
DTM_BASE = 2
MAX_TARGETS = 20
"""More than the moves of any one piece (a chariot has at most 17)."""


@njit(cache=True, nogil=True)
def king_attacked(board, king_sq, sign):
    """Whether the general of side ``sign`` (+1 Red, -1 Black) on ``king_sq`` can be captured,
    the two generals facing on an open file included (the shared scan of :mod:`xqdesk.attack_kernel`)."""
    return king_attackers(board, king_sq, sign, True) != 0


@njit(cache=True, nogil=True)
def piece_origins(board, sq, out):
    """Write the empty squares from which the piece on ``sq`` could have come by a move that
    captured nothing into ``out``; return how many."""
    piece = board[sq]
    sign = 1 if piece > 0 else -1
    kind = piece * sign
    color = 0 if sign == 1 else 1
    n = 0
    if kind == CHARIOT or kind == CANNON:
        for d in range(4):
            for k in range(10):
                origin = RAYS[sq, d, k]
                if origin < 0 or board[origin] != 0:
                    break
                out[n] = origin
                n += 1
    elif kind == HORSE:
        for i in range(8):
            origin = HORSE_ATTACKERS[sq, i]
            if origin < 0:
                break
            if board[origin] == 0 and board[HORSE_ATTACKER_LEGS[sq, i]] == 0:
                out[n] = origin
                n += 1
    elif kind == PAWN:
        for i in range(3):
            origin = PAWN_ATTACKERS[color, sq, i]
            if origin < 0:
                break
            if board[origin] == 0:
                out[n] = origin
                n += 1
    elif kind == ELEPHANT:
        for i in range(4):
            origin = ELEPHANT_STEPS[sq, i]
            if origin < 0:
                break
            if board[ELEPHANT_EYES[sq, i]] == 0 and board[origin] == 0:
                out[n] = origin
                n += 1
    else:
        for i in range(4):
            origin = ADVISOR_STEPS[sq, i] if kind == ADVISOR else KING_STEPS[sq, i]
            if origin < 0:
                break
            if board[origin] == 0:
                out[n] = origin
                n += 1
    return n


@njit(cache=True, nogil=True)
def needs_mirror(red_king, black_king):
    """Whether a position is indexed by its mirror image (see :mod:`xqdesk.egtb.layout`)."""
    red_file = red_king % 9
    return red_file > 4 or (red_file == 4 and black_king % 9 > 4)


@njit(cache=True, nogil=True)
def encode(red_king, black_king, squares, group_first, group_size, group_stride, group_position,
           king_stride, groups):
    """The index of the position with the generals and ``squares[slot]``; -1 when a piece stands
    off its domain or two like pieces share a square (other clashes are not checked here)."""
    mirror = needs_mirror(red_king, black_king)
    if mirror:
        red_king = MIRROR[red_king]
        black_king = MIRROR[black_king]
    pair = KING_PAIR_INDEX[red_king, black_king]
    if pair < 0:
        return -1
    index = pair * king_stride
    for g in range(groups):
        first = group_first[g]
        size = group_size[g]
        a = -1
        b = -1
        c = -1
        for i in range(size):
            sq = squares[first + i]
            if mirror:
                sq = MIRROR[sq]
            p = group_position[g, sq]
            if p < 0:
                return -1
            # insert p into the sorted a <= b <= c (only the first ``size`` are used)
            if i == 0:
                a = p
            elif i == 1:
                if p < a:
                    b = a
                    a = p
                else:
                    b = p
            else:
                if p < a:
                    c = b
                    b = a
                    a = p
                elif p < b:
                    c = b
                    b = p
                else:
                    c = p
        rank = a
        if size >= 2:
            if a == b:
                return -1
            rank += BINOMIAL[b, 2]
        if size >= 3:
            if b == c:
                return -1
            rank += BINOMIAL[c, 3]
        index += rank * group_stride[g]
    return index


@njit(cache=True, nogil=True)
def decode(index, group_first, group_size, group_stride, group_sets, king_stride, groups, squares):
    """Fill ``squares[slot]`` for ``index`` and return the generals' squares ``(red, black)``."""
    pair = index // king_stride
    rest = index - pair * king_stride
    for g in range(groups):
        rank = rest // group_stride[g]
        rest -= rank * group_stride[g]
        first = group_first[g]
        for i in range(group_size[g]):
            squares[first + i] = group_sets[g, rank, i]
    return KING_PAIRS[pair, 0], KING_PAIRS[pair, 1]


@njit(cache=True, nogil=True)
def place(board, slot_at, red_king, black_king, squares, slot_codes, slots):
    """Set up ``board`` (and ``slot_at``: slot per square, ``slots`` / ``slots + 1`` for the red /
    black general, -1 empty); False when two pieces share a square."""
    board[:] = 0
    slot_at[:] = -1
    board[red_king] = KING
    board[black_king] = -KING
    slot_at[red_king] = slots
    slot_at[black_king] = slots + 1
    for i in range(slots):
        sq = squares[i]
        if board[sq] != 0:
            return False
        board[sq] = slot_codes[i]
        slot_at[sq] = i
    return True


@njit(cache=True, nogil=True)
def solve_start(slot_codes, group_first, group_size, group_stride, group_position, group_sets, king_stride,
                groups, size, capture_map, capture_flip, sub_groups, sub_first, sub_size, sub_stride,
                sub_position, sub_king_stride, sub_entries, sub_offset, sub_values, values, counts, bounds):
    """First pass over every entry: mark illegal positions and positions without a legal move,
    count each position's legal moves that stay in this table (``counts``, plus one when some
    capture draws), and fold the values of its captures (looked up in the smaller tables) into
    ``bounds``: an odd ``d`` wins in ``d`` plies by a capture, an even ``d > 0`` means every capture
    loses and the loss takes at least ``d`` plies. Capturing slot ``j`` leads to table ``j`` of the
    ``sub_*`` arrays (``capture_map[j, i]`` = slot ``i``'s slot there; ``capture_flip[j]``: that
    table has the colours swapped). Returns the number of captures that led to an illegal entry
    (0 unless a table is wrong)."""
    slots = slot_codes.shape[0]
    board = np.zeros(90, np.int8)
    slot_at = np.full(90, -1, np.int16)
    squares = np.zeros(max(slots, 1), np.int16)
    moved = np.zeros(max(slots, 1), np.int16)
    sub_squares = np.zeros(max(slots, 1), np.int16)
    targets = np.zeros(MAX_TARGETS, np.int16)
    anomalies = 0
    for index in range(size):
        red_king, black_king = decode(index, group_first, group_size, group_stride, group_sets, king_stride,
                                      groups, squares)
        if not place(board, slot_at, red_king, black_king, squares, slot_codes, slots):
            values[0, index] = 1
            values[1, index] = 1
            continue
        for side in range(2):
            sign = 1 - 2 * side
            if king_attacked(board, black_king if side == 0 else red_king, -sign):
                values[side, index] = 1
                continue
            quiet = 0
            legal = 0
            draws = False
            bound = 0
            for origin in range(90):
                piece = board[origin]
                if piece * sign <= 0:
                    continue
                mover = slot_at[origin]
                found = piece_moves(board, origin, targets, 0, 0, False)
                for t in range(found):
                    target = targets[t]
                    captured = board[target]
                    board[target] = piece
                    board[origin] = 0
                    own_king = target if piece * sign == KING else (red_king if side == 0 else black_king)
                    safe = not king_attacked(board, own_king, sign)
                    board[origin] = piece
                    board[target] = captured
                    if not safe:
                        continue
                    legal += 1
                    if captured == 0:
                        quiet += 1
                        continue
                    # A capture: look the position up in the smaller table.
                    j = slot_at[target]
                    for i in range(slots):
                        moved[i] = squares[i]
                    new_red = red_king
                    new_black = black_king
                    if mover == slots:
                        new_red = target
                    elif mover == slots + 1:
                        new_black = target
                    else:
                        moved[mover] = target
                    flip = capture_flip[j] != 0
                    for i in range(slots):
                        k = capture_map[j, i]
                        if k >= 0:
                            sub_squares[k] = FLIP[moved[i]] if flip else moved[i]
                    if flip:
                        sub_red = FLIP[new_black]
                        sub_black = FLIP[new_red]
                        sub_side = side
                    else:
                        sub_red = new_red
                        sub_black = new_black
                        sub_side = 1 - side
                    g = sub_groups[j]
                    sub_index = encode(sub_red, sub_black, sub_squares, sub_first[j, :g], sub_size[j, :g],
                                       sub_stride[j, :g], sub_position[j, :g], sub_king_stride[j], g)
                    if sub_index < 0:
                        anomalies += 1
                        continue
                    code = sub_values[sub_offset[j] + sub_side * sub_entries[j] + sub_index]
                    if code == 0:
                        draws = True
                    elif code == 1:
                        anomalies += 1
                    else:
                        d = code - 2
                        if d % 2 == 0:  # the opponent is mated: we win in d + 1
                            if bound % 2 == 0 or d + 1 < bound:
                                bound = d + 1
                        elif bound % 2 == 0 and d + 1 > bound:
                            bound = d + 1
            if legal == 0:
                values[side, index] = 2
                continue
            counts[side, index] = quiet + (1 if draws else 0)
            bounds[side, index] = bound
    return anomalies


@njit(cache=True, nogil=True)
def solve_level(level, slot_codes, group_first, group_size, group_stride, group_position, group_sets, king_stride,
                groups, size, values, counts, bounds):
    """Assign every position mated or mating in exactly ``level`` plies, from the positions of
    ``level - 1`` by un-moves (and from captures recorded in ``bounds``); return how many."""
    slots = slot_codes.shape[0]
    board = np.zeros(90, np.int8)
    slot_at = np.full(90, -1, np.int16)
    squares = np.zeros(max(slots, 1), np.int16)
    origins = np.zeros(MAX_TARGETS, np.int16)
    wins = level % 2 == 1
    previous = level - 1 + 2
    mark = level + 2
    assigned = 0
    for side in range(2):
        for index in range(size):
            code = values[side, index]
            if code == 0:
                if bounds[side, index] == level and (wins or counts[side, index] == 0):
                    values[side, index] = mark
                    assigned += 1
                continue
            if code != previous:
                continue
            # (index, side) is decided at level - 1; the side that just moved is ``mover``.
            red_king, black_king = decode(index, group_first, group_size, group_stride, group_sets, king_stride,
                                          groups, squares)
            mover = 1 - side
            mover_sign = 1 - 2 * mover
            images = 1 if (red_king % 9 == 4 and black_king % 9 == 4) else 2
            for image in range(images):
                if image == 1:
                    red_king = MIRROR[red_king]
                    black_king = MIRROR[black_king]
                    for i in range(slots):
                        squares[i] = MIRROR[squares[i]]
                place(board, slot_at, red_king, black_king, squares, slot_codes, slots)
                for sq in range(90):
                    piece = board[sq]
                    if piece * mover_sign <= 0:
                        continue
                    slot = slot_at[sq]
                    found = piece_origins(board, sq, origins)
                    for o in range(found):
                        origin = origins[o]
                        new_red = red_king
                        new_black = black_king
                        if slot == slots:
                            new_red = origin
                        elif slot == slots + 1:
                            new_black = origin
                        else:
                            squares[slot] = origin
                        if needs_mirror(new_red, new_black):
                            previous_index = -1  # counted from the mirror image instead
                        else:
                            previous_index = encode(new_red, new_black, squares, group_first, group_size,
                                                    group_stride, group_position, king_stride, groups)
                        if slot < slots:
                            squares[slot] = sq
                        if previous_index < 0 or values[mover, previous_index] != 0:
                            continue
                        if wins:
                            values[mover, previous_index] = mark
                            assigned += 1
                            continue
                        left = counts[mover, previous_index] - 1
                        counts[mover, previous_index] = left
                        if left == 0:
                            bound = bounds[mover, previous_index]
                            if bound % 2 == 0 and bound <= level:
                                values[mover, previous_index] = mark
                                assigned += 1
    return assigned
