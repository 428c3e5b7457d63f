"""The built-in engine's compiled board: move generation, attack tests and make/unmake.

Everything here is compiled by numba and works on plain numpy arrays. Position state (owned by
:class:`xqdesk.engines.builtin.position.Position`):

- ``board``: int8[90], the course's signed piece codes indexed by square (``rank * 9 + file``);
- ``pos``: int64[4], side to move (+1 Red, -1 Black), Red's and Black's king squares, and the height
  ``h`` of the position stacks;
- ``keys``/``clocks``/``psq``: per-ply stacks, entry ``h`` is the current position's Zobrist key,
  capture-free ply count, and material + piece-square score from Red's point of view
  (``params`` from :func:`xqdesk.engines.builtin.eval_tables.build_params`).

A move is an int ``from_square << 7 | to_square``; 0 means "no move".
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk import attack_kernel, move_kernel, move_tables
from xqdesk.attack_kernel import king_attackers
from xqdesk.compiled_cache import BORROWING_OPTIONS, COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.move_kernel import piece_moves
from xqdesk.pieces import KING
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (move_tables, move_kernel, attack_kernel))
index_without_wraparound(__name__)


def zobrist_keys(seed: int = 0x58514445) -> tuple[np.ndarray, np.uint64]:
    """Random 64-bit keys: one per (piece code + 7, square), and one for Black to move."""
    rng = np.random.default_rng(seed)
    pieces = rng.integers(0, np.iinfo(np.uint64).max, size=(15, SQUARES), dtype=np.uint64, endpoint=True)
    pieces[7, :] = 0  # code 0 = empty square
    side = rng.integers(1, np.iinfo(np.uint64).max, dtype=np.uint64, endpoint=True)
    return pieces, np.uint64(side)


ZOBRIST_PIECES, ZOBRIST_BLACK_TO_MOVE = zobrist_keys()

POS_SIDE, POS_RED_KING, POS_BLACK_KING, POS_HEIGHT = 0, 1, 2, 3
MAX_PLY = 96
"""The deepest line a search may play out on the stacks."""
MAX_MOVES = 128
"""More than the pseudo-legal moves of any Xiangqi position (at most 119)."""
STACK_SIZE = 512


@njit(**BORROWING_OPTIONS)
def king_square(pos, side):
    return pos[POS_RED_KING] if side == 1 else pos[POS_BLACK_KING]


@njit(inline="always", **BORROWING_OPTIONS)  # inlined: a call passes every array word by word
def is_attacked_king(board, side, king_sq):
    """True when the king of ``side`` (+1/-1) on ``king_sq`` could be captured by the opponent,
    counting the two kings facing each other on an open file (the shared scan of
    :mod:`xqdesk.attack_kernel`)."""
    return king_attackers(board, king_sq, side, True) != 0


@njit(**BORROWING_OPTIONS)
def in_check(board, pos):
    side = pos[POS_SIDE]
    return is_attacked_king(board, side, king_square(pos, side))


@njit(**BORROWING_OPTIONS)
def generate_moves(board, side, out, captures_only):
    """Write the pseudo-legal moves of ``side`` into ``out``; return how many. With
    ``captures_only`` only captures are written."""
    n = 0
    for sq in range(SQUARES):
        if board[sq] * side > 0:
            n = piece_moves(board, sq, out, n, sq << 7, captures_only)
    return n


@njit(inline="always", **BORROWING_OPTIONS)  # inlined into the search, as is_attacked_king
def make_move(board, pos, keys, clocks, psq, params, move):
    """Play ``move`` (assumed pseudo-legal) and push the new stack entry; return the captured code."""
    origin = move >> 7
    target = move & 127
    piece = board[origin]
    captured = board[target]
    h = pos[POS_HEIGHT]
    key = keys[h] ^ ZOBRIST_PIECES[piece + 7, origin] ^ ZOBRIST_PIECES[piece + 7, target] ^ ZOBRIST_BLACK_TO_MOVE
    score = psq[h] - params[(piece + 7) * 90 + origin] + params[(piece + 7) * 90 + target]
    if captured != 0:
        key ^= ZOBRIST_PIECES[captured + 7, target]
        score -= params[(captured + 7) * 90 + target]
        clock = 0
    else:
        clock = clocks[h] + 1
    board[target] = piece
    board[origin] = 0
    if piece == KING:
        pos[POS_RED_KING] = target
    elif piece == -KING:
        pos[POS_BLACK_KING] = target
    h += 1
    keys[h] = key
    clocks[h] = clock
    psq[h] = score
    pos[POS_HEIGHT] = h
    pos[POS_SIDE] = -pos[POS_SIDE]
    return captured


@njit(**BORROWING_OPTIONS)
def unmake_move(board, pos, move, captured):
    origin = move >> 7
    target = move & 127
    piece = board[target]
    board[origin] = piece
    board[target] = captured
    if piece == KING:
        pos[POS_RED_KING] = origin
    elif piece == -KING:
        pos[POS_BLACK_KING] = origin
    pos[POS_HEIGHT] -= 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(**BORROWING_OPTIONS)
def make_null_move(pos, keys, clocks, psq):
    h = pos[POS_HEIGHT]
    keys[h + 1] = keys[h] ^ ZOBRIST_BLACK_TO_MOVE
    clocks[h + 1] = 0  # no repetition is detected across a null move
    psq[h + 1] = psq[h]
    pos[POS_HEIGHT] = h + 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(**BORROWING_OPTIONS)
def unmake_null_move(pos):
    pos[POS_HEIGHT] -= 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(**COMPILE_OPTIONS)  # it makes a buffer of its own
def legal_moves(board, pos, keys, clocks, psq, params, out):
    """Write the legal moves of the side to move into ``out`` (course rules except the
    perpetual-check restriction, which needs the game's history); return how many."""
    side = pos[POS_SIDE]
    buffer = np.empty(MAX_MOVES, np.int64)
    count = generate_moves(board, side, buffer, False)
    n = 0
    for i in range(count):
        move = buffer[i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if not is_attacked_king(board, side, king_square(pos, side)):
            out[n] = move
            n += 1
        unmake_move(board, pos, move, captured)
    return n


@njit(**BORROWING_OPTIONS)
def perft(board, pos, keys, clocks, psq, params, move_buf, depth, ply):
    """The number of legal move sequences of length ``depth`` (leaf nodes)."""
    side = pos[POS_SIDE]
    count = generate_moves(board, side, move_buf[ply], False)
    total = 0
    for i in range(count):
        move = move_buf[ply, i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if not is_attacked_king(board, side, king_square(pos, side)):
            total += 1 if depth <= 1 else perft(board, pos, keys, clocks, psq, params, move_buf, depth - 1, ply + 1)
        unmake_move(board, pos, move, captured)
    return total
