"""The learned evaluation inside the compiled search: accumulators kept incrementally, and the
network's output (see :mod:`xqdesk.engines.builtin.nnue` for the network itself).

A :class:`NetworkState` holds one search thread's accumulators, one pair (Red's seat, Black's seat)
per height of the position stacks, beside the network's weights. An entry is valid while its stored
key equals the position key at that height (key equality means the same board). To evaluate at
height ``h`` the kernel takes the nearest valid entry below (normally the parent's, else a few plies
up the line) and subtracts and adds the weight rows of the squares whose piece differs between that
entry's board and the current one: the piece that moved, the one it captured. So make and unmake
themselves do nothing, nodes that are never evaluated (illegal moves, hash cut-offs) cost nothing,
and a search starts with a full refresh at its root (:func:`clear` forgets every entry).

The first layer is integer (int16 weights and accumulators, exact); the small layers after it run
in float32 on the file's quantised values, scaled so that the output is in centipawns.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

from xqdesk.compiled_cache import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.engines.builtin import board_kernel, nnue
from xqdesk.engines.builtin.board_kernel import POS_HEIGHT, POS_SIDE, STACK_SIZE
from xqdesk.engines.builtin.nnue import PIECE_TYPES, Network
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (board_kernel, nnue))

S_FT_SCALE, S_OUT_BIAS = 0, 1
"""Indexes of :attr:`NetworkState.scalars`."""
LOOKBACK = 8
"""How many plies up the line an evaluation looks for a valid accumulator before refreshing."""
SCORE_LIMIT = 20000
"""Network scores are clamped to ±this, well inside the search's mate scores."""


class NetworkState(NamedTuple):
    """The network as the kernel reads it, and one search thread's accumulators. An empty
    ``ft_weights`` (no rows) means no network: the hand-written evaluation is used."""

    ft_weights: np.ndarray
    """int16 (1260, H): the first layer's rows ..."""
    ft_bias: np.ndarray
    """... and its bias, int16 (H,)."""
    hidden_weights: np.ndarray
    """float32 (L, 2H): the hidden layer's weights per accumulator unit (0 rows: none) ..."""
    hidden_bias: np.ndarray
    """... and its bias, float32 (L,)."""
    out_weights: np.ndarray
    """float32 (L or 2H): the output's weights, in centipawns per unit of its input."""
    scalars: np.ndarray
    """float64: the first layer's scale (clipped ReLU ceiling) and the output bias in centipawns."""
    accumulators: np.ndarray
    """int16 (STACK_SIZE, 2, H): Red's and Black's seat at each height ..."""
    boards: np.ndarray
    """... the board each entry was computed for, int8 (STACK_SIZE, 90) ..."""
    keys: np.ndarray
    """... and its position key, uint64 (STACK_SIZE,); 0 = no entry."""


NETWORK_STATE_TYPE = types.NamedTuple((
    types.int16[:, ::1], types.int16[::1], types.float32[:, ::1], types.float32[::1], types.float32[::1],
    types.float64[::1], types.int16[:, :, ::1], types.int8[:, ::1], types.uint64[::1],
), NetworkState)
"""The numba type of a :class:`NetworkState` (the search context spells its fields' types)."""


def network_state(network: Network | None) -> NetworkState:
    """A fresh state for ``network`` (None: no network). The weight arrays may be shared between
    threads (nothing writes them); call again per thread for its own accumulators."""
    if network is None:
        return NetworkState(np.zeros((0, 0), np.int16), np.zeros(0, np.int16), np.zeros((0, 0), np.float32),
                            np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(2, np.float64),
                            np.zeros((1, 2, 0), np.int16), np.zeros((1, SQUARES), np.int8), np.zeros(1, np.uint64))
    ft_scale = float(network.ft_scale)
    if network.hidden:
        hidden_weights = network.hidden_weights.astype(np.float64) / (network.hidden_scale * ft_scale)
        hidden_bias = network.hidden_bias.astype(np.float64) / (network.hidden_scale * ft_scale)
        out_weights = network.out_weights.astype(np.float64) / network.out_scale * network.cp_scale
    else:
        hidden_weights = np.zeros((0, 2 * network.accumulator))
        hidden_bias = np.zeros(0)
        out_weights = network.out_weights.astype(np.float64) / (network.out_scale * ft_scale) * network.cp_scale
    out_bias = float(network.out_bias) / (network.out_scale * ft_scale) * network.cp_scale
    return NetworkState(
        np.ascontiguousarray(network.ft_weights, np.int16), np.ascontiguousarray(network.ft_bias, np.int16),
        np.ascontiguousarray(hidden_weights, np.float32), np.ascontiguousarray(hidden_bias, np.float32),
        np.ascontiguousarray(out_weights, np.float32), np.array([ft_scale, out_bias], np.float64),
        np.zeros((STACK_SIZE, 2, network.accumulator), np.int16), np.zeros((STACK_SIZE, SQUARES), np.int8),
        np.zeros(STACK_SIZE, np.uint64))


