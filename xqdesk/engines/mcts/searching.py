"""What the ``mcts`` and ``zero`` engines share: the move's time plan, tree reuse between moves,
the root moves the course allows, and the UCI report of a tree.

Report: ``score`` is the best move's mean value ``Q`` turned into centipawns
(``SCALE_CP · atanh(Q)``), the PV follows the most visited moves, ``nodes`` counts simulations,
MultiPV lines are the most visited root moves, and an ``info string`` per line gives the move's
visits, ``Q`` and prior; a move whose result the tree has proven reports ``score mate N``. The
move played is the most visited (``Temperature`` > 0: drawn with probability proportional to
visits^(1/T)) among the moves not proven to lose; when the root's result is proven the search stops
and plays the quickest proven win (or the slowest loss).
"""
from __future__ import annotations

import math
import threading
import time
from typing import Callable, ClassVar, Optional

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.builtin.engine import plan_time
from xqdesk.engines.builtin.position import Position, decode_move, encode_move
from xqdesk.engines.mcts.playout import SCALE_CP
from xqdesk.engines.mcts.tree import LeafEvaluator, Node, TreeSearch, principal_variation, proven_choice
from xqdesk.engines.options import OptionField, OptionFields, OptionValue, UciOption, spin_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.score import Cp, Mate, PovScore

REPORT_PERIOD = 0.5
"""Seconds between progress reports."""
MAX_REUSE_PLIES = 4
"""A new position this many plies past the last search's root reuses the tree below it."""

TREE_SEARCH_FIELDS = (
    OptionField(UciOption("MultiPV", "spin", default="1", min=1, max=16), "multipv", spin_value),
    OptionField(UciOption("Seed", "spin", default="0", min=0, max=2**31 - 1), "seed", spin_value),
    OptionField(UciOption("Move Overhead", "spin", default="100", min=0, max=5000), "overhead_ms", spin_value),
)
"""The options every tree-search engine here has (``mcts`` and ``zero``)."""


def position_for(board: Board) -> Position:
    """The kernel position of ``board`` with its capture-free tail replayed (for repetitions), and
    at least the moves the perpetual-check ban looks back at (see :func:`history_offset`)."""
    base = board.copy()
    replay: list[Move] = []
    wanted = max(board.halfmove_clock, 2 * board.ruleset.perpetual_check_limit + 1)
    while base.move_stack and len(replay) < wanted:
        replay.append(base.pop())
    position = Position([base.code_at(sq) for sq in range(90)], base.turn, base.halfmove_clock)
    position.push_all(encode_move(move.from_square, move.to_square) for move in reversed(replay))
    return position


def history_offset(board: Board, position: Position) -> int:
    """The game's moves before the first of ``position`` (made by :func:`position_for`)."""
    return len(board.move_stack) - len(position.moves_played)


def tree_search(evaluator: LeafEvaluator, board: Board, exploration: float, puct: bool,
                rng: Optional[np.random.Generator]) -> TreeSearch:
    """A tree search under ``board``'s ruleset (capture-free draw, perpetual-check ban)."""
    rules = board.ruleset
    return TreeSearch(evaluator, exploration, puct=puct, draw_plies=rules.capture_free_draw_plies, rng=rng,
                      check_limit=rules.perpetual_check_limit, check_min_history=rules.perpetual_check_min_history)


def kernel_move(move: Move) -> int:
    return encode_move(move.from_square, move.to_square)


def board_move(code: int) -> Move:
    origin, target = decode_move(code)
    return Move(origin, target)


def value_to_cp(q: float) -> int:
    return int(round(SCALE_CP * math.atanh(max(-0.999, min(0.999, q)))))


class TreeReuse:
    """Keeps the last search's tree and hands back the subtree of a later position of the game."""

    def __init__(self) -> None:
        self.root: Optional[Node] = None
        self.start_fen = ""
        self.moves: list[Move] = []

    def clear(self) -> None:
        self.root, self.moves = None, []

    def root_for(self, board: Board) -> tuple[Node, bool]:
        """(root node for ``board``, whether it came from the old tree)."""
        played = board.move_stack
        node = self.root
        if node is None or board.start_fen != self.start_fen or played[:len(self.moves)] != self.moves \
                or len(played) - len(self.moves) > MAX_REUSE_PLIES:
            return Node(), False
        for move in played[len(self.moves):]:
            index = node.index_of(kernel_move(move)) if node is not None else -1
            node = node.children[index] if node is not None and index >= 0 else None
        if node is None or node.moves is None:
            return Node(), False
        return node, True

    def keep(self, board: Board, root: Node) -> None:
        self.root, self.start_fen, self.moves = root, board.start_fen, list(board.move_stack)


class TreeSearchEngine:
    """What the tree-search engines share: their options, kept in attributes and declared once in
    :attr:`fields` (defaults included, :data:`TREE_SEARCH_FIELDS` among them); the tree kept
    between the moves of a game; and the random source, drawn afresh from ``Seed`` by a new game
    or a new seed. Any option set drops the kept tree (it was grown under the old settings)."""

    fields: ClassVar[OptionFields]
    multipv: int
    seed: int
    overhead_ms: int

    def __init__(self) -> None:
        self.fields.apply_defaults(self)
        self._reuse = TreeReuse()
        self._rng = np.random.default_rng(self.seed)

    def uci_options(self) -> tuple[UciOption, ...]:
        return self.fields.options

    def set_option(self, name: str, value: OptionValue) -> None:
        self.fields.apply(self, name, value)
        if name == "Seed":
            self.new_game()
        self._reuse.clear()

    def new_game(self) -> None:
        self._reuse.clear()
        self._rng = np.random.default_rng(self.seed)


