"""The built-in engine's move ordering, compiled: which move the search tries first (the hash
move, captures by MVV-LVA, killer moves, quiet moves by their history), and the history table
that learns from quiet moves that cut and from the quiet moves tried before them, which did not.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.engines.builtin import exchange_kernel
from xqdesk.engines.builtin.exchange_kernel import loses_material
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (exchange_kernel,))
index_without_wraparound(__name__)

# A move is ``origin << MOVE_FROM_SHIFT | target``.
MOVE_FROM_SHIFT, MOVE_TO_MASK = 7, 127

# MVV-LVA: victim value by piece type (index 0 unused).
VICTIM_ORDER = np.array([0, 2, 3, 3, 6, 6, 10, 20], np.int64)

MOVE_HASH = 1 << 30
MOVE_CAPTURE = 1 << 25
MOVE_KILLER = 1 << 24
MOVE_LOSING_CAPTURE = -(1 << 20)
"""Below every quiet move's history (which stays within ±HISTORY_MAX)."""
HISTORY_MAX = 1 << 14
"""History entries stay within ±this: each update moves an entry towards the bound by the bonus,
less in proportion to how near it already is ("gravity"), so old successes and failures fade."""
HISTORY_BONUS_SCALE, HISTORY_BONUS_CAP = 32, 1 << 12
"""A cut at depth d is worth min(HISTORY_BONUS_SCALE·d², HISTORY_BONUS_CAP)."""


@njit(**BORROWING_OPTIONS)
def history_slot(move):
    """The history table's index of ``move`` (origin × squares + target)."""
    return (move >> MOVE_FROM_SHIFT) * SQUARES + (move & MOVE_TO_MASK)


@njit(**BORROWING_OPTIONS)
def score_moves(board, moves, scores, count, hash_move, killer_a, killer_b, history, losing_last):
    """Order keys: the hash move, captures by MVV-LVA, killers, quiet moves by history; with
    ``losing_last``, captures that lose material by SEE come after every other move. Returns the
    index of the first move with the best key (0 when there are none): the move :func:`pick` would
    take first, which :func:`take` takes without another look at the keys."""
    first = 0
    top = MOVE_LOSING_CAPTURE * 2  # below every key
    for i in range(count):
        move = moves[i]
        target_piece = board[move & MOVE_TO_MASK]
        if move == hash_move:
            score = MOVE_HASH
        elif target_piece != 0:
            victim = target_piece if target_piece > 0 else -target_piece
            attacker = board[move >> MOVE_FROM_SHIFT]
            attacker = attacker if attacker > 0 else -attacker
            score = MOVE_CAPTURE + VICTIM_ORDER[victim] * 64 - VICTIM_ORDER[attacker]
            if losing_last and loses_material(board, move):
                score = MOVE_LOSING_CAPTURE + VICTIM_ORDER[victim] * 64 - VICTIM_ORDER[attacker]
        elif move == killer_a:
            score = MOVE_KILLER + 1
        elif move == killer_b:
            score = MOVE_KILLER
        else:
            score = history[history_slot(move)]
        scores[i] = score
        if score > top:
            top = score
            first = i
    return first


@njit(**BORROWING_OPTIONS)
def take(moves, scores, start, index):
    """Swap the move at ``index`` into ``start`` and return it."""
    if index != start:
        moves[start], moves[index] = moves[index], moves[start]
        scores[start], scores[index] = scores[index], scores[start]
    return moves[start]


@njit(**BORROWING_OPTIONS)
def pick(moves, scores, start, count):
    """Swap the best-scored move among ``start..count-1`` into ``start`` (the first of them, when
    several share the best score) and return it."""
    top = scores[start]
    for i in range(start + 1, count):  # the best score first: a loop the compiler vectorises
        score = scores[i]
        top = score if score > top else top
    best = start
    while scores[best] != top:
        best += 1
    return take(moves, scores, start, best)


@njit(**BORROWING_OPTIONS)
def history_bonus(depth):
    """What a cut at ``depth`` adds to its move's history (and takes from the moves tried before it)."""
    bonus = HISTORY_BONUS_SCALE * depth * depth
    return bonus if bonus < HISTORY_BONUS_CAP else HISTORY_BONUS_CAP


@njit(**BORROWING_OPTIONS)
def update_history(history, move, bonus):
    """Add ``bonus`` (negative: a malus) to ``move``'s history, with gravity towards ±HISTORY_MAX."""
    slot = history_slot(move)
    size = bonus if bonus > 0 else -bonus
    history[slot] += bonus - history[slot] * size // HISTORY_MAX


@njit(**BORROWING_OPTIONS)
def reward_cut(board, history, moves, cut_index, depth):
    """The quiet move ``moves[cut_index]`` cut at ``depth``: its history gains the depth's bonus and
    every quiet move tried before it (``moves[:cut_index]``, on the node's ``board``) loses as much."""
    bonus = history_bonus(depth)
    update_history(history, moves[cut_index], bonus)
    for j in range(cut_index):
        if board[moves[j] & MOVE_TO_MASK] == 0:
            update_history(history, moves[j], -bonus)
