"""The compiled search's context: every array it reads and writes, as one named record
(:class:`SearchContext`), and the numba types of that record and of the search's entry points
(:mod:`~xqdesk.engines.builtin.search_kernel`). :class:`~xqdesk.engines.builtin.searcher.Searcher`
builds the record.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from xqdesk.engines.builtin.nnue_kernel import NETWORK_STATE_TYPE, NetworkState


class SearchContext(NamedTuple):
    """Everything the compiled search reads and writes, one record so that the recursive functions
    take one argument (numba compiles a named tuple of arrays as a struct of pointers)."""

    board: np.ndarray
    """The position (``board_kernel``): squares, ..."""
    pos: np.ndarray
    """... side to move, height, king squares and scores, ..."""
    keys: np.ndarray
    """... the Zobrist key of every position of the game and the search, ..."""
    clocks: np.ndarray
    """... the capture-free ply count of each, ..."""
    psq: np.ndarray
    """... the piece-square tables, ..."""
    trail_moves: np.ndarray
    """... the move that led to each height ...."""
    trail_checkers: np.ndarray
    """... and the pieces then giving check (``perpetual_kernel``) ..."""
    params: np.ndarray
    """... and the evaluation's weights."""
    tt: np.ndarray
    """The transposition table (``tt_kernel``): two int64 words per entry, ``TT_BUCKET`` entries per
    index, each bucket one cache line."""
    killers: np.ndarray
    """Two killer moves per ply."""
    history: np.ndarray
    """History scores, by (origin, target)."""
    move_buf: np.ndarray
    """Generated moves, one row per ply ..."""
    score_buf: np.ndarray
    """... and their ordering scores."""
    pv: np.ndarray
    """The triangular principal-variation table ..."""
    pv_len: np.ndarray
    """... and the length of each row."""
    counters: np.ndarray
    """Nodes, selective depth, limits and flags, indexed by the C_* constants."""
    stop: np.ndarray
    """``stop[0]`` != 0 asks the search to stop (set by the watchdog thread)."""
    excluded: np.ndarray
    """The move a node's search leaves out, by ply (0: none): the singular-extension test."""
    table_meta: np.ndarray
    """The endgame tables captures can lead into (``table_kernel``; no rows: none): their rows, ..."""
    table_positions: np.ndarray
    """... their index layouts ..."""
    table_values: np.ndarray
    """... and their values."""
    network: NetworkState
    """The learned evaluation and this thread's accumulators (``nnue_kernel``; no network: the
    hand-written evaluation)."""
    tunables: np.ndarray
    """The search's tunables (``search_tunables``: margins, depths and move counts of its pruning,
    reductions and extensions), indexed by the ``T_*`` constants."""


# The context's type, spelled out so the recursive functions are compiled for exactly one
# signature (literal-typed specialisations of recursive functions do not survive numba's disk cache).
_INT64_1D = types.int64[::1]
_INT64_2D = types.int64[:, ::1]
CONTEXT_TYPE = types.NamedTuple((
    types.int8[::1], _INT64_1D, types.uint64[::1], _INT64_1D, _INT64_1D, _INT64_1D, _INT64_1D,  # position
    types.int32[::1],  # evaluation
    _INT64_2D,  # transposition table
    _INT64_2D, _INT64_1D, _INT64_2D, _INT64_2D, _INT64_2D, _INT64_1D, _INT64_1D, types.int32[::1],  # search
    _INT64_1D,  # excluded moves
    _INT64_2D, types.int16[:, ::1], types.uint16[::1],  # endgame tables
    NETWORK_STATE_TYPE,  # learned evaluation
    _INT64_1D,  # tunables
), SearchContext)
QUIESCE_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.boolean, types.boolean)
ALPHABETA_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.int64,
                                  types.boolean, types.boolean)
SEARCH_ROOT_SIGNATURE = types.int64(CONTEXT_TYPE, _INT64_1D, types.int64, types.int64, types.int64, types.int64)