def run_search(board: Board, limits: SearchLimits, stop: threading.Event, on_info: Callable[[SearchInfo], None],
               evaluator: LeafEvaluator, search: TreeSearch, reuse: Optional[TreeReuse], simulations: int,
               temperature: float, multipv: int, overhead: float, rng: np.random.Generator,
               prepare_root: Optional[Callable[[Node], None]] = None) -> Optional[Move]:
    """Search ``board`` within ``limits`` (and ``simulations``, 0 for no cap) and pick the move."""
    started = time.perf_counter()
    allowed = set(limits.searchmoves) if limits.searchmoves else None
    root_moves = [move for move in board.legal_moves if allowed is None or move in allowed]
    if not root_moves:
        return None
    plan = plan_time(limits, board.ruleset.move_time_limit, overhead, red=board.turn)
    cap = min([n for n in (simulations, limits.nodes) if n] or [0])
    position = position_for(board)
    offset = history_offset(board, position)
    root, reused = reuse.root_for(board) if reuse is not None else (Node(), False)
    search.expand_root(root, position)
    codes = [kernel_move(move) for move in root_moves]
    assert root.moves is not None
    if sorted(root.moves.tolist()) != sorted(codes):
        root = root.restricted(codes)
    if prepare_root is not None:
        prepare_root(root)
    search.max_depth = 0
    done = 0
    last_report = started
    single = len(root_moves) == 1 and not limits.infinite
    while not single:
        now = time.perf_counter()
        if stop.is_set():
            break
        if plan.hard is not None and now - started >= plan.hard:
            break
        if cap and done >= cap:
            if limits.infinite:
                stop.wait()
            break
        step = evaluator.batch_size if not cap else min(evaluator.batch_size, cap - done)
        ran = search.run(root, position, step, offset)
        if ran == 0:  # the root's result is proven
            break
        done += max(ran, 1)
        if now - last_report >= REPORT_PERIOD:
            last_report = now
            _report(board, root, search, done, started, multipv, on_info)
    _report(board, root, search, done, started, multipv, on_info)
    if reuse is not None:
        reuse.keep(board, root)
    index = _choose(root, temperature, rng)
    assert root.moves is not None
    return board_move(int(root.moves[index]))


def _choose(root: Node, temperature: float, rng: np.random.Generator) -> int:
    proven = proven_choice(root)
    if proven is not None:
        return proven
    open_moves = root.edge_proof >= 0
    visits = np.where(open_moves, root.visits, 0.0)
    if temperature <= 0 or visits.sum() == 0:
        if visits.sum() == 0:
            return int(np.argmax(np.where(open_moves, root.prior, -1.0)))
        best = np.flatnonzero(visits == visits.max())
        return int(best[np.argmax(root.prior[best])])
    weights = visits ** (1.0 / temperature)
    return int(rng.choice(len(visits), p=weights / weights.sum()))


def _report(board: Board, root: Node, search: TreeSearch, done: int, started: float, multipv: int,
            on_info: Callable[[SearchInfo], None]) -> None:
    assert root.moves is not None
    elapsed = max(time.perf_counter() - started, 1e-6)
    order = sorted(range(len(root.moves)), key=lambda i: (-root.edge_proof[i], _win_plies(root, i), -root.visits[i],
                                                          -root.prior[i]))
    for rank, index in enumerate(order[:max(1, multipv)], start=1):
        line = principal_variation(root, index)
        pv = _legal_prefix(board, line)
        q = root.q(index) if root.visits[index] > 0 else root.estimate
        child = root.children[index]
        if root.edge_proof[index] != 0 and child is not None:
            moves = (child.proof_plies + 2) // 2
            score: Cp | Mate = Mate(moves if root.edge_proof[index] > 0 else -moves)
        else:
            score = Cp(value_to_cp(q))
        on_info(SearchInfo(depth=max(1, len(pv)), seldepth=max(search.max_depth, len(pv), 1),
                           score=PovScore(score, board.turn), nodes=done, nps=int(done / elapsed),
                           time_ms=int(elapsed * 1000), pv=pv, multipv=rank))
        move = board_move(int(root.moves[index]))
        on_info(SearchInfo(string=f"multipv {rank} move {move.iccs()} visits {int(root.visits[index])} "
                                  f"Q {q:+.3f} prior {root.prior[index]:.3f}"))


def _win_plies(root: Node, index: int) -> int:
    """Plies of a proven win by move ``index`` (0 for any other move): quicker wins report first."""
    child = root.children[index]
    return child.proof_plies if root.edge_proof[index] > 0 and child is not None else 0


def _legal_prefix(board: Board, line: list[int]) -> tuple[Move, ...]:
    replay = board.copy()
    moves: list[Move] = []
    for code in line:
        move = board_move(code)
        if not replay.is_legal(move):
            break
        replay.push(move)
        moves.append(move)
    return tuple(moves)
