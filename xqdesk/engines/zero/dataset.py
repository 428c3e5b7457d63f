"""Training positions from game records (no torch needed): each position of a game's main line as
mover-frame codes, the policy entry of the move played and the game's result from the mover's view.

**The result.** A record's ``Result`` header (``1-0``, ``0-1``, ``1/2-1/2``) is used when present;
otherwise the end position is judged: checkmate or no move as the rules say, else a depth-4 search
of the built-in engine on the final position — a score of at least :data:`DECISIVE_CP` centipawns
for one side counts as that side's win (master games mostly end in resignation), anything
smaller as a draw. Games whose moves cannot all be read are skipped (with a warning).

**Teacher values** (optional, :func:`blend_static_values`): master games rarely show material
imbalances, so a value head trained on results alone learns little about material. The value
target can be blended with the built-in engine's static evaluation of each position,
``tanh(cp / 400)`` from the mover's view.
"""
from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.zero.encoding import MIRROR_PERMUTATION, mirror_codes, mover_codes, policy_index
from xqdesk.formats import read_games
from xqdesk.game import Game
from xqdesk.pieces import RED

DECISIVE_CP = 250
JUDGE_DEPTH = 4


@dataclass
class Positions:
    """``codes`` (N, 90) int8 mover-frame codes, ``policy`` (N,) entries of the moves played,
    ``value`` (N,) float32 results from the mover's view, ``game`` (N,) the game each came from."""

    codes: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.policy)

    def subset(self, mask: np.ndarray) -> Positions:
        return Positions(self.codes[mask], self.policy[mask], self.value[mask], self.game[mask])

    def with_mirrors(self) -> Positions:
        """These positions and their left–right mirror images."""
        return Positions(np.concatenate([self.codes, mirror_codes(self.codes)]),
                         np.concatenate([self.policy, MIRROR_PERMUTATION[self.policy]]),
                         np.concatenate([self.value, self.value]), np.concatenate([self.game, self.game]))

    def save(self, path: str | Path) -> None:
        """Write the positions to a ``.npz`` file (read back by :meth:`load`)."""
        np.savez_compressed(Path(path), codes=self.codes, policy=self.policy, value=self.value, game=self.game)

    @staticmethod
    def load(path: str | Path) -> Positions:
        """Positions written by :meth:`save`; ValueError naming the file when it is not such a file."""
        try:
            with np.load(Path(path)) as data:
                positions = Positions(data["codes"].astype(np.int8), data["policy"].astype(np.int64),
                                      data["value"].astype(np.float32), data["game"].astype(np.int64))
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{str(path)!r} is not a positions file: {error}") from None
        n = len(positions.policy)
        if positions.codes.shape != (n, 90) or positions.value.shape != (n,) or positions.game.shape != (n,):
            raise ValueError(f"{str(path)!r} is not a positions file: the arrays' shapes do not agree")
        return positions

    @staticmethod
    def concatenate(parts: Sequence[Positions]) -> Positions:
        if not parts:
            return Positions(np.zeros((0, 90), np.int8), np.zeros(0, np.int64), np.zeros(0, np.float32),
                             np.zeros(0, np.int64))
        return Positions(np.concatenate([p.codes for p in parts]), np.concatenate([p.policy for p in parts]),
                         np.concatenate([p.value for p in parts]), np.concatenate([p.game for p in parts]))


class _Judge:
    """Scores an end position with a short search of the built-in engine."""

    def __init__(self) -> None:
        from xqdesk.engines.builtin import BuiltinEngine
        self.engine = BuiltinEngine()

    def red_result(self, board: Board) -> float:
        scores: list[SearchInfo] = []
        self.engine.search(board, SearchLimits(depth=JUDGE_DEPTH), threading.Event(), scores.append)
        score = next((info.score for info in reversed(scores) if info.score is not None), None)
        if score is None:
            return 0.0
        red = score.red()
        mate = red.mate()
        if mate is not None:
            return 1.0 if mate > 0 else -1.0
        cp = red.score() or 0
        return 1.0 if cp >= DECISIVE_CP else -1.0 if cp <= -DECISIVE_CP else 0.0


def red_result(game: Game, judge: Optional[_Judge] = None) -> float:
    """1 (Red won), -1 (Black won) or 0, from the header or the end position (module docstring)."""
    header = game.headers.get("Result", "").strip()
    if header in ("1-0", "0-1", "1/2-1/2"):
        return {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}[header]
    board = game.end_board()
    outcome = game.outcome or board.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == RED else -1.0)
    if not board.legal_moves:
        return -1.0 if board.turn == RED else 1.0
    return (judge or _Judge()).red_result(board)


def static_values(codes: np.ndarray) -> np.ndarray:
    """``tanh(cp / 400)`` of the built-in static evaluation of each mover-frame position (N, 90)
    (a mover-frame position is a position with Red, the mover, to move)."""
    from xqdesk.engines.builtin.position import Position

    values = np.empty(len(codes), np.float32)
    for row, position_codes in enumerate(codes):
        values[row] = np.tanh(Position([int(c) for c in position_codes], True).evaluate() / 400.0)
    return values


def blend_static_values(positions: Positions, weight: float) -> Positions:
    """The positions with value target ``(1 - weight) · result + weight · static value``."""
    if weight <= 0:
        return positions
    blended = (1 - weight) * positions.value + weight * static_values(positions.codes)
    return Positions(positions.codes, positions.policy, blended.astype(np.float32), positions.game)


def game_positions(game: Game, result: float, game_number: int) -> Positions:
    codes, policy, value = [], [], []
    board = game.start_board()
    for move in game.mainline_moves():
        codes.append(mover_codes(np.array([board.code_at(sq) for sq in range(90)]), board.turn == RED))
        policy.append(policy_index(move.from_square, move.to_square, board.turn == RED))
        value.append(result if board.turn == RED else -result)
        board.push(move)
    n = len(policy)
    return Positions(np.array(codes, np.int8).reshape(n, 90), np.array(policy, np.int64),
                     np.array(value, np.float32), np.full(n, game_number, np.int64))


def read_positions(paths: Iterable[str | Path], limit_games: Optional[int] = None) -> Positions:
    """Every main-line position of the games in ``paths`` (numbered across files from 0)."""
    judge: Optional[_Judge] = None
    parts: list[Positions] = []
    number = 0
    for path in paths:
        record = read_games(path)
        damaged = record.damaged_game_numbers
        for error in record.errors:
            print(f"warning: skipping a damaged game: {error}", file=sys.stderr)
        for index, game in enumerate(record.games, start=1):
            if index in damaged or not game.mainline_moves():
                continue
            if limit_games is not None and number >= limit_games:
                return Positions.concatenate(parts)
            if judge is None and not game.headers.get("Result"):
                judge = _Judge()
            parts.append(game_positions(game, red_result(game, judge), number))
            number += 1
    return Positions.concatenate(parts)
