"""The built-in engine's static exchange evaluation (SEE) and square attacks, compiled.

:func:`static_exchange` tells what a capture wins or loses in material when both sides go on
capturing on its target square, each time with its least valuable attacker, and either may stop
when going on would lose. Attacks are found on the real board as the exchange goes: a piece that
captures leaves its square, so a chariot or cannon behind it (and a cannon's screen) is seen as
it would be. Pins and checks are ignored, as usual for SEE; a king recaptures only where nothing
recaptures after it (its value is far above the others').
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from xqdesk import move_tables
from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
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

drop_stale_compiled_code(__file__, (move_tables,))
index_without_wraparound(__name__)

EXCHANGE_VALUE = np.array([0, 100, 200, 200, 400, 450, 1000, 5000], np.int64)
"""Each piece type's value in an exchange (index 0 unused): fixed, whatever the square."""


@njit(**BORROWING_OPTIONS)
def least_valuable_attacker(board, sq, side):
    """The square of the cheapest piece of ``side`` (+1/-1) that could capture a piece standing on
    ``sq`` (pseudo-legal: pins and checks aside), or -1 when none could."""
    color = 0 if side == 1 else 1
    for i in range(3):
        pawn = PAWN_ATTACKERS[color, sq, i]
        if pawn < 0:
            break
        if board[pawn] == side * PAWN:
            return np.int64(pawn)
    for i in range(4):
        advisor = ADVISOR_STEPS[sq, i]
        if advisor < 0:
            break
        if board[advisor] == side * ADVISOR:
            return np.int64(advisor)
    for i in range(4):
        elephant = ELEPHANT_STEPS[sq, i]
        if elephant < 0:
            break
        if board[elephant] == side * ELEPHANT and board[ELEPHANT_EYES[sq, i]] == 0:
            return np.int64(elephant)
    for i in range(8):
        horse = HORSE_ATTACKERS[sq, i]
        if horse < 0:
            break
        if board[horse] == side * HORSE and board[HORSE_ATTACKER_LEGS[sq, i]] == 0:
            return np.int64(horse)
    chariot = -1
    for d in range(4):
        k = 0
        while k < 10 and RAYS[sq, d, k] >= 0 and board[RAYS[sq, d, k]] == 0:
            k += 1
        if k >= 10 or RAYS[sq, d, k] < 0:
            continue
        first = RAYS[sq, d, k]
        if board[first] == side * CHARIOT:
            chariot = first
        k += 1
        while k < 10 and RAYS[sq, d, k] >= 0 and board[RAYS[sq, d, k]] == 0:
            k += 1
        if k < 10 and RAYS[sq, d, k] >= 0 and board[RAYS[sq, d, k]] == side * CANNON:
            return np.int64(RAYS[sq, d, k])
    if chariot >= 0:
        return np.int64(chariot)
    for i in range(4):
        king = KING_STEPS[sq, i]
        if king < 0:
            break
        if board[king] == side * KING:
            return np.int64(king)
    return np.int64(-1)


@njit(types.int64(types.int8[::1], types.int64, types.int64, types.int64), **BORROWING_OPTIONS)
def _recapture_gain(board, target, standing_value, side):
    """What ``side`` gains at best by capturing the piece (worth ``standing_value``) on ``target``
    and the exchange that follows — 0 when it had better not capture."""
    attacker = least_valuable_attacker(board, target, side)
    if attacker < 0:
        return 0
    code = board[attacker]
    value = EXCHANGE_VALUE[code if code > 0 else -code]
    board[attacker] = 0
    gain = standing_value - _recapture_gain(board, target, value, -side)
    board[attacker] = code
    return gain if gain > 0 else 0


