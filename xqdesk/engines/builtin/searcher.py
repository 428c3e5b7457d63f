"""Iterative deepening over the compiled kernel: aspiration windows, MultiPV, and a stop flag.

:class:`Searcher` owns the transposition table, killer and history tables that persist between
moves of a game. :meth:`Searcher.iterate` is a generator of progress: after each completed depth it
yields one :class:`Line` per principal variation. Stopping is cooperative: whoever holds
``searcher.stop_flag`` (a one-element numpy array) writes 1 into it, and the kernel notices within
1024 nodes; the generator then yields what the interrupted iteration had proved, if anything, and
ends.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import numpy as np

from xqdesk.engines.builtin import board_kernel, search_kernel
from xqdesk.engines.builtin.search_kernel import SearchContext
from xqdesk.engines.builtin.position import Position
from xqdesk.errors import XqdeskError

ASPIRATION_WINDOW = 40
TT_ENTRY_BYTES = 16


@dataclass(frozen=True)
class Line:
    """One principal variation found at ``depth``. ``score`` is from the side to move's view in
    centipawns, or a mate score (``abs(score) > search_kernel.MATE_BOUND``)."""

    depth: int
    seldepth: int
    score: int
    pv: tuple[int, ...]
    nodes: int
    elapsed: float
    multipv: int = 1
    complete: bool = True

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (positive: the mover mates; negative: it is mated), or None."""
        if abs(self.score) <= search_kernel.MATE_BOUND:
            return None
        plies = search_kernel.MATE - abs(self.score)
        moves = (plies + 1) // 2
        return moves if self.score > 0 else -moves


