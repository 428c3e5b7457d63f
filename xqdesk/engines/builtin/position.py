"""The engine's own fast position: numpy arrays the compiled kernel makes and unmakes moves on.

It is built from 90 square codes (as :func:`xqdesk.fen.parse_fen` and the core ``Board`` give
them) plus the moves played since, so its key stack knows the game's recent positions for
repetition detection, and its trail (``perpetual_kernel``) the recent checks for the course's
perpetual-check ban. Moves are kernel ints ``from_square << 7 | to_square``.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from xqdesk.engines.builtin import board_kernel, eval_kernel, perpetual_kernel
from xqdesk.engines.builtin.eval_tables import SHIPPED_PARAMS
from xqdesk.errors import InvalidFenError

SQUARES = 90


def encode_move(from_square: int, to_square: int) -> int:
    return (from_square << 7) | to_square


def decode_move(move: int) -> tuple[int, int]:
    return move >> 7, move & 127


class Position:
    """A position with its make/unmake stacks. ``history_limit`` bounds how many earlier plies are
    kept (positions further back can no longer repeat once a capture intervenes anyway).
    ``params``: the evaluation's packed weights (default: the shipped ones blended for this
    position's phase; a search keeps its root's for the whole tree)."""

    def __init__(self, codes: Sequence[int], red_to_move: bool, capture_free_plies: int = 0,
                 params: np.ndarray | None = None) -> None:
        if len(codes) != SQUARES:
            raise InvalidFenError(f"a position needs {SQUARES} square codes, got {len(codes)!r}")
        self.params = SHIPPED_PARAMS.for_codes(codes) if params is None else params
        self.board = np.array(codes, dtype=np.int8)
        red_kings = np.flatnonzero(self.board == 7)
        black_kings = np.flatnonzero(self.board == -7)
        if len(red_kings) != 1 or len(black_kings) != 1:
            raise InvalidFenError(f"a position needs one king per side, got codes {list(codes)!r}")
        self.pos = np.array([1 if red_to_move else -1, red_kings[0], black_kings[0], 0], dtype=np.int64)
        self.keys = np.zeros(board_kernel.STACK_SIZE, np.uint64)
        self.clocks = np.zeros(board_kernel.STACK_SIZE, np.int64)
        self.psq = np.zeros(board_kernel.STACK_SIZE, np.int64)
        self.trail_moves = np.zeros(board_kernel.STACK_SIZE, np.int64)
        self.trail_checkers = np.zeros(board_kernel.STACK_SIZE, np.int64)
        key = np.uint64(0)
        score = 0
        for sq, code in enumerate(self.board):
            if code:
                key ^= board_kernel.ZOBRIST_PIECES[int(code) + 7, sq]
                score += int(self.params[(int(code) + 7) * SQUARES + sq])
        if not red_to_move:
            key ^= board_kernel.ZOBRIST_BLACK_TO_MOVE
        self.keys[0] = key
        self.clocks[0] = capture_free_plies
        self.psq[0] = score
        self.trail_checkers[0] = self._checkers()
        self.moves_played: list[int] = []

    def copy(self) -> Position:
        """An independent copy (its own board, stacks and trail; the evaluation weights shared,
        as nothing writes them), for another search thread."""
        clone = Position.__new__(Position)
        clone.params = self.params
        clone.board = self.board.copy()
        clone.pos = self.pos.copy()
        clone.keys = self.keys.copy()
        clone.clocks = self.clocks.copy()
        clone.psq = self.psq.copy()
        clone.trail_moves = self.trail_moves.copy()
        clone.trail_checkers = self.trail_checkers.copy()
        clone.moves_played = list(self.moves_played)
        return clone

    @property
    def red_to_move(self) -> bool:
        return bool(self.pos[board_kernel.POS_SIDE] == 1)

    @property
    def height(self) -> int:
        return int(self.pos[board_kernel.POS_HEIGHT])

    @property
    def key(self) -> int:
        return int(self.keys[self.height])

    @property
    def capture_free_plies(self) -> int:
        return int(self.clocks[self.height])

    def codes(self) -> list[int]:
        return [int(code) for code in self.board]

    def push(self, move: int) -> int:
        """Play a kernel move (not checked); returns the captured code. Keeps room on the stacks
        for a search by dropping the oldest history when needed."""
        if self.height >= board_kernel.STACK_SIZE - board_kernel.MAX_PLY - 8:
            self._drop_oldest(self.height // 2)
        captured = board_kernel.make_move(self.board, self.pos, self.keys, self.clocks, self.psq, self.params, move)
        self.trail_moves[self.height] = move
        self.trail_checkers[self.height] = self._checkers()
        self.moves_played.append(move)
        return int(captured)

    def _checkers(self) -> int:
        """The packed pieces that check the side to move (see ``perpetual_kernel``)."""
        side = int(self.pos[board_kernel.POS_SIDE])
        return int(perpetual_kernel.checking_pieces(self.board, side, board_kernel.king_square(self.pos, side)))

    def last_move_banned(self, limit: int, min_history: int, history_offset: int = 0) -> bool:
        """Whether the move that led here breaks the perpetual-check ban of ``limit`` checks
        (a ruleset's ``perpetual_check_limit`` / ``perpetual_check_min_history``), the game having
        ``history_offset`` moves before this position's first."""
        return bool(perpetual_kernel.is_banned(self.trail_moves, self.trail_checkers, self.height, limit,
                                               min_history, history_offset))

    def push_all(self, moves: Iterable[int]) -> None:
        for move in moves:
            self.push(move)

    def _drop_oldest(self, count: int) -> None:
        h = self.height
        for stack in (self.keys, self.clocks, self.psq, self.trail_moves, self.trail_checkers):
            stack[: h - count + 1] = stack[count: h + 1].copy()
        self.pos[board_kernel.POS_HEIGHT] = h - count

    def legal_moves(self) -> list[int]:
        """Legal kernel moves (all course rules except the history-based perpetual-check ban)."""
        out = np.empty(board_kernel.MAX_MOVES, np.int64)
        n = board_kernel.legal_moves(self.board, self.pos, self.keys, self.clocks, self.psq, self.params, out)
        return [int(move) for move in out[:n]]

    def is_check(self) -> bool:
        return bool(board_kernel.in_check(self.board, self.pos))

    def evaluate(self) -> int:
        """Static evaluation in centipawns for the side to move."""
        return int(eval_kernel.evaluate(self.board, self.pos, self.psq, self.params))

    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree ``depth`` plies deep."""
        if depth <= 0:
            return 1
        move_buf = np.zeros((depth + 1, board_kernel.MAX_MOVES), np.int64)
        return int(board_kernel.perft(self.board, self.pos, self.keys, self.clocks, self.psq, self.params,
                                move_buf, depth, 0))
