"""Iterative deepening over the compiled kernel: aspiration windows, MultiPV, and a stop flag.

:class:`Searcher` owns the transposition table, killer and history tables that persist between
moves of a game. :meth:`Searcher.iterate` is a generator of progress: after each completed depth it
yields one :class:`Line` per principal variation. Stopping is cooperative: whoever holds
``searcher.stop_flag`` (a one-element numpy array) writes 1 into it, and the kernel notices within
1024 nodes; the generator then yields what the interrupted iteration had proved, if anything, and
ends.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from typing import Generator, Iterator, Sequence

import numpy as np

from xqdesk.engines.builtin import board_kernel, nnue_kernel, search_kernel, tt_kernel
from xqdesk.engines.builtin.eval_tables import phase_material
from xqdesk.engines.builtin.nnue import Network
from xqdesk.engines.builtin.nnue_kernel import NetworkState
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.builtin.search_context import BoundContext, SearchContext, bind
from xqdesk.engines.builtin.search_tunables import tunable_values
from xqdesk.engines.builtin.tree_tables import NO_TABLES, TreeTables
from xqdesk.errors import XqdeskError

ASPIRATION_WINDOW = 40


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


class _Worker:
    """One search thread's own tables: killers, history, move buffers, PV, counters and the
    learned evaluation's accumulators."""

    def __init__(self, network: NetworkState) -> None:
        self.network = nnue_kernel.thread_state(network)
        self.killers = np.zeros((board_kernel.MAX_PLY + 1, 2), np.int64)
        self.history = np.zeros(90 * 90, np.int64)
        self.move_buf = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_MOVES), np.int64)
        self.score_buf = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_MOVES), np.int64)
        self.pv = np.zeros((board_kernel.MAX_PLY + 1, board_kernel.MAX_PLY + 1), np.int64)
        self.pv_len = np.zeros(board_kernel.MAX_PLY + 1, np.int64)
        self.counters = np.zeros(search_kernel.COUNTER_COUNT, np.int64)
        self.excluded = np.zeros(board_kernel.MAX_PLY + 1, np.int64)

    def clear(self) -> None:
        self.killers[:] = 0
        self.history[:] = 0

    def context(self, position: Position, tt: np.ndarray, stop: np.ndarray,
                tunables: np.ndarray, tables: TreeTables = NO_TABLES) -> BoundContext:
        return bind(SearchContext(
            board=position.board, pos=position.pos, keys=position.keys, clocks=position.clocks,
            psq=position.psq, trail_moves=position.trail_moves, trail_checkers=position.trail_checkers,
            params=position.params, tt=tt,
            killers=self.killers, history=self.history, move_buf=self.move_buf, score_buf=self.score_buf,
            pv=self.pv, pv_len=self.pv_len, counters=self.counters, stop=stop, excluded=self.excluded,
            table_meta=tables.meta, table_positions=tables.positions, table_values=tables.values,
            network=self.network, tunables=tunables))

    def prepare(self, settings: np.ndarray) -> None:
        """Start a search: ``settings`` are the counters' initial values (limits, rules)."""
        self.counters[:] = settings
        self.killers[:] = 0
        self.history >>= 3
        nnue_kernel.clear(self.network)

    @property
    def nodes(self) -> int:
        return int(self.counters[search_kernel.C_NODES])

    @property
    def stopped(self) -> bool:
        return bool(self.counters[search_kernel.C_STOPPED] != 0)

    def search_window(self, context: BoundContext, moves: np.ndarray, depth: int, guess: int
                      ) -> tuple[int, tuple[int, ...] | None, bool]:
        """One root search with aspiration windows around ``guess``. Returns (score, pv,
        complete); pv is None when a stop came before anything usable was proved."""
        delta = ASPIRATION_WINDOW
        if depth <= 3 or abs(guess) > search_kernel.MATE_BOUND:
            alpha, beta = -search_kernel.INFINITY, search_kernel.INFINITY
        else:
            alpha, beta = guess - delta, guess + delta
        while True:
            score = int(search_kernel.search_root(context.handle, moves, len(moves), depth, alpha, beta))
            pv = tuple(int(m) for m in self.pv[0, :self.pv_len[0]])
            if self.stopped:
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


