"""The units of work of the labelled-positions pipeline, as plain values, and how one is done.

A task is picklable data (no open files, no engine), so the same function runs it in a local
process or as a Ray task; its result is numpy arrays. Two kinds:

- :class:`RecordTask`: master games already read from a record file (start FEN, moves, result);
  every position of each main line is labelled by the teacher. A game whose record has no result
  gets the teacher's verdict on its last position (:data:`DECISIVE_CP` or more for one side is
  that side's win, else a draw). Games chosen by :func:`is_held_out` go to the held-out set.
- :class:`TeacherGamesTask`: games the teacher plays against itself from the start position.
  Each game opens with a random number (0 to ``random_plies``) of uniformly random legal moves;
  then, for the first ``sample_plies`` plies, a move is drawn among the MultiPV moves scoring
  within ``sample_margin`` cp of the best (weights ``exp(−loss / sample_temperature)``); after
  that the best move is played. The search that chooses a move is the label of its position, so
  each position costs one search. A game ends by the course's rules (no legal move: a loss;
  120 plies without capture: a draw), at a third repetition (a draw), when both sides' scores
  have said the same side wins by :data:`RESIGN_CP` for :data:`RESIGN_PLIES` plies, or after
  ``max_plies`` (scored as a record's unfinished game).

Without a teacher (:data:`~xqdesk.engines.training.teacher.NO_TEACHER`) a record task costs no
search: each position keeps the move played and the game's result, with no score and no lines (a
record without a result then counts as drawn unless its end position is decided by the rules).
"""
from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.training.shards import MASTER, TEACHER_GAME, Labelled
from xqdesk.engines.training.teacher import Label, NoTeacher, Teacher
from xqdesk.move import Move
from xqdesk.pieces import RED

DECISIVE_CP = 250
"""A final score at least this good for one side makes an unfinished game that side's win."""
RESIGN_CP = 1200
RESIGN_PLIES = 4
REPETITIONS_FOR_DRAW = 3
TEACHER_GAME_BASE = 10_000_000
"""Teacher games are numbered from here, so their numbers never meet a master game's."""


@dataclass(frozen=True)
class LabelSettings:
    """How every position of a data set is labelled (stored in its manifest)."""

    teacher: str
    depth: int = 7
    multipv: int = 4

    def as_dict(self) -> dict[str, object]:
        return {"teacher": self.teacher, "depth": self.depth, "multipv": self.multipv}


@dataclass(frozen=True)
class RecordedGame:
    """A master game as plain values: start FEN, ICCS moves, Red's result (1, 0, −1) or None."""

    number: int
    start_fen: str
    moves: tuple[str, ...]
    red_result: Optional[int]
    held_out: bool


@dataclass(frozen=True)
class RecordTask:
    games: tuple[RecordedGame, ...]
    source: str

    @property
    def name(self) -> str:
        return f"record:{self.source}:{self.games[0].number}-{self.games[-1].number}"


@dataclass(frozen=True)
class TeacherGamesTask:
    first_game: int
    games: int
    seed: int
    random_plies: int = 6
    sample_plies: int = 24
    sample_margin: int = 60
    sample_temperature: float = 25.0
    max_plies: int = 300

    @property
    def name(self) -> str:
        return f"teacher-games:{self.first_game}-{self.first_game + self.games - 1}:seed{self.seed}"


Task = RecordTask | TeacherGamesTask


@dataclass
class TaskResult:
    name: str
    train: Labelled
    holdout: Labelled
    games: int


def is_held_out(moves: Sequence[str], every: int) -> bool:
    """Whether a master game (its ICCS moves) belongs to the held-out set: one game in ``every``,
    chosen by a checksum of its moves, so the choice does not depend on file order (0: none)."""
    return every > 0 and zlib.crc32(" ".join(moves).encode("ascii")) % every == 0


class _GameRows:
    """The rows of one game as they are labelled; its result is filled in at the end."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[tuple[np.ndarray, bool, Label, int, int, bool, int]] = []

    def add(self, board: Board, label: Label) -> None:
        codes = np.array([board.code_at(square) for square in range(90)], dtype=np.int8)
        self.rows.append((codes, board.turn == RED, label, board.zobrist_hash(), board.halfmove_clock,
                          board.is_check(), -1))

    def set_played(self, move: Move) -> None:
        codes, red, label, key, clock, check, _ = self.rows[-1]
        self.rows[-1] = (codes, red, label, key, clock, check, move.from_square * 90 + move.to_square)

    def labelled(self, red_result: int, source: int, game: int) -> Labelled:
        n, width = len(self.rows), self.width
        moves = np.full((n, width), -1, np.int16)
        move_scores = np.zeros((n, width), np.int16)
        for row, (_, _, label, _, _, _, _) in enumerate(self.rows):
            for column, (move, score) in enumerate(zip(label.moves[:width], label.move_scores[:width])):
                moves[row, column] = move.from_square * 90 + move.to_square
                move_scores[row, column] = score
        red = np.array([r[1] for r in self.rows], dtype=bool)
        return Labelled({
            "board": np.array([r[0] for r in self.rows], np.int8).reshape(n, 90),
            "red_to_move": red,
            "score": np.array([r[2].score for r in self.rows], np.int16),
            "result": np.where(red, red_result, -red_result).astype(np.int8),
            "moves": moves,
            "move_scores": move_scores,
            "played": np.array([r[6] for r in self.rows], np.int16),
            "key": np.array([r[3] for r in self.rows], np.uint64),
            "capture_free": np.array([r[4] for r in self.rows], np.int16),
            "in_check": np.array([r[5] for r in self.rows], bool),
            "source": np.full(n, source, np.int8),
            "game": np.full(n, game, np.int32),
        })


def _red_verdict(board: Board, label: Optional[Label]) -> int:
    """Red's result of a game stopped at ``board`` by its rules or, unfinished, by ``label``."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == RED else -1)
    if label is None or abs(label.score) < DECISIVE_CP:
        return 0
    mover_wins = label.score > 0
    return 1 if mover_wins == (board.turn == RED) else -1


