"""Choosing a move from believed boards: the built-in engine searches each, the boards vote.

A general in reach is taken at once. Otherwise each distinct board is searched for a fixed depth
or time (as a normal Xiangqi position with the observer to move) and its best move gets the
board's weight in votes; the move with the most votes is played, a tie going to greedy's choice
among the tied moves. With no vote at all (no board, or no board with a move the engine would
play) the greedy move is played.
"""
from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from xqdesk.board import Board
from xqdesk.engines.fog.baselines import general_capture, greedy_move
from xqdesk.engines.fog.belief import Codes
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchLimits
from xqdesk.errors import InvalidFenError
from xqdesk.fen import format_fen
from xqdesk.move import Move
from xqdesk.ruleset import STANDARD
from xqdesk.variants.fog.observation import Observation

if TYPE_CHECKING:
    from xqdesk.engines.builtin.engine import BuiltinEngine

SAMPLE_HASH_MB = 16


class SampleSearcher:
    """The built-in engine, loaded on first use, searching believed boards."""

    def __init__(self) -> None:
        self._engine: Optional[BuiltinEngine] = None

    def _loaded(self) -> BuiltinEngine:
        """The engine, made on first use (importing its search compiles the kernel after an install)."""
        if self._engine is None:
            from xqdesk.engines.builtin.engine import BuiltinEngine

            engine = BuiltinEngine()
            apply_option(engine, "Hash", SAMPLE_HASH_MB)
            apply_option(engine, "Move Overhead", 0)
            self._engine = engine
        return self._engine

    def warm_up(self) -> None:
        """Load (and on the first start after an install, compile) the engine now."""
        self._loaded().warm_up()

    def new_game(self) -> None:
        if self._engine is not None:
            self._engine.new_game()

    def best_move(self, codes: Codes, observation: Observation, limits: SearchLimits) -> Optional[Move]:
        """The engine's move on the board ``codes`` with the observer to move (None when that board
        is not a position the engine can search, or the observer has no move there that keeps
        its general safe)."""
        try:
            board = Board(format_fen(codes, observation.side, observation.halfmove_clock, 1), ruleset=STANDARD)
        except InvalidFenError:
            return None
        return self._loaded().search(board, limits, threading.Event(), _ignore)


def _ignore(info: object) -> None:
    """Progress reports of sample searches are not shown anywhere."""


def vote(observation: Observation, boards: Sequence[tuple[Codes, float]], searcher: SampleSearcher,
         limits: SearchLimits, choose: Callable[[list[Move]], Move], deadline: Optional[float] = None) -> Move:
    """The move ``boards`` (distinct boards with their weights) vote for; see the module docstring.
    ``deadline`` (a ``time.perf_counter`` value): no new board is searched after it."""
    general = general_capture(observation)
    if general is not None:
        return general
    votes: dict[Move, float] = {}
    legal = set(observation.move_codes)
    for codes, weight in boards:
        if deadline is not None and votes and time.perf_counter() >= deadline:
            break
        move = searcher.best_move(codes, observation, limits)
        if move is not None and move.from_square << 7 | move.to_square in legal:
            votes[move] = votes.get(move, 0.0) + weight
    if not votes:
        return greedy_move(observation, choose)
    most = max(votes.values())
    tied = sorted((move for move, count in votes.items() if count == most), key=Move.iccs)
    return tied[0] if len(tied) == 1 else greedy_move(observation, choose, among=tied)


def search_limits(depth: int, time_ms: int) -> SearchLimits:
    """The limits of one sample search: ``depth`` plies and/or ``time_ms`` milliseconds (0 = no
    limit of that kind; with neither, depth 3)."""
    if not depth and not time_ms:
        depth = 3
    return SearchLimits(depth=depth or None, movetime=time_ms / 1000 if time_ms else None)
