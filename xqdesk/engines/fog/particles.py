"""A particle belief carried from ply to ply: the boards an agent thinks possible, with weights.

It starts from the opening position when the first view fits it (the start is public), else from
boards drawn by :func:`~xqdesk.engines.fog.belief.sample_board`. After the agent's own move every
particle plays that move; after the opponent's, every particle is replaced by each of its
successors under the opponent's moves, weighted by a model of the opponent (a random move, or with
probability ``greed`` the most valuable capture). Particles that would not show the agent what it
now sees are dropped; when more distinct boards remain than the belief holds, it resamples them.
When nothing is left (the true board was lost in a resampling) it starts afresh from the view.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Optional

from xqdesk.engines.fog.belief import Codes, implied, is_consistent, sample_board
from xqdesk.engines.hosted.baselines import CAPTURE_VALUES
from xqdesk.fen import STARTING_FEN, parse_fen
from xqdesk.movegen import unchecked_moves
from xqdesk.pieces import RED, Color
from xqdesk.variants.fog.observation import Observation

START_CODES: Codes = parse_fen(STARTING_FEN).codes


class ParticleBelief:
    """Up to ``size`` distinct boards with weights summing to 1."""

    def __init__(self, side: Color, size: int, rng: random.Random, greed: float = 0.5) -> None:
        if size < 1:
            raise ValueError(f"a particle belief needs at least one particle, got {size!r}")
        self.side = side
        self.size = size
        self.rng = rng
        self.greed = greed
        self.particles: dict[Codes, float] = {}
        self.ply: Optional[int] = None
        self.restarts = 0
        """How often the belief had to start afresh from a view."""

    def update(self, observation: Observation) -> None:
        """Take in the view after the next ply (or the first view of a game)."""
        if self.ply is None or observation.ply != self.ply + 1 or not self.particles:
            self._start(observation, first=self.ply is None)
        else:
            if observation.last_move is not None:
                moved = self._after_own_move(observation)
            else:
                moved = self._after_opponent_move(observation)
            if moved:
                self.particles = self._trimmed(moved)
            else:
                self.restarts += 1
                self._start(observation, first=False)
        self.ply = observation.ply

    def draw(self, count: int) -> list[tuple[Codes, float]]:
        """``count`` boards drawn by weight, as distinct boards with how often each was drawn."""
        boards = list(self.particles)
        drawn = Counter(self.rng.choices(boards, weights=[self.particles[b] for b in boards], k=count))
        return list(drawn.items())

    # --- updates -------------------------------------------------------------------------------

    def _start(self, observation: Observation, first: bool) -> None:
        if first and observation.ply == 0 and is_consistent(START_CODES, observation):
            self.particles = {START_CODES: 1.0}
            return
        hint = implied(observation)
        drawn: Counter[Codes] = Counter()
        for _ in range(self.size):
            board = sample_board(observation, self.rng, hint=hint)
            if board is not None:
                drawn[board] += 1
        self.particles = _normalised(drawn)

    def _after_own_move(self, observation: Observation) -> dict[Codes, float]:
        move = observation.last_move
        assert move is not None  # the caller checked
        origin, target = move.from_square, move.to_square
        moved: dict[Codes, float] = {}
        for codes, weight in self.particles.items():
            child = list(codes)
            child[target], child[origin] = child[origin], 0
            if is_consistent(child, observation):
                key = tuple(child)
                moved[key] = moved.get(key, 0.0) + weight
        return moved

    def _after_opponent_move(self, observation: Observation) -> dict[Codes, float]:
        side, cells = self.side, observation.cells
        enemy = not side
        moved: dict[Codes, float] = {}
        lost: Optional[set[int]] = None
        for codes, weight in self.particles.items():
            if lost is None:  # own pieces are the same on every particle: which did the opponent take?
                lost = {sq for sq, code in enumerate(codes)
                        if code and (code > 0) == side and cells[sq] != code}
            board = list(codes)
            enemy_squares = [sq for sq, code in enumerate(board) if code and (code > 0) == enemy]
            moves = unchecked_moves(board, enemy_squares, enemy)
            if not moves:
                continue
            priors = self._opponent_model(board, moves)
            for move, prior in zip(moves, priors):
                origin, target = move >> 7, move & 127
                if lost and target not in lost:
                    continue
                seen_target, seen_origin = cells[target], cells[origin]
                if (seen_target is not None and seen_target != board[origin]) or seen_origin:
                    continue
                child = board[:]
                child[target], child[origin] = child[origin], 0
                if is_consistent(child, observation):
                    key = tuple(child)
                    moved[key] = moved.get(key, 0.0) + weight * prior
        return moved

    def _opponent_model(self, board: list[int], moves: list[int]) -> list[float]:
        """How likely the opponent plays each of ``moves``: uniform, plus ``greed`` spread over the
        captures of the most valuable piece (over all moves when there is no capture)."""
        values = [CAPTURE_VALUES.get(abs(board[move & 127]), 0) for move in moves]
        best = max(values)
        greedy = [value == best for value in values]
        share = self.greed / sum(greedy)
        plain = (1.0 - self.greed) / len(moves)
        return [plain + (share if is_greedy else 0.0) for is_greedy in greedy]

    def _trimmed(self, weighted: dict[Codes, float]) -> dict[Codes, float]:
        if len(weighted) <= self.size:
            return _normalised(weighted)
        boards = list(weighted)
        drawn = Counter(self.rng.choices(boards, weights=[weighted[b] for b in boards], k=self.size))
        return _normalised(drawn)


def _normalised(weighted: dict[Codes, float] | Counter[Codes]) -> dict[Codes, float]:
    total = float(sum(weighted.values()))
    return {codes: weight / total for codes, weight in weighted.items()} if total > 0 else {}


__all__ = ["ParticleBelief", "START_CODES", "RED"]
