"""The built-in engine as an in-process engine (see :mod:`xqdesk.engines.hosted.in_process`).

It takes the root moves from the core board (which applies every course rule, the perpetual-check
ban included), rebuilds the recent game on its own fast :class:`Position` (so repetitions are seen),
and runs the compiled iterative-deepening search under a time plan:

- ``limits.movetime`` (or, with no limit at all, the ruleset's per-move limit) is the time the move
  must arrive within. The *hard* deadline keeps a small safety margin (2% of the budget, at least
  0.01 s and at most 0.5 s, plus the ``Move Overhead`` option, 10 ms by default) for the stop and
  the trip through the engine host; a watchdog thread stops the search there. A referee's own
  slack for a loaded machine is its business: xqdesk's tells an engine 10% (at most 0.5 s) less
  than the clock it enforces.
- A move time (``go movetime``) is the move's alone (what is not used is lost), so the search
  deepens until the hard deadline. Otherwise no new iteration starts after the *soft* deadline (55% of the
  hard budget), since it would rarely finish; that deadline moves later (up to the hard one) while
  the best move keeps changing or its score falls, and earlier once the same move has been best
  for many iterations.
- ``infinite`` searches run until ``stop``; depth and node limits (and the ``Level`` caps) bound
  the tree.
"""
from __future__ import annotations

import random
import threading
import time
from contextlib import closing
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Optional

from xqdesk.board import Board
from xqdesk.egtb import MissingTableError
from xqdesk.egtb.fileformat import TableFileError
from xqdesk.engines.builtin import board_kernel
from xqdesk.engines.builtin.eval_tables import SHIPPED_PARAMS, ParamsByPhase, PhasedWeights
from xqdesk.engines.builtin.levels import MAX_LEVEL, MIN_LEVEL, level_limits
from xqdesk.engines.builtin.nnue import Network, NetworkFileError
from xqdesk.engines.builtin.position import Position, decode_move, encode_move
from xqdesk.engines.builtin.search_tunables import parse_tunables, tunable_values
from xqdesk.engines.builtin.tree_tables import TreeTablesCache
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.book import DEFAULT_MIN_GAMES, OpeningBook
from xqdesk.engines.hosted.tablebase import PATH_OPTION, TablebaseCache, table_lines
from xqdesk.engines.options import OptionValue, UciOption, spin_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.opening_book import BookFileError, shipped_book
from xqdesk.position_index import PositionIndexError
from xqdesk.score import Cp, Mate, PovScore

if TYPE_CHECKING:  # importing the searcher compiles its kernel when the cache is cold: see warm_up
    from xqdesk.engines.builtin.searcher import Line, Searcher

DEFAULT_HASH_MB = 64
SOFT_FRACTION = 0.55
WATCHDOG_PERIOD = 0.004
MAX_HASH_MB = 1024
MAX_MULTIPV = 16
MAX_DEPTH_OPTION = 64
DEFAULT_OVERHEAD_MS = 10
MAX_OVERHEAD_MS = 5000
MAX_BOOK_MIN_GAMES = 100000
MAX_THREADS = 8
EVAL_CLASSIC, EVAL_NETWORK = "classic", "network"
DEFAULT_EVAL = EVAL_CLASSIC

OPTIONS = (
    UciOption("Hash", "spin", default=str(DEFAULT_HASH_MB), min=1, max=MAX_HASH_MB),
    UciOption("Level", "spin", default=str(MAX_LEVEL), min=MIN_LEVEL, max=MAX_LEVEL),
    UciOption("Threads", "spin", default="1", min=1, max=MAX_THREADS),
    UciOption("MultiPV", "spin", default="1", min=1, max=MAX_MULTIPV),
    UciOption("Depth", "spin", default="0", min=0, max=MAX_DEPTH_OPTION),
    UciOption("Move Overhead", "spin", default=str(DEFAULT_OVERHEAD_MS), min=0, max=MAX_OVERHEAD_MS),
    UciOption("Clear Hash", "button"),
    UciOption("OwnBook", "check", default="false"),
    UciOption("BookFile", "string", default=""),
    UciOption("BookMinGames", "spin", default=str(DEFAULT_MIN_GAMES), min=1, max=MAX_BOOK_MIN_GAMES),
    UciOption("Eval", "combo", default=DEFAULT_EVAL, choices=(EVAL_CLASSIC, EVAL_NETWORK)),
    UciOption("EvalFile", "string", default=""),
    UciOption("Tunables", "string", default=""),
    PATH_OPTION,
)
"""The options the built-in engine declares (``Threads``: search threads sharing the hash table,
lazy SMP; ``Depth`` 0: no cap; ``Move Overhead`` in ms;
``OwnBook`` plays from ``BookFile`` (a position index or a book file; empty: the master-game book
xqdesk ships) the moves at least ``BookMinGames`` games played: see
:mod:`xqdesk.engines.hosted.book` (off by default: the window turns it on for the games it plays); ``Eval``: the hand-written evaluation (``classic``) or
the learned one (``network``, :mod:`xqdesk.engines.builtin.nnue`) read from ``EvalFile`` (empty: the
network xqdesk ships); ``Tunables``: search tunables changed from their shipped values, as
``NAME=VALUE`` items (:mod:`xqdesk.engines.builtin.search_tunables`; for tuning, empty: none);
``TablebasePath``: a directory of endgame tables probed at the root)."""