def thread_state(state: NetworkState) -> NetworkState:
    """A state sharing ``state``'s weights with accumulators of its own (another search thread)."""
    return state._replace(accumulators=np.zeros_like(state.accumulators), boards=np.zeros_like(state.boards),
                          keys=np.zeros_like(state.keys))


def clear(state: NetworkState) -> None:
    """Forget every accumulator (a new search, or a changed network)."""
    state.keys[:] = 0


@njit(inline="always", **COMPILE_OPTIONS)
def uses_network(state):
    return state.ft_weights.shape[0] > 0


@njit(**COMPILE_OPTIONS)
def feature_row(code, square, seat):
    """The feature of piece ``code`` on ``square`` from Red's seat (``seat`` 0) or Black's (1),
    as :func:`xqdesk.engines.builtin.nnue.feature_index` numbers them."""
    if seat == 0:
        enemy = 0 if code > 0 else 1
        seat_square = square
    else:
        enemy = 0 if code < 0 else 1
        seat_square = (9 - square // 9) * 9 + square % 9
    kind = code if code > 0 else -code
    return (enemy * PIECE_TYPES + kind - 1) * SQUARES + seat_square


# The functions below take the accumulator stack and a height rather than views of it, and the
# per-evaluation entry points are inlined into their callers: the reference counting of each view
# and of the state's arrays at each call took most of an evaluation's time (nodes per CPU second
# against the hand-written evaluation's, to depth 7 over bench/search.py's suite: 0.84 before, 1.01
# after).


@njit(**COMPILE_OPTIONS)
def _add_rows(weights, accumulators, h, code, square, sign):
    """Add (``sign`` 1) or subtract (-1) the rows (of ``weights``) of piece ``code`` on ``square``
    to both seats of ``accumulators[h]``."""
    red_row = feature_row(code, square, 0)
    black_row = feature_row(code, square, 1)
    size = accumulators.shape[2]
    if sign > 0:
        for i in range(size):
            accumulators[h, 0, i] += weights[red_row, i]
        for i in range(size):
            accumulators[h, 1, i] += weights[black_row, i]
    else:
        for i in range(size):
            accumulators[h, 0, i] -= weights[red_row, i]
        for i in range(size):
            accumulators[h, 1, i] -= weights[black_row, i]


@njit(**COMPILE_OPTIONS)
def refresh(weights, bias, board, accumulators, h):
    """Compute both seats' accumulators of ``board`` from scratch into ``accumulators[h]``, from
    the first layer's ``weights`` and ``bias``."""
    for i in range(accumulators.shape[2]):
        accumulators[h, 0, i] = bias[i]
        accumulators[h, 1, i] = bias[i]
    for square in range(SQUARES):
        code = board[square]
        if code != 0:
            _add_rows(weights, accumulators, h, code, square, 1)


@njit(**COMPILE_OPTIONS)
def _update(weights, accumulators, boards, g, h, board):
    """``accumulators[h]`` = ``accumulators[g]`` (of ``boards[g]``) moved to ``board``: the rows of
    every square whose piece differs are subtracted and added."""
    for i in range(accumulators.shape[2]):
        accumulators[h, 0, i] = accumulators[g, 0, i]
        accumulators[h, 1, i] = accumulators[g, 1, i]
    for square in range(SQUARES):
        old = boards[g, square]
        new = board[square]
        if old != new:
            if old != 0:
                _add_rows(weights, accumulators, h, old, square, -1)
            if new != 0:
                _add_rows(weights, accumulators, h, new, square, 1)


@njit(inline="always", **COMPILE_OPTIONS)
def accumulate(state, board, keys, h):
    """Make the entry at height ``h`` valid for the position (``board``, key ``keys[h]``): from
    the nearest valid entry at most :data:`LOOKBACK` plies up, else by a full refresh."""
    key = keys[h]
    stored = state.keys
    if stored[h] == key:
        return
    lowest = h - LOOKBACK
    if lowest < 0:
        lowest = 0
    g = h - 1
    while g >= lowest and stored[g] != keys[g]:
        g -= 1
    boards = state.boards
    if g >= lowest:
        _update(state.ft_weights, state.accumulators, boards, g, h, board)
    else:
        refresh(state.ft_weights, state.ft_bias, board, state.accumulators, h)
    for square in range(SQUARES):
        boards[h, square] = board[square]
    stored[h] = key


@njit(fastmath=True, **COMPILE_OPTIONS)
def _linear_output(accumulators, h, mover, out_weights, ceiling):
    """Σ clipped ReLU(input) × weight over both seats, the side to move's first (no hidden layer)."""
    size = accumulators.shape[2]
    zero = np.float32(0.0)
    top = np.float32(ceiling)
    other = 1 - mover
    total = zero
    for i in range(size):
        value = np.float32(accumulators[h, mover, i])
        value = value if value > zero else zero
        total += (value if value < top else top) * out_weights[i]
    for i in range(size):
        value = np.float32(accumulators[h, other, i])
        value = value if value > zero else zero
        total += (value if value < top else top) * out_weights[size + i]
    return total


@njit(fastmath=True, **COMPILE_OPTIONS)
def _hidden_output(accumulators, h, mover, hidden_weights, hidden_bias, out_weights, ceiling):
    """The same through a clipped-ReLU hidden layer."""
    size = accumulators.shape[2]
    zero = np.float32(0.0)
    top = np.float32(ceiling)
    one = np.float32(1.0)
    x = np.empty(2 * size, np.float32)
    for seat in range(2):
        source = mover if seat == 0 else 1 - mover
        for i in range(size):
            value = np.float32(accumulators[h, source, i])
            value = value if value > zero else zero
            x[seat * size + i] = value if value < top else top
    total = zero
    for j in range(hidden_weights.shape[0]):
        value = hidden_bias[j]
        for i in range(2 * size):
            value += x[i] * hidden_weights[j, i]
        value = value if value > zero else zero
        total += (value if value < one else one) * out_weights[j]
    return total


@njit(inline="always", **COMPILE_OPTIONS)
def output(state, h, mover):
    """The network's score in centipawns from the accumulators at height ``h``, ``mover`` (0 Red,
    1 Black) being the side to move."""
    scalars = state.scalars
    if state.hidden_weights.shape[0] == 0:
        total = _linear_output(state.accumulators, h, mover, state.out_weights, scalars[S_FT_SCALE])
    else:
        total = _hidden_output(state.accumulators, h, mover, state.hidden_weights, state.hidden_bias,
                               state.out_weights, scalars[S_FT_SCALE])
    return total + scalars[S_OUT_BIAS]


@njit(inline="always", **COMPILE_OPTIONS)
def evaluate(state, board, pos, keys):
    """The network's static score of the position (``board_kernel`` state) for the side to move,
    in centipawns (clamped to ±:data:`SCORE_LIMIT`)."""
    h = pos[POS_HEIGHT]
    accumulate(state, board, keys, h)
    score = output(state, h, 0 if pos[POS_SIDE] == 1 else 1)
    rounded = np.int64(np.floor(score + 0.5))
    if rounded > SCORE_LIMIT:
        return np.int64(SCORE_LIMIT)
    if rounded < -SCORE_LIMIT:
        return np.int64(-SCORE_LIMIT)
    return rounded