class Searcher:
    """Search state kept across moves: the hash table and each thread's move-ordering tables.

    With ``threads`` > 1, :meth:`iterate` runs lazy SMP: helper threads search the same root on
    their own copies of the position (odd helpers one ply deeper, helpers beyond the first with the
    root moves after the best in a different order), sharing the transposition table and the stop
    flag; what the main thread proves is what is yielded, with the nodes of all threads."""

    def __init__(self, hash_mb: int, network: Network | None = None) -> None:
        self.stop_flag = np.zeros(1, np.int32)
        self._network = nnue_kernel.network_state(network)
        self._workers = [_Worker(self._network)]
        self._searching = self._workers[:1]  # the latest search's workers
        self.tt = tt_kernel.new_table(tt_kernel.TT_BUCKET)
        self.generation = 0
        self.tunables = tunable_values()
        """The search's tunables (``search_tunables.tunable_values``), read by every thread."""
        self.resize(hash_mb)

    @property
    def counters(self) -> np.ndarray:
        """The main thread's counters (see ``search_kernel.C_*``)."""
        return self._workers[0].counters

    @property
    def nodes(self) -> int:
        """The nodes of the latest search so far, all its threads together."""
        return sum(worker.nodes for worker in self._searching)

    def resize(self, hash_mb: int) -> None:
        """Use a hash table of at most ``hash_mb`` megabytes (a power-of-two number of entries,
        :data:`~tt_kernel.TT_BUCKET` to an index)."""
        if hash_mb < 1:
            raise XqdeskError(f"hash size must be at least 1 MB, got {hash_mb!r}")
        entries = 1 << int(np.log2(hash_mb * 1024 * 1024 // tt_kernel.TT_ENTRY_BYTES))
        self.tt = tt_kernel.new_table(entries)

    @property
    def uses_network(self) -> bool:
        """Whether the search evaluates with a network (else the hand-written evaluation)."""
        return self._network.ft_weights.shape[0] > 0

    def set_network(self, network: Network | None) -> None:
        """Evaluate with ``network`` from the next search on (None: the hand-written evaluation).
        The hash table is cleared, since its scores came from the other evaluation."""
        self._network = nnue_kernel.network_state(network)
        self._workers = [_Worker(self._network) for _ in self._workers]
        self.clear()

    def clear(self) -> None:
        """Forget everything learned (a new game)."""
        self.tt[:] = 0
        self.generation = 0
        for worker in self._workers:
            worker.clear()

    def iterate(self, position: Position, root_moves: Sequence[int], *, max_depth: int = board_kernel.MAX_PLY - 4,
                node_limit: int = 0, multipv: int = 1, capture_free_draw_plies: int = 120,
                perpetual_check_limit: int = 0, perpetual_check_min_history: int = 0,
                history_offset: int = 0, threads: int = 1,
                tables: TreeTables = NO_TABLES) -> Generator[list[Line], None, None]:
        """Deepen from depth 1 to ``max_depth`` over ``root_moves`` (legal kernel moves, not
        empty), yielding the lines of each depth, best first. Stops early when the stop flag is
        set or ``node_limit`` (0 = none; with several threads, over all of them) is reached; the
        last yield may then be a partial depth (``Line.complete`` False) when the interrupted
        iteration had already improved on the previous one.

        The ruleset's perpetual-check ban (``perpetual_check_limit``, 0 for none) is applied inside
        the tree once the game holds more than ``perpetual_check_min_history`` moves, of which
        ``history_offset`` came before the position's first. The root moves must already obey it.

        ``threads`` > 1 starts helper threads for the search (lazy SMP); they are stopped and
        joined when the generator ends or is closed, so close it when leaving it early.

        ``tables``: the endgame tables the tree's captures can lead into, probed after each capture
        (see :mod:`~xqdesk.engines.builtin.tree_tables`)."""
        if not root_moves:
            raise XqdeskError(f"no root moves to search in position {position.codes()!r}")
        if threads < 1:
            raise XqdeskError(f"a search needs at least one thread, got {threads!r}")
        while len(self._workers) < threads:
            self._workers.append(_Worker(self._network))
        workers = self._workers[:threads]
        self._searching = workers
        self.generation = (self.generation + 1) & tt_kernel.TT_GENERATION_MASK
        settings = np.zeros(search_kernel.COUNTER_COUNT, np.int64)
        settings[search_kernel.C_NODE_LIMIT] = -(-node_limit // threads)  # each thread's share, rounded up
        settings[search_kernel.C_DRAW_PLIES] = capture_free_draw_plies
        settings[search_kernel.C_CHECK_LIMIT] = perpetual_check_limit
        settings[search_kernel.C_CHECK_MIN_HISTORY] = perpetual_check_min_history
        settings[search_kernel.C_HISTORY_OFFSET] = history_offset
        settings[search_kernel.C_GENERATION] = self.generation
        endgame = phase_material(int(code) for code in position.board) <= search_kernel.ENDGAME_PHASE
        settings[search_kernel.C_ENDGAME] = 1 if endgame else 0
        lazy = not endgame and not self.uses_network  # the network's score has no such bound
        settings[search_kernel.C_LAZY_MARGIN] = search_kernel.LAZY_MARGIN if lazy else 0
        for worker in workers:
            worker.prepare(settings)
        order = np.array(root_moves, np.int64)
        helpers = [threading.Thread(target=self._help, name=f"builtin-search-{index}", daemon=True,
                                    args=(workers[index], position.copy(), order.copy(), max_depth, index, tables))
                   for index in range(1, threads)]
        for helper in helpers:
            helper.start()
        try:
            yield from self._deepen(workers, position, order, max_depth, multipv, tables)
        finally:
            for worker in workers[1:]:
                worker.counters[search_kernel.C_STOPPED] = 1  # the kernel only ever sets it: no race
            for helper in helpers:
                helper.join()

    def _deepen(self, workers: list[_Worker], position: Position, order: np.ndarray, max_depth: int,
                multipv: int, tables: TreeTables) -> Iterator[list[Line]]:
        """The main thread's iterative deepening (see :meth:`iterate`)."""
        main = workers[0]
        context = main.context(position, self.tt, self.stop_flag, self.tunables, tables)
        multipv = max(1, min(multipv, len(order)))
        previous: list[int] = [0] * multipv
        started = time.perf_counter()
        for depth in range(1, max_depth + 1):
            main.counters[search_kernel.C_SELDEPTH] = 0
            lines: list[Line] = []
            remaining = order.copy()
            for index in range(multipv):
                score, pv, complete = main.search_window(context, remaining, depth, previous[index])
                if pv is None:
                    break
                lines.append(Line(depth, int(main.counters[search_kernel.C_SELDEPTH]), score, pv,
                                  self.nodes, time.perf_counter() - started,
                                  index + 1, complete))
                if not complete:
                    break
                remaining = remaining[remaining != pv[0]]
                if len(remaining) == 0:
                    break
            stopped = main.stopped
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

    def _help(self, worker: _Worker, position: Position, order: np.ndarray, max_depth: int, index: int,
              tables: TreeTables) -> None:
        """A helper thread's iterative deepening: it fills the shared table until stopped. Odd
        helpers search one ply deeper than their iteration count; helpers beyond the first rotate
        the root moves after the first."""
        context = worker.context(position, self.tt, self.stop_flag, self.tunables, tables)
        if index > 1 and len(order) > 2:
            order[1:] = np.roll(order[1:], index - 1)
        guess = 0
        for depth in range(1 + index % 2, max_depth + 1):
            _score, pv, _complete = worker.search_window(context, order, depth, guess)
            if worker.stopped or pv is None:
                return
            guess = _score
            order = np.concatenate(([pv[0]], order[order != pv[0]]))