DEADLINE_MARGIN_SHARE, DEADLINE_MARGIN_MIN, DEADLINE_MARGIN_MAX = 0.02, 0.01, 0.5
"""The hard deadline comes this share of the move's budget (at least the minimum, at most the
maximum, in seconds) plus ``Move Overhead`` before the budget: the tree stops within a few
milliseconds of it (the watchdog's period), and the overhead covers the trip to the referee. The
move arrives a few milliseconds after the hard deadline on a quiet machine, up to 45 ms on a busy
one (``bench/time_use.py``): at the defaults, 0.97 s of a 1 s move time, 0.28 s of 0.3 s and
0.084 s of 0.1 s."""

PLANNED_MOVES_LEFT = 30
"""Under a game clock, a move is planned as if this many moves were still to come."""

INCREMENT_SHARE = 0.75
"""The part of the increment a move under a game clock may spend."""

UNSTABLE_TIME_FACTOR, SETTLED_TIME_FACTOR = 1.8, 0.6
"""Under a game clock: how the soft deadline stretches while the best move changes or its score
falls, and shrinks once the same move has been best for :data:`SETTLED_ITERATIONS` iterations."""
SETTLED_ITERATIONS = 6
UNSTABLE_SCORE_DROP = 30
"""A fall of the best score by this many centipawns from one iteration to the next is unstable."""


@dataclass(frozen=True)
class TimePlan:
    """Seconds after the start: ``soft`` (no new iteration after it) and ``hard`` (stop the
    tree); None when the clock does not limit the search."""

    soft: Optional[float]
    hard: Optional[float]

    def next_iteration_deadline(self, unstable: bool, settled: bool) -> Optional[float]:
        """The soft deadline adjusted to the last iterations: later (at most the hard one) when
        the best move changed or its score fell (``unstable``), earlier when the same move has been
        best for many iterations (``settled``)."""
        if self.soft is None or self.hard is None or self.soft >= self.hard:
            return self.soft  # no clock, or a move time that is searched to its end
        if unstable:
            return min(self.hard, self.soft * UNSTABLE_TIME_FACTOR)
        return self.soft * SETTLED_TIME_FACTOR if settled else self.soft


def plan_time(limits: SearchLimits, default_movetime: float, overhead: float, red: bool = True) -> TimePlan:
    """The time plan for ``limits`` when ``red`` (or Black) is to move; ``default_movetime`` applies
    when nothing else bounds the search (the course's 10 s clock). Under a game clock the move gets
    a share of the time left (:data:`PLANNED_MOVES_LEFT`) plus most of the increment, never more
    than half of what is left. The soft deadline comes before the hard one, except under a move
    time alone, which the search uses up (UCI's ``movetime``: search exactly this long); the
    default move time is a limit, not a budget to spend."""
    budget = limits.movetime
    clock_left, increment = limits.clock_for(red)
    if clock_left is not None:
        share = min(clock_left / PLANNED_MOVES_LEFT + INCREMENT_SHARE * increment, 0.5 * clock_left)
        budget = share if budget is None else min(budget, share)
    if budget is None and not limits.infinite and limits.depth is None and limits.nodes is None:
        budget = default_movetime
    if budget is None or limits.infinite:
        return TimePlan(None, None)
    margin = min(max(DEADLINE_MARGIN_SHARE * budget, DEADLINE_MARGIN_MIN), DEADLINE_MARGIN_MAX) + overhead
    hard = max(budget - margin, 0.5 * budget)
    exact = limits.movetime is not None and clock_left is None  # UCI's "search exactly this long"
    return TimePlan(hard if exact else SOFT_FRACTION * hard, hard)


