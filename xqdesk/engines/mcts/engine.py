"""The ``mcts`` engine: pure Monte-Carlo tree search (UCT) with compiled playouts.

Options: ``Playouts`` (simulations a move, 0 = as many as the move time allows), ``Rollout``
(``light``: captures first, or ``random``), ``RolloutPlies`` (playout length before the built-in
evaluation scores it), ``Exploration`` (the UCT constant c), ``MultiPV``, ``Seed``, ``Move Overhead``
(ms kept back from the move time). The time plan is the built-in engine's; all of the planned time
is used. The tree is kept between moves of a game and reused below the new position.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Optional

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.mcts.searching import TREE_SEARCH_FIELDS, TreeSearchEngine, run_search, tree_search
from xqdesk.engines.options import OptionField, OptionFields, UciOption, number_between, spin_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move

FIELDS = OptionFields("xqdesk mcts", (
    OptionField(UciOption("Playouts", "spin", default="0", min=0, max=10_000_000), "playouts", spin_value),
    OptionField(UciOption("Rollout", "combo", default="light", choices=("light", "random")), "light",
                lambda _option, value: value == "light"),
    OptionField(UciOption("RolloutPlies", "spin", default="10", min=0, max=200), "rollout_plies", spin_value),
    OptionField(UciOption("Exploration", "string", default="1.0"), "exploration", number_between(0.0, 100.0)),
    *TREE_SEARCH_FIELDS,
))
OPTIONS = FIELDS.options


class PlayoutEvaluator:
    """Values a leaf by one compiled playout; uniform priors."""

    batch_size = 1

    def __init__(self, plies: int, light: bool, draw_plies: int) -> None:
        self.plies, self.light, self.draw_plies = plies, light, draw_plies

    def prepare(self, position: Position, moves: np.ndarray) -> Any:
        from xqdesk.engines.mcts.playout import playout
        value = playout(position.board, position.pos, position.keys, position.clocks, position.psq, position.params,
                        self.plies, self.light, self.draw_plies)
        return len(moves), float(value)

    def evaluate(self, items: list[Any]) -> list[tuple[np.ndarray, float]]:
        return [(np.full(count, 1.0 / max(count, 1)), value) for count, value in items]


class MctsEngine(TreeSearchEngine):
    """Pure UCT with playouts (module docstring)."""

    name = "xqdesk mcts"
    fields = FIELDS
    playouts: int
    light: bool
    rollout_plies: int
    exploration: float

    def warm_up(self) -> None:
        """Compile (or load) the playout kernel before the first move."""
        self.search(Board(STARTING_FEN), SearchLimits(nodes=8), threading.Event(), lambda info: None)
        self.new_game()

    def new_game(self) -> None:
        super().new_game()
        from xqdesk.engines.mcts.playout import seed
        seed(self.seed)

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """The most visited root move within ``limits`` (None only without a legal move)."""
        draw_plies = board.ruleset.capture_free_draw_plies
        evaluator = PlayoutEvaluator(self.rollout_plies, self.light, draw_plies)
        tree = tree_search(evaluator, board, self.exploration, puct=False, rng=self._rng)
        multipv = limits.multipv if limits.multipv > 1 else self.multipv
        return run_search(board, limits, stop, on_info, evaluator, tree, self._reuse, self.playouts, 0.0, multipv,
                          self.overhead_ms / 1000, self._rng)