def _label_legal(teacher: Teacher | NoTeacher, board: Board) -> Optional[Label]:
    """The teacher's label, its moves kept to those legal under the course's rules (the
    perpetual-check ban); searched again among the legal moves when none of its lines is. Without
    a teacher (:class:`NoTeacher`) the empty label."""
    label = teacher.label(board)
    if not teacher.searches:
        return label
    legal = set(board.legal_moves)
    if label is not None and label.moves and label.moves[0] in legal:
        return label
    label = teacher.label(board, searchmoves=sorted(legal, key=lambda m: (m.from_square, m.to_square)))
    if label is None or not label.moves or label.moves[0] not in legal:
        return None
    return label


def run_record_task(task: RecordTask, teacher: Teacher | NoTeacher) -> TaskResult:
    parts: list[Labelled] = []
    held: list[Labelled] = []
    for game in task.games:
        board = Board(game.start_fen)
        rows = _GameRows(teacher.multipv)
        teacher.new_game()
        label: Optional[Label] = None
        for text in game.moves:
            if board.outcome() is not None:
                break
            label = _label_legal(teacher, board)
            move = Move.from_iccs(text)
            if label is None or move not in board.legal_moves:
                break
            rows.add(board, label)
            rows.set_played(move)
            board.push(move)
        else:
            if board.outcome() is None:
                label = _label_legal(teacher, board)
                if label is not None:
                    rows.add(board, label)
        if not rows.rows:
            continue
        red_result = game.red_result if game.red_result is not None else _red_verdict(board, label)
        (held if game.held_out else parts).append(rows.labelled(red_result, MASTER, game.number))
    return TaskResult(task.name, Labelled.concatenate(parts, teacher.multipv),
                      Labelled.concatenate(held, teacher.multipv), len(task.games))


def _sampled_move(label: Label, rng: random.Random, margin: int, temperature: float) -> Move:
    candidates = [(move, label.score - score) for move, score in zip(label.moves, label.move_scores)
                  if label.score - score <= margin]
    weights = [math.exp(-loss / temperature) for _, loss in candidates]
    return rng.choices([move for move, _ in candidates], weights)[0]


def play_teacher_game(task: TeacherGamesTask, teacher: Teacher, rng: random.Random, number: int) -> Labelled:
    """One game of the teacher against itself (module docstring), every searched position labelled."""
    board = Board()
    rows = _GameRows(teacher.multipv)
    teacher.new_game()
    seen: dict[int, int] = {}
    label: Optional[Label] = None
    resign_streak = 0
    red_result: Optional[int] = None
    random_plies = rng.randint(0, task.random_plies)
    while board.outcome() is None and board.ply() < task.max_plies:
        key = board.zobrist_hash()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= REPETITIONS_FOR_DRAW:
            red_result = 0
            break
        legal = list(board.legal_moves)
        if board.ply() < random_plies:
            board.push(rng.choice(legal))
            continue
        label = _label_legal(teacher, board)
        if label is None:
            break
        rows.add(board, label)
        move = label.moves[0]
        if board.ply() < task.sample_plies:
            move = _sampled_move(label, rng, task.sample_margin, task.sample_temperature)
        rows.set_played(move)
        resign_streak = resign_streak + 1 if abs(label.score) >= RESIGN_CP else 0
        if resign_streak >= RESIGN_PLIES and _same_winner(rows, RESIGN_PLIES):
            red_result = _red_verdict(board, label)
            break
        board.push(move)
    if red_result is None:
        red_result = _red_verdict(board, label)
    return rows.labelled(red_result, TEACHER_GAME, number)


def _same_winner(rows: _GameRows, plies: int) -> bool:
    """Whether the last ``plies`` labels all say the same colour wins."""
    winners = {(red if label.score > 0 else not red) for _, red, label, *_ in rows.rows[-plies:]}
    return len(winners) == 1


def run_teacher_games_task(task: TeacherGamesTask, teacher: Teacher) -> TaskResult:
    rng = random.Random(task.seed * 1_000_003 + task.first_game)
    parts = [play_teacher_game(task, teacher, rng, task.first_game + i) for i in range(task.games)]
    return TaskResult(task.name, Labelled.concatenate(parts, teacher.multipv), Labelled.empty(teacher.multipv),
                      task.games)


def run_task(task: Task, teacher: Teacher | NoTeacher) -> TaskResult:
    """Do one task with an open teacher (a record task also without one: :class:`NoTeacher`)."""
    if isinstance(task, RecordTask):
        return run_record_task(task, teacher)
    if not isinstance(teacher, Teacher):
        raise ValueError("teacher games need a teacher that searches")
    return run_teacher_games_task(task, teacher)


__all__ = ["DECISIVE_CP", "LabelSettings", "RecordTask", "RecordedGame", "Task", "TaskResult", "TeacherGamesTask",
           "TEACHER_GAME_BASE", "is_held_out", "play_teacher_game", "run_task"]
