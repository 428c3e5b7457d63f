"""The seed project's baseline fog agents: ``fog-random`` and ``fog-greedy``.

Greedy captures the general whenever it sees it in reach; otherwise the most valuable piece it can
take (ties at random), else a random move. Its ``Conservative`` option never takes a piece worth
less than the piece it takes with; ``Preservative`` adds half the taking piece's value to a capture
by a piece that a seen enemy piece attacks (moving it away saves it).
"""
from __future__ import annotations

from typing import Callable, Optional

from xqdesk.engines.fog.agent import SEED, FogAgent
from xqdesk.engines.hosted.baselines import CAPTURE_VALUES
from xqdesk.engines.options import UciOption
from xqdesk.move import Move
from xqdesk.movegen import unchecked_moves
from xqdesk.pieces import KING
from xqdesk.variants.fog.observation import Observation


class RandomFogAgent(FogAgent):
    """Plays any of its moves, uniformly at random."""

    name = "fog-random"

    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        return self.random.choice(observation.moves)


def general_capture(observation: Observation) -> Optional[Move]:
    """A move of the observer that captures the enemy general, if it sees one."""
    for move in observation.moves:
        cell = observation.cells[move.to_square]
        if cell is not None and abs(cell) == KING and (cell > 0) != observation.side:
            return move
    return None


def attacked_by_seen_enemy(observation: Observation) -> set[int]:
    """The observer's squares that an enemy piece in sight could capture (unseen squares are
    taken as empty: only what is seen is counted)."""
    codes = [cell or 0 for cell in observation.cells]
    enemy = [sq for sq, cell in observation.seen_enemy().items()]
    return {move & 127 for move in unchecked_moves(codes, enemy, not observation.side)
            if codes[move & 127] and (codes[move & 127] > 0) == observation.side}


def capture_scores(observation: Observation, conservative: bool = False,
                   preservative: bool = False) -> dict[Move, float]:
    """Each capture the observer can make, scored by the value of what it takes (see the module
    docstring for the two options)."""
    attacked = attacked_by_seen_enemy(observation) if preservative else set()
    scores: dict[Move, float] = {}
    for move in observation.moves:
        target = observation.cells[move.to_square]
        if not target:
            continue
        gain = CAPTURE_VALUES[abs(target)]
        mover = observation.cells[move.from_square] or 0
        risk = CAPTURE_VALUES[abs(mover)]
        if conservative and gain < risk and abs(target) != KING:
            continue
        scores[move] = gain + (risk / 2 if move.from_square in attacked else 0)
    return scores


class GreedyFogAgent(FogAgent):
    """Takes the general when it can, else the most valuable capture, else a random move."""

    name = "fog-greedy"
    OPTIONS = (SEED, UciOption("Conservative", "check", default="false"),
               UciOption("Preservative", "check", default="false"))

    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        return greedy_move(observation, self.random.choice, bool(self.options["Conservative"]),
                           bool(self.options["Preservative"]))


def greedy_move(observation: Observation, choose: Callable[[list[Move]], Move], conservative: bool = False, preservative: bool = False,
                among: Optional[list[Move]] = None) -> Move:
    """Greedy's move (restricted to ``among`` when given); ``choose`` picks one of a list."""
    general = general_capture(observation)
    moves = list(observation.moves) if among is None else among
    if general is not None and general in moves:
        return general
    scores = {move: score for move, score in capture_scores(observation, conservative, preservative).items()
              if move in moves}
    if scores:
        best = max(scores.values())
        return choose([move for move, score in scores.items() if score == best])
    if conservative:  # the captures it refused are not played at random either
        quiet = [move for move in moves if not observation.cells[move.to_square]]
        return choose(quiet or moves)
    return choose(moves)