class BuiltinEngine:
    """xqdesk's own alpha-beta engine."""

    name = "xqdesk builtin"

    def __init__(self, weights: Optional[PhasedWeights] = None, book_rng: Optional[random.Random] = None) -> None:
        """``weights``: the evaluation's weights (default: the shipped ones); other values are for
        tuning experiments. ``book_rng`` draws the book moves (default: seeded by the system)."""
        self._params = SHIPPED_PARAMS if weights is None else ParamsByPhase(weights)
        self._hash_mb = DEFAULT_HASH_MB
        self._threads = 1
        self._searcher: Optional[Searcher] = None  # loaded on first use
        self._level = MAX_LEVEL
        self._multipv = 1
        self._max_depth = 0
        self._overhead_ms = DEFAULT_OVERHEAD_MS
        self._own_book = False
        self._book_file = ""
        self._book_min_games = DEFAULT_MIN_GAMES
        self._book: Optional[OpeningBook] = None
        self._book_rng = book_rng or random.Random()
        self._tables = TablebaseCache()
        self._tree_tables = TreeTablesCache()
        self._eval = DEFAULT_EVAL
        self._eval_file = ""
        self._network: Optional[Network] = None  # the EvalFile's network, read when first needed
        self._tunables = tunable_values()

    def warm_up(self) -> None:
        """Load the compiled kernel (compiling it on the first start after an install, which takes
        a while), so the first real move is not slowed down by it. The engine host runs this
        before it answers ``isready``."""
        board = Board(STARTING_FEN)
        self.search(board, SearchLimits(depth=3), threading.Event(), lambda info: None)
        self._loaded_searcher().clear()

    def _loaded_searcher(self) -> Searcher:
        """The compiled searcher, made on first use: importing it compiles the search kernel on
        the first start after an install (about 10 s of CPU), so ``uci`` is answered before that."""
        if self._searcher is None:
            from xqdesk.engines.builtin.searcher import Searcher
            self._searcher = Searcher(self._hash_mb, self._search_network())
            self._searcher.tunables = self._tunables
        return self._searcher

    # --- options -------------------------------------------------------------------------------

    def uci_options(self) -> tuple[UciOption, ...]:
        return OPTIONS

    def set_option(self, name: str, value: OptionValue) -> None:
        """Apply a checked value of one of :data:`OPTIONS` (see
        :func:`~xqdesk.engines.hosted.in_process.apply_option`)."""
        if name == "Clear Hash":
            if self._searcher is not None:
                self._searcher.clear()
            return
        if name == "TablebasePath":
            self._tables.set_path("" if value is None else str(value))
            return
        if name == "OwnBook":
            self._own_book = bool(value)
            return
        if name == "BookFile":
            self._set_book_file(str(value or ""))
            return
        if name == "Tunables":
            try:
                self._tunables = parse_tunables(str(value or ""))
            except ValueError as error:
                raise EngineOptionError(f"Tunables: {error}") from None
            if self._searcher is not None:
                self._searcher.tunables = self._tunables
            return
        if name in ("Eval", "EvalFile"):
            self._set_evaluation(str(value or "") if name == "Eval" else self._eval,
                                 str(value or "").strip() if name == "EvalFile" else self._eval_file)
            return
        number = spin_value(name, value)
        if name == "Hash":
            self._hash_mb = number
            if self._searcher is not None:
                self._searcher.resize(number)
        elif name == "Threads":
            self._threads = number
        elif name == "Level":
            self._level = number
        elif name == "MultiPV":
            self._multipv = number
        elif name == "Depth":
            self._max_depth = number
        elif name == "Move Overhead":
            self._overhead_ms = number
        elif name == "BookMinGames":
            self._book_min_games = number
            if self._book is not None:
                self._book.min_games = number
        else:
            names = ", ".join(option.name for option in OPTIONS)
            raise EngineOptionError(f"{self.name} has no option {name!r} (it has: {names})")

    def _set_book_file(self, path: str) -> None:
        """Open the position index at ``path`` as the book ('' for none); EngineOptionError when
        it is missing or not an index (the previous book is then kept)."""
        book = None
        if path.strip():
            try:
                book = OpeningBook(path.strip(), self._book_min_games, self._book_rng)
            except (PositionIndexError, BookFileError) as error:
                raise EngineOptionError(f"BookFile: {error}") from None
        self._book, self._book_file = book, path.strip()

    def _active_book(self) -> Optional[OpeningBook]:
        """The ``BookFile``'s book, or the shipped master-game book when none is named (None when
        this install has none)."""
        if self._book is None and not self._book_file:
            try:
                shipped = shipped_book()
            except BookFileError:
                return None  # a damaged install: the engine searches instead
            if shipped is not None:
                self._book = OpeningBook(shipped, self._book_min_games, self._book_rng)
        return self._book

    def _set_evaluation(self, evaluation: str, eval_file: str) -> None:
        """Use ``evaluation`` (:data:`EVAL_CLASSIC` or :data:`EVAL_NETWORK`) with the network
        file ``eval_file`` ('' for the shipped one). A named file is read at once, whatever the
        evaluation (so a file that cannot be used is refused where it is given, never passed over);
        the shipped network when it is to be used. EngineOptionError when the network cannot be
        read (the previous settings are then kept)."""
        network = self._network if eval_file == self._eval_file else None
        if (evaluation == EVAL_NETWORK or eval_file) and network is None:
            try:
                network = Network.load(eval_file) if eval_file else Network.load_shipped()
            except NetworkFileError as error:
                raise EngineOptionError(f"EvalFile: {error}") from None
        changed = (evaluation, eval_file) != (self._eval, self._eval_file)
        self._eval, self._eval_file, self._network = evaluation, eval_file, network
        if changed and self._searcher is not None:
            self._searcher.set_network(self._search_network())

    def _search_network(self) -> Optional[Network]:
        """The network the search evaluates with (None: the hand-written evaluation)."""
        return self._network if self._eval == EVAL_NETWORK else None

    def new_game(self) -> None:
        if self._searcher is not None:
            self._searcher.clear()

    # --- searching -----------------------------------------------------------------------------

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """The best move found within ``limits`` among the legal root moves (restricted to
        ``limits.searchmoves``); None only when there is no such move."""
        started = time.perf_counter()
        allowed = set(limits.searchmoves) if limits.searchmoves else None
        root = [move for move in board.legal_moves if allowed is None or move in allowed]
        if not root:
            return None
        book = self._active_book() if self._own_book and not limits.infinite else None
        if book is not None:
            book_move = book.choose(board, root)
            if book_move is not None:  # a line of depth 0 (the move and the masters' score), then what it is
                on_info(SearchInfo(depth=0, score=PovScore(Cp(book_move.centipawns()), board.turn), nodes=0,
                                   time_ms=round((time.perf_counter() - started) * 1000), pv=(book_move.move,)))
                on_info(SearchInfo(string=book_move.describe()))
                return book_move.move
        multipv = limits.multipv if limits.multipv > 1 else self._multipv
        table_move, root = self._tablebase_root(board, root, multipv, on_info)
        if table_move is not None:
            if limits.infinite:
                stop.wait()
            return table_move
        plan = plan_time(limits, board.ruleset.move_time_limit, self._overhead_ms / 1000, red=board.turn)
        caps = level_limits(self._level)
        depths = [d for d in (limits.depth, self._max_depth or None, caps.max_depth) if d]
        max_depth = min(min(depths, default=board_kernel.MAX_PLY - 4), board_kernel.MAX_PLY - 4)
        node_limits = [n for n in (limits.nodes, caps.max_nodes) if n]
        node_limit = min(node_limits, default=0)
        position, history_offset = self._position_for(board)
        root_codes = [encode_move(move.from_square, move.to_square) for move in root]

        best: Optional[Move] = root[0]
        previous_score: Optional[int] = None
        same_best = 0
        searcher = self._loaded_searcher()
        searcher.stop_flag[0] = 0
        finished = threading.Event()
        watchdog = threading.Thread(target=self._watch, args=(stop, finished, started, plan.hard),
                                    name="builtin-watchdog", daemon=True)
        watchdog.start()
        try:
            if len(root) == 1 and not limits.infinite:
                max_depth = min(max_depth, 1)
            progress = closing(searcher.iterate(
                position, root_codes, max_depth=max_depth, node_limit=node_limit, multipv=multipv,
                capture_free_draw_plies=board.ruleset.capture_free_draw_plies,
                perpetual_check_limit=board.ruleset.perpetual_check_limit,
                perpetual_check_min_history=board.ruleset.perpetual_check_min_history,
                history_offset=history_offset, threads=self._threads,
                tables=self._tree_tables.for_position(self._tables.tablebase, position.codes())))
            last: Optional[Line] = None  # the best line reported last, and the nodes then counted
            reported_nodes = 0
            with progress as iterations:
                for lines in iterations:
                    last, reported_nodes = lines[0], max(line.nodes for line in lines)
                    move = self._move(lines[0].pv[0])
                    score = lines[0].score
                    same_best = same_best + 1 if move == best else 1
                    unstable = move != best or (previous_score is not None and score < previous_score - UNSTABLE_SCORE_DROP)
                    best, previous_score = move, score
                    for line in lines:
                        on_info(self._info(board, line))
                    deadline = plan.next_iteration_deadline(unstable, same_best >= SETTLED_ITERATIONS)
                    if deadline is not None and time.perf_counter() - started >= deadline:
                        break
            if last is not None and searcher.nodes > reported_nodes:
                # The nodes of the iteration the stop cut short, as a last report of the best line
                # (as UCI engines do before ``bestmove``): a GUI's node count and speed are the search's.
                on_info(self._info(board, replace(last, nodes=searcher.nodes, elapsed=time.perf_counter() - started)))
        finally:
            finished.set()
            watchdog.join()
        if limits.infinite:
            stop.wait()
        return best

    def _tablebase_root(self, board: Board, root: list[Move], multipv: int,
                        on_info: Callable[[SearchInfo], None]) -> tuple[Optional[Move], list[Move]]:
        """Probe the tables at the root: ``(move, root)``. A won or lost position: the table's
        lines are reported and ``move`` is its best (fastest win, longest defence). A drawn one:
        ``root`` keeps only the moves that hold the draw, for the search to choose among. Not
        covered (or a table a capture leads into is missing): ``(None, root)``."""
        tablebase = self._tables.covering(board)
        if tablebase is None:
            return None, root
        try:
            allowed = set(root)
            scored = [(move, value) for move, value in tablebase.best_moves(board) if move in allowed]
            if scored and not scored[0][1].is_draw:
                lines = table_lines(tablebase, board, root, multipv)
                for _value, info in lines:
                    on_info(info)
                return lines[0][1].pv[0], root
        except (MissingTableError, TableFileError, ValueError):
            return None, root
        drawing = [move for move, value in scored if value.is_draw]
        return None, drawing or root

    def _watch(self, stop: threading.Event, finished: threading.Event, started: float,
               hard: Optional[float]) -> None:
        """Set the kernel's stop flag on ``stop`` or at the hard deadline."""
        searcher = self._searcher
        if searcher is None:
            return
        while not finished.wait(WATCHDOG_PERIOD):
            if stop.is_set() or (hard is not None and time.perf_counter() - started >= hard):
                searcher.stop_flag[0] = 1
                return

    def _position_for(self, board: Board) -> tuple[Position, int]:
        """The engine position for ``board`` and the number of the game's moves before it: the
        capture-free tail of the game is replayed so the kernel knows which positions have
        occurred, and at least the moves the perpetual-check ban looks back at."""
        base = board.copy()
        replay: list[Move] = []
        wanted = max(board.halfmove_clock, 2 * board.ruleset.perpetual_check_limit + 1)
        while base.move_stack and len(replay) < wanted:
            replay.append(base.pop())
        params = self._params.for_codes(board.code_at(sq) for sq in range(90))  # the root's phase
        position = Position([base.code_at(sq) for sq in range(90)], base.turn, base.halfmove_clock, params)
        position.push_all(encode_move(move.from_square, move.to_square) for move in reversed(replay))
        return position, len(base.move_stack)

    @staticmethod
    def _move(code: int) -> Move:
        origin, target = decode_move(code)
        return Move(origin, target)

    def _info(self, board: Board, line: Line) -> SearchInfo:
        mate = line.mate_in
        score = PovScore(Mate(mate) if mate is not None else Cp(line.score), board.turn)
        elapsed = max(line.elapsed, 1e-6)
        return SearchInfo(depth=line.depth, seldepth=max(line.seldepth, line.depth), score=score,
                          nodes=line.nodes, nps=int(line.nodes / elapsed), time_ms=int(line.elapsed * 1000),
                          pv=self._legal_prefix(board, line.pv), multipv=line.multipv)

    def _legal_prefix(self, board: Board, pv: tuple[int, ...]) -> tuple[Move, ...]:
        """The PV's moves as long as each is legal under the course rules."""
        replay = board.copy()
        moves: list[Move] = []
        for code in pv:
            move = self._move(code)
            if not replay.is_legal(move):
                break
            replay.push(move)
            moves.append(move)
        return tuple(moves)
