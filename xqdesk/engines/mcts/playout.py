"""Compiled Monte-Carlo playouts on the built-in engine's kernel board (see
:mod:`xqdesk.engines.builtin.board_kernel` for the array state).

A playout plays at most ``max_plies`` moves from the position, then scores it:

- **random** policy: a uniformly random legal move each ply;
- **light** policy: the most valuable capture available (victim value, ties at random) with
  probability :data:`CAPTURE_PROBABILITY`, else a random legal move.

A side with no legal move has lost (value ±1); :data:`capture_free_draw_plies` capture-free plies
draw (0). Otherwise the built-in evaluation at the end, squashed by ``tanh(cp / SCALE_CP)``, is the
value. The board is restored before returning; the value is from the view of the side to move at
the start.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk.compiled_cache import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.engines.builtin import board_kernel, eval_kernel
from xqdesk.engines.builtin.board_kernel import (
    MAX_MOVES,
    POS_SIDE,
    generate_moves,
    is_attacked_king,
    king_square,
    make_move,
    unmake_move,
)
from xqdesk.engines.builtin.eval_kernel import evaluate

drop_stale_compiled_code(__file__, (board_kernel, eval_kernel))

SCALE_CP = 400.0
"""A score of this many centipawns is worth tanh(1) = 0.76 of a win."""
CAPTURE_PROBABILITY = 0.8
VICTIM_VALUES = np.array([0, 1, 2, 2, 4, 5, 9, 100], dtype=np.int64)
"""By piece type (index 1..7: pawn .. king): what a light playout thinks a capture wins."""


@njit(**COMPILE_OPTIONS)
def seed(value):
    """Seed the compiled code's random generator (per thread in numba: call from the searching thread)."""
    np.random.seed(value)


@njit(**COMPILE_OPTIONS)
def playout(board, pos, keys, clocks, psq, params, max_plies, light, draw_plies):
    """One playout (module docstring); returns its value for the side to move now."""
    start_side = pos[POS_SIDE]
    played = np.zeros(max_plies + 1, np.int64)
    taken = np.zeros(max_plies + 1, np.int8)
    buffer = np.empty(MAX_MOVES, np.int64)
    count_played = 0
    value = 0.0
    finished = False
    for _ in range(max_plies):
        side = pos[POS_SIDE]
        h = pos[3]
        if clocks[h] >= draw_plies:
            value = 0.0
            finished = True
            break
        n = generate_moves(board, side, buffer, False)
        chosen = 0
        chosen_capture = 0
        if light and np.random.random() < CAPTURE_PROBABILITY:
            best = 0
            ties = 0
            for i in range(n):
                victim = board[buffer[i] & 127]
                if victim == 0:
                    continue
                worth = VICTIM_VALUES[victim if victim > 0 else -victim]
                if worth < best:
                    continue
                captured = make_move(board, pos, keys, clocks, psq, params, buffer[i])
                legal = not is_attacked_king(board, side, king_square(pos, side))
                unmake_move(board, pos, buffer[i], captured)
                if not legal:
                    continue
                if worth > best:
                    best = worth
                    ties = 1
                    chosen_capture = buffer[i]
                else:
                    ties += 1
                    if np.random.random() * ties < 1.0:
                        chosen_capture = buffer[i]
            chosen = chosen_capture
        if chosen == 0:
            remaining = n
            while remaining > 0:
                k = np.random.randint(remaining)
                move = buffer[k]
                buffer[k] = buffer[remaining - 1]
                remaining -= 1
                captured = make_move(board, pos, keys, clocks, psq, params, move)
                legal = not is_attacked_king(board, side, king_square(pos, side))
                unmake_move(board, pos, move, captured)
                if legal:
                    chosen = move
                    break
        if chosen == 0:  # no legal move: the side to move has lost
            value = -1.0 if side == start_side else 1.0
            finished = True
            break
        taken[count_played] = make_move(board, pos, keys, clocks, psq, params, chosen)
        played[count_played] = chosen
        count_played += 1
    if not finished:
        score = evaluate(board, pos, psq, params)
        value = np.tanh(score / SCALE_CP)
        if pos[POS_SIDE] != start_side:
            value = -value
    for i in range(count_played - 1, -1, -1):
        unmake_move(board, pos, played[i], taken[i])
    return value


@njit(**COMPILE_OPTIONS)
def repeated(keys, clocks, height):
    """Whether the position at ``height`` occurred before with the same side to move, within the
    capture-free stretch the stacks hold."""
    key = keys[height]
    back = min(clocks[height], height)
    k = 4
    while k <= back:
        if keys[height - k] == key:
            return True
        k += 2
    return False