class Searcher:
    """Search state kept across moves: the hash table and move-ordering tables."""

    def __init__(self, hash_mb: int) -> None:
        self.stop_flag = np.zeros(1, np.int32)
        self.killers = np.zeros((board_kernel.MAX_PLY + 1, 2), np.int64)
        self.history = np.zeros(90 * 90, np.int64)
        self.move_buf = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_MOVES), np.int64)
        self.score_buf = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_MOVES), np.int64)
        self.pv = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_PLY + 1), np.int64)
        self.pv_len = np.zeros(board_kernel.MAX_PLY + 1, np.int64)
        self.counters = np.zeros(search_kernel.COUNTER_COUNT, np.int64)
        self.tt_keys = np.zeros(1, np.uint64)
        self.tt_data = np.zeros(1, np.int64)
        self.generation = 0
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Use a hash table of at most ``hash_mb`` megabytes (a power-of-two number of entries,
        :data:`~search_kernel.TT_BUCKET` to an index)."""
        if hash_mb < 1:
            raise XqdeskError(f"hash size must be at least 1 MB, got {hash_mb!r}")
        entries = 1 << int(np.log2(hash_mb * 1024 * 1024 // TT_ENTRY_BYTES))
        self.tt_keys = np.zeros(entries, np.uint64)
        self.tt_data = np.zeros(entries, np.int64)

    def clear(self) -> None:
        """Forget everything learned (a new game)."""
        self.tt_keys[:] = 0
        self.tt_data[:] = 0
        self.generation = 0
        self.killers[:] = 0
        self.history[:] = 0

    def _context(self, position: Position) -> SearchContext:
        return SearchContext(
            board=position.board, pos=position.pos, keys=position.keys, clocks=position.clocks,
            psq=position.psq, trail_moves=position.trail_moves, trail_checkers=position.trail_checkers,
            params=position.params, tt_keys=self.tt_keys, tt_data=self.tt_data,
            killers=self.killers, history=self.history, move_buf=self.move_buf, score_buf=self.score_buf,
            pv=self.pv, pv_len=self.pv_len, counters=self.counters, stop=self.stop_flag)

    def iterate(self, position: Position, root_moves: Sequence[int], *, max_depth: int = board_kernel.MAX_PLY - 4,
                node_limit: int = 0, multipv: int = 1, capture_free_draw_plies: int = 120,
                perpetual_check_limit: int = 0, perpetual_check_min_history: int = 0,
                history_offset: int = 0) -> Iterator[list[Line]]:
        """Deepen from depth 1 to ``max_depth`` over ``root_moves`` (legal kernel moves, not
        empty), yielding the lines of each depth, best first. Stops early when the stop flag is
        set or ``node_limit`` (0 = none) is reached; the last yield may then be a partial depth
        (``Line.complete`` False) when the interrupted iteration had already improved on the
        previous one.

        The ruleset's perpetual-check ban (``perpetual_check_limit``, 0 for none) is applied inside
        the tree once the game holds more than ``perpetual_check_min_history`` moves, of which
        ``history_offset`` came before the position's first. The root moves must already obey it."""
        if not root_moves:
            raise XqdeskError(f"no root moves to search in position {position.codes()!r}")
        context = self._context(position)
        self.counters[:] = 0
        self.counters[search_kernel.C_NODE_LIMIT] = node_limit
        self.counters[search_kernel.C_DRAW_PLIES] = capture_free_draw_plies
        self.counters[search_kernel.C_CHECK_LIMIT] = perpetual_check_limit
        self.counters[search_kernel.C_CHECK_MIN_HISTORY] = perpetual_check_min_history
        self.counters[search_kernel.C_HISTORY_OFFSET] = history_offset
        self.generation = (self.generation + 1) & search_kernel.TT_GENERATION_MASK
        self.counters[search_kernel.C_GENERATION] = self.generation
        self.killers[:] = 0
        self.history >>= 3
        order = np.array(root_moves, np.int64)
        multipv = max(1, min(multipv, len(order)))
        previous: list[int] = [0] * multipv
        started = time.perf_counter()
        for depth in range(1, max_depth + 1):
            self.counters[search_kernel.C_SELDEPTH] = 0
            lines: list[Line] = []
            remaining = order.copy()
            for index in range(multipv):
                score, pv, complete = self._search_window(context, remaining, depth, previous[index])
                if pv is None:
                    break
                lines.append(Line(depth, int(self.counters[search_kernel.C_SELDEPTH]), score, pv,
                                  int(self.counters[search_kernel.C_NODES]), time.perf_counter() - started,
                                  index + 1, complete))
                if not complete:
                    break
                remaining = remaining[remaining != pv[0]]
                if len(remaining) == 0:
                    break
            stopped = self.counters[search_kernel.C_STOPPED] != 0
            if len(lines) > 1 and all(line.complete for line in lines):
                ranked = sorted(lines, key=lambda line: -line.score)
                lines = [replace(line, multipv=rank) for rank, line in enumerate(ranked, start=1)]
            if lines:
                chosen = [line.pv[0] for line in lines]
                rest = [move for move in order if move not in chosen]
                order = np.array(chosen + rest, np.int64)
                previous = [line.score for line in lines] + previous[len(lines):]
                yield lines
            if stopped:
                return
            if abs(lines[0].score) > search_kernel.MATE_BOUND and depth > search_kernel.MATE - abs(lines[0].score) + 2:
                return  # a proven mate will not change with more depth

    def _search_window(self, context: SearchContext, moves: np.ndarray, depth: int, guess: int
                       ) -> tuple[int, tuple[int, ...] | None, bool]:
        """One root search with aspiration windows around ``guess``. Returns (score, pv,
        complete); pv is None when a stop came before anything usable was proved."""
        delta = ASPIRATION_WINDOW
        if depth <= 3 or abs(guess) > search_kernel.MATE_BOUND:
            alpha, beta = -search_kernel.INFINITY, search_kernel.INFINITY
        else:
            alpha, beta = guess - delta, guess + delta
        while True:
            score = int(search_kernel.search_root(context, moves, len(moves), depth, alpha, beta))
            stopped = self.counters[search_kernel.C_STOPPED] != 0
            pv = tuple(int(m) for m in self.pv[0, :self.pv_len[0]])
            if stopped:
                # The first root move (the previous best) must be done, and a later one must have
                # proved better inside the window, for a partial iteration to be trusted.
                if self.counters[search_kernel.C_ROOT_DONE] >= 1 and pv and pv[0] != moves[0] and alpha < score < beta:
                    return score, pv, False
                return score, None, False
            if score <= alpha:
                alpha = max(score - delta, -search_kernel.INFINITY)
            elif score >= beta:
                beta = min(score + delta, search_kernel.INFINITY)
            else:
                return score, pv, True
            delta *= 3
