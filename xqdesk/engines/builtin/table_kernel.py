"""Endgame tables probed inside the built-in engine's search, compiled.

Before a search, :mod:`xqdesk.engines.builtin.tree_tables` packs the tables its captures can lead
into (every smaller material balance of the root's that has a table) into three arrays:

- ``meta``: one row per material balance as it can appear on the board (a table stored with the
  stronger side as Red has a second row for the colours the other way round): the material key
  (:func:`material_key`), whether the board is probed upside down with the colours swapped, where
  the table's values start in ``values``, its entries per side to move, and its index layout
  (``xqdesk.egtb.layout.Layout``: king stride, groups, slots, each group's first slot, size and
  stride, each slot's piece code) at the ``META_*`` offsets;
- ``positions``: ``MAX_GROUPS`` rows per meta row, each group's domain position of every square;
- ``values``: every table's values (``xqdesk.egtb.fileformat``: 0 draw, 1 no such position,
  2 + d mate in d plies), Red to move then Black to move.

:func:`table_score` gives the search the exact value of a position those tables hold.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk.compiled_cache import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.egtb import geometry as egtb_geometry
from xqdesk.egtb import kernels as egtb_kernels
from xqdesk.egtb.geometry import FLIP
from xqdesk.egtb.kernels import DRAW, DTM_BASE, ILLEGAL, encode
from xqdesk.pieces import KING

drop_stale_compiled_code(__file__, (egtb_geometry, egtb_kernels))

MAX_GROUPS = 6
"""Most groups of like pieces a packed table may have."""
MAX_SLOTS = 8
"""Most pieces besides the generals a packed table may hold."""
(META_KEY, META_FLIP, META_OFFSET, META_ENTRIES, META_KING_STRIDE, META_GROUPS,
 META_SLOTS) = range(7)
META_GROUP_FIRST = 7
META_GROUP_SIZE = META_GROUP_FIRST + MAX_GROUPS
META_GROUP_STRIDE = META_GROUP_SIZE + MAX_GROUPS
META_SLOT_CODES = META_GROUP_STRIDE + MAX_GROUPS
META_WIDTH = META_SLOT_CODES + MAX_SLOTS
KEY_BITS = 3
"""Bits per (side, piece type) count in a material key (at most 5 pawns)."""


@njit(**COMPILE_OPTIONS)
def material_key(board):
    """The material on ``board`` as one number: for each side and piece type besides the general,
    its count in :data:`KEY_BITS` bits (Red's pawn .. chariot, then Black's)."""
    key = np.int64(0)
    for sq in range(90):
        code = board[sq]
        if code == 0 or code == KING or code == -KING:
            continue
        slot = code - 1 if code > 0 else 5 - code  # Red 1..6 -> 0..5, Black -1..-6 -> 6..11
        key += np.int64(1) << (KEY_BITS * slot)
    return key


@njit(**COMPILE_OPTIONS)
def table_score(board, side, ply, meta, positions, values, plies_left, mate):
    """``(found, score)``: the value of the position (``side`` to move, ``ply`` plies from the
    root) from the packed tables, as the search scores it — ``mate - ply - d`` for a mate in ``d``
    plies, its negation for being mated, 0 for a draw, and 0 for a mate that ``plies_left`` (to the
    capture-free draw) cannot reach. ``found`` is False when no packed table holds the position."""
    if len(meta) == 0:
        return False, 0
    key = material_key(board)
    row = -1
    for r in range(len(meta)):
        if meta[r, META_KEY] == key:
            row = r
            break
    if row < 0:
        return False, 0
    flip = meta[row, META_FLIP] != 0
    groups = meta[row, META_GROUPS]
    squares = np.zeros(MAX_SLOTS, np.int16)
    filled = np.zeros(MAX_GROUPS, np.int64)
    red_king = -1
    black_king = -1
    for sq in range(90):
        code = board[sq]
        if code == 0:
            continue
        at = sq
        if flip:
            code = -code
            at = FLIP[sq]
        if code == KING:
            red_king = at
        elif code == -KING:
            black_king = at
        else:
            for g in range(groups):
                first = meta[row, META_GROUP_FIRST + g]
                if meta[row, META_SLOT_CODES + first] == code:
                    squares[first + filled[g]] = at
                    filled[g] += 1
                    break
    index = encode(red_king, black_king, squares, meta[row, META_GROUP_FIRST:META_GROUP_SIZE],
                   meta[row, META_GROUP_SIZE:META_GROUP_STRIDE], meta[row, META_GROUP_STRIDE:META_SLOT_CODES],
                   positions[row * MAX_GROUPS:(row + 1) * MAX_GROUPS], meta[row, META_KING_STRIDE], groups)
    if index < 0:
        return False, 0
    to_move = (0 if side == 1 else 1) ^ (1 if flip else 0)
    value = values[meta[row, META_OFFSET] + to_move * meta[row, META_ENTRIES] + index]
    if value == ILLEGAL:
        return False, 0
    if value == DRAW:
        return True, 0
    plies = np.int64(value) - DTM_BASE
    if plies >= plies_left:
        return True, 0
    if plies % 2 == 1:
        return True, mate - ply - plies
    return True, -(mate - ply - plies)
