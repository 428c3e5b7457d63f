"""Teacher positions for the ``zero`` network: games played around the built-in alpha-beta engine,
every position labelled by a short search of that engine (no torch needed).

Master games rarely leave a piece hanging, so a network that learns only from them never sees what a
free piece is worth. These games do: each side of a game is one of

- ``teacher``: the built-in engine's best move from the labelling search, replaced by a uniformly
  random legal move with probability ``epsilon``;
- ``greedy``: the most valuable capture it has (victim values as the ``greedy`` engine's), else a
  random move;
- ``random``: a uniformly random legal move;

drawn per game with the probabilities of :attr:`TeacherConfig.movers`, and every game starts with a
random number (0 to ``opening_plies``) of uniformly random plies. So the positions include hanging
pieces, material imbalances and mating attacks against a careless defence.

**Labels.** Every position met (whoever moves next) is searched by the built-in engine with a
budget of ``nodes`` nodes (the course rules with the capture-free draw; the perpetual-check ban is
left out of these games):

- policy target = the search's best move;
- value target = ``(1 - score_weight) · result + score_weight · tanh(score / SCALE_CP)`` from the
  mover's view, where ``result`` is the game's end (±1, 0) and a mate score counts as ±1.

A game ends when the side to move has no legal move (it has lost), at the capture-free draw, at a
repetition (a draw), or after ``max_plies`` plies: then the last search score decides as in
:mod:`xqdesk.engines.zero.dataset` (at least ``DECISIVE_CP`` for a side is its win, else a draw).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from xqdesk.engines.builtin.position import Position
from xqdesk.engines.mcts.playout import SCALE_CP, repeated
from xqdesk.engines.zero.dataset import DECISIVE_CP, Positions
from xqdesk.engines.zero.encoding import POLICY_INDEX, ROTATED_POLICY_INDEX, mover_codes
from xqdesk.fen import STARTING_FEN, parse_fen
from xqdesk.ruleset import COURSE

MOVER_KINDS = ("teacher", "greedy", "random")
VICTIM_VALUES = np.array([0, 1, 2, 2, 4, 5, 9, 100], dtype=np.int64)
"""By piece type (index 1..7: pawn .. king): what the greedy mover thinks a capture is worth."""


@dataclass(frozen=True)
class TeacherConfig:
    """How the teacher games are played and labelled (module docstring)."""

    games: int = 100
    nodes: int = 3000
    opening_plies: int = 8
    epsilon: float = 0.1
    movers: tuple[float, float, float] = (0.5, 0.25, 0.25)
    """Probabilities of a side being ``teacher``, ``greedy``, ``random``."""
    max_plies: int = 300
    score_weight: float = 0.7
    seed: int = 0
    first_game_number: int = 0

    def __post_init__(self) -> None:
        if self.games < 0 or self.nodes < 1 or self.opening_plies < 0 or self.max_plies < 1:
            raise ValueError(f"teacher games: games, nodes, opening plies and max plies must be positive: {self}")
        if not 0.0 <= self.epsilon <= 1.0 or not 0.0 <= self.score_weight <= 1.0:
            raise ValueError(f"teacher games: epsilon and score weight must lie in [0, 1]: {self}")
        if len(self.movers) != len(MOVER_KINDS) or min(self.movers) < 0 or sum(self.movers) <= 0:
            raise ValueError(f"teacher games: movers needs {len(MOVER_KINDS)} non-negative weights, got {self.movers}")


class Teacher:
    """The built-in engine's search on a kernel position: (best move, score for the mover in cp,
    or ±1 as a proven mate)."""

    def __init__(self, nodes: int) -> None:
        from xqdesk.engines.builtin.searcher import Searcher

        self.nodes = nodes
        self.searcher = Searcher(16)

    def search(self, position: Position, moves: list[int]) -> tuple[int, float]:
        """(best kernel move, value in [-1, 1] for the side to move)."""
        last = None
        for lines in self.searcher.iterate(position, moves, node_limit=self.nodes,
                                           capture_free_draw_plies=COURSE.capture_free_draw_plies):
            last = lines[0]
        if last is None or not last.pv:
            return moves[0], 0.0
        mate = last.mate_in
        value = (1.0 if mate > 0 else -1.0) if mate is not None else float(np.tanh(last.score / SCALE_CP))
        return int(last.pv[0]), value


def _greedy_move(position: Position, moves: list[int], rng: np.random.Generator) -> int:
    victims = np.array([VICTIM_VALUES[abs(int(position.board[move & 127]))] for move in moves])
    best = np.flatnonzero(victims == victims.max())
    return moves[int(rng.choice(best))] if victims.max() > 0 else moves[int(rng.integers(len(moves)))]


def _start_position() -> Position:
    fields = parse_fen(STARTING_FEN)
    return Position(fields.codes, fields.turn)


def play_teacher_game(teacher: Teacher, config: TeacherConfig, rng: np.random.Generator,
                      number: int) -> tuple[Positions, float, tuple[str, str]]:
    """One game (module docstring): (its labelled positions, Red's result, the two movers)."""
    weights = np.array(config.movers, dtype=np.float64) / sum(config.movers)
    kinds = (MOVER_KINDS[int(rng.choice(3, p=weights))], MOVER_KINDS[int(rng.choice(3, p=weights))])
    position = _start_position()
    opening = int(rng.integers(config.opening_plies + 1))
    codes: list[np.ndarray] = []
    policy: list[int] = []
    score: list[float] = []
    red_side: list[bool] = []
    red_result = 0.0
    last_red_value = 0.0
    for ply in range(config.max_plies + 1):
        red = position.red_to_move
        moves = position.legal_moves()
        if not moves:
            red_result = -1.0 if red else 1.0
            break
        height = position.height
        if position.capture_free_plies >= COURSE.capture_free_draw_plies \
                or repeated(position.keys, position.clocks, height):
            break
        best, value = teacher.search(position, moves)
        last_red_value = value if red else -value
        if ply == config.max_plies:
            cp = SCALE_CP * np.arctanh(np.clip(last_red_value, -0.999, 0.999))
            red_result = 1.0 if cp >= DECISIVE_CP else -1.0 if cp <= -DECISIVE_CP else 0.0
            break
        codes.append(mover_codes(position.board, red))
        policy.append(int((POLICY_INDEX if red else ROTATED_POLICY_INDEX)[(best >> 7) * 90 + (best & 127)]))
        score.append(value)
        red_side.append(red)
        kind = kinds[0 if red else 1]
        if ply < opening or kind == "random" or (kind == "teacher" and rng.random() < config.epsilon):
            move = moves[int(rng.integers(len(moves)))]
        elif kind == "greedy":
            move = _greedy_move(position, moves, rng)
        else:
            move = best
        position.push(move)
    n = len(policy)
    result = np.array([red_result if red else -red_result for red in red_side], np.float32)
    target = (1 - config.score_weight) * result + config.score_weight * np.array(score, np.float32)
    positions = Positions(np.array(codes, np.int8).reshape(n, 90), np.array(policy, np.int64),
                          target.astype(np.float32), np.full(n, number, np.int64))
    return positions, red_result, kinds


def teacher_positions(config: TeacherConfig, report: Optional[Callable[[str], None]] = None) -> Positions:
    """The labelled positions of ``config.games`` teacher games, numbered from ``first_game_number``."""
    rng = np.random.default_rng(config.seed)
    teacher = Teacher(config.nodes)
    parts = []
    for game in range(config.games):
        number = config.first_game_number + game
        part, result, kinds = play_teacher_game(teacher, config, rng, number)
        parts.append(part)
        if report is not None:
            report(f"game {game + 1}/{config.games}: {kinds[0]} vs {kinds[1]}, {len(part)} positions, "
                   f"result {result:+.0f}")
    return Positions.concatenate(parts)

