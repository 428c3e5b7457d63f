"""The seed projects' baseline engines: ``random`` (any legal move) and ``greedy`` (takes the most
valuable piece it can, else any legal move). Both take a ``Seed`` option for repeatable games."""
from __future__ import annotations

import random
import threading
from typing import Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.options import OptionValue, UciOption, spin_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN

CAPTURE_VALUES = {PAWN: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 4, CANNON: 5, CHARIOT: 9, KING: 100}
"""What greedy thinks each piece type is worth when it takes it."""

SEED_OPTION = UciOption("Seed", "spin", default="0", min=0, max=2**31 - 1)
"""The generator's seed: the same seed plays the same games."""


class RandomEngine:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: Optional[int] = None) -> None:
        self._seed = seed
        self._random = random.Random(seed)

    def uci_options(self) -> tuple[UciOption, ...]:
        return (SEED_OPTION,)

    def set_option(self, name: str, value: OptionValue) -> None:
        """Apply a checked value (see :func:`~xqdesk.engines.hosted.in_process.apply_option`)."""
        self._seed = spin_value(name, value)
        self._random = random.Random(self._seed)

    def new_game(self) -> None:
        """Same seed, same games: each game restarts the generator."""
        self._random = random.Random(self._seed)

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """A move among the legal ones (restricted to ``limits.searchmoves`` when given)."""
        allowed = set(limits.searchmoves) if limits.searchmoves else None
        moves = sorted((move for move in board.legal_moves if allowed is None or move in allowed),
                       key=Move.iccs)
        move = self.pick(board, moves) if moves else None
        on_info(SearchInfo(depth=1, nodes=len(moves), pv=(move,) if move else ()))
        return move

    def pick(self, board: Board, moves: list[Move]) -> Move:
        """One of ``moves`` (not empty)."""
        return self._random.choice(moves)


class GreedyEngine(RandomEngine):
    """Takes the most valuable piece it can (ties broken at random), else plays a random move."""

    name = "greedy"

    def pick(self, board: Board, moves: list[Move]) -> Move:
        best_value = max(self._value(board, move) for move in moves)
        return self._random.choice([move for move in moves if self._value(board, move) == best_value])

    @staticmethod
    def _value(board: Board, move: Move) -> int:
        return CAPTURE_VALUES.get(abs(board.code_at(move.to_square)), 0)