@njit(**BORROWING_OPTIONS)
def static_exchange(board, move):
    """The material the side playing ``move`` (a capture, ``origin << 7 | target``) wins when the
    exchange on its target is played out (negative: it loses). ``board`` is left as it was."""
    origin = move >> 7
    target = move & 127
    code = board[origin]
    side = 1 if code > 0 else -1
    victim = board[target]
    victim_value = EXCHANGE_VALUE[victim if victim > 0 else -victim]
    board[origin] = 0
    loss = _recapture_gain(board, target, EXCHANGE_VALUE[code * side], -side)
    board[origin] = code
    return victim_value - loss


@njit(**BORROWING_OPTIONS)
def loses_material(board, move):
    """Whether the capture ``move`` loses material by :func:`static_exchange` (quick when the
    capturing piece is worth no more than its victim, which never loses)."""
    attacker = board[move >> 7]
    victim = board[move & 127]
    if EXCHANGE_VALUE[attacker if attacker > 0 else -attacker] <= EXCHANGE_VALUE[victim if victim > 0 else -victim]:
        return False
    return static_exchange(board, move) < 0


@njit(**BORROWING_OPTIONS)
def quiet_move_loses(board, move):
    """Whether the piece that makes the quiet ``move`` can be won on its target square (the
    exchange started there by the opponent gains it something)."""
    origin = move >> 7
    target = move & 127
    code = board[origin]
    side = 1 if code > 0 else -1
    board[origin] = 0
    board[target] = code
    loss = _recapture_gain(board, target, EXCHANGE_VALUE[code * side], -side)
    board[target] = 0
    board[origin] = code
    return loss > 0


@njit(**BORROWING_OPTIONS)
def is_en_prise(board, sq):
    """Whether the opponent wins material by capturing the piece on ``sq`` (the exchange it
    starts there gains it something)."""
    code = board[sq]
    side = 1 if code > 0 else -1
    return _recapture_gain(board, sq, EXCHANGE_VALUE[code * side], -side) > 0


@njit(**BORROWING_OPTIONS)
def _with_square(mask, sq):
    """A pair of 64-bit words (squares 0–63, 64–89) with the bit of ``sq`` set."""
    bit = np.int64(1) << (sq & 63)
    return (mask[0] | bit, mask[1]) if sq < 64 else (mask[0], mask[1] | bit)


@njit(**BORROWING_OPTIONS)
def in_mask(mask, sq):
    """Whether ``sq``'s bit is set in a pair of words made by :func:`check_squares`."""
    return (mask[sq >> 6] >> (sq & 63)) & 1 != 0


@njit(**BORROWING_OPTIONS)
def check_squares(board, king, side):
    """Where a chariot, cannon, horse or pawn of ``side`` would give check to the enemy king on
    ``king`` from (as it stands now, its own square excluded), each as a pair of 64-bit words:
    ``(chariots, cannons, horses, pawns)``. A move there by such a piece is a direct check unless
    it was itself the line's screen or blocker."""
    empty = (np.int64(0), np.int64(0))
    chariots = cannons = horses = pawns = empty
    for d in range(4):
        k = 0
        while k < 10 and RAYS[king, d, k] >= 0 and board[RAYS[king, d, k]] == 0:
            chariots = _with_square(chariots, RAYS[king, d, k])
            k += 1
        k += 1  # past the screen
        while k < 10 and RAYS[king, d, k] >= 0 and board[RAYS[king, d, k]] == 0:
            cannons = _with_square(cannons, RAYS[king, d, k])
            k += 1
    for i in range(8):
        horse = HORSE_ATTACKERS[king, i]
        if horse < 0:
            break
        if board[HORSE_ATTACKER_LEGS[king, i]] == 0:
            horses = _with_square(horses, horse)
    color = 0 if side == 1 else 1
    for i in range(3):
        pawn = PAWN_ATTACKERS[color, king, i]
        if pawn < 0:
            break
        pawns = _with_square(pawns, pawn)
    return chariots, cannons, horses, pawns


@njit(**BORROWING_OPTIONS)
def is_attacked(board, sq, side):
    """Whether a piece of ``side`` could capture a piece standing on ``sq`` (pseudo-legal)."""
    return least_valuable_attacker(board, sq, side) >= 0
