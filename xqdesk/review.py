"""Whole-game review: per-move scores, classes (best, good, ?!, ?, ??), accuracy, and how a review
is stored in a game record.

**Win probability.** A score from one side's view becomes that side's expected result with one
logistic curve, ``W(cp) = 1 / (1 + exp(-K·cp))``, ``K = 0.00368208`` (the curve lichess fits to
its games), centipawns clamped to ±1000. A mate for the side is 1, a mate against it 0.

**Class of a move.** The loss of the side that moved is ``W(before) − W(after)``, both from its view
(``before``: the engine's score of the position it moved in; ``after``: of the position it left).
Its engine's best move (or a loss under 0.01) is *best*; a loss of at least 0.15 is a *blunder* ??,
at least 0.10 a *mistake* ?, at least 0.05 an *inaccuracy* ?!; anything else is *good*.

**Accuracy** (lichess's move accuracy): ``103.1668·exp(−0.04354·(100·loss)) − 3.1669``, clamped to
0–100, per move; a side's accuracy is the mean of the arithmetic and the harmonic means of its
moves' accuracies (the harmonic mean weighs the bad moves more).

**In a record** (PGN comments and NAGs that other readers show as text or skip):

- ``[%eval S,D]`` in the comment after a move (before the first move: in the game's comment) is
  the engine's score of the position there from **Red's** view, ``S`` in pawns (``0.35``,
  ``-2.10``) or a mate ``#N`` (``#3``: Red mates in 3, ``#-2``: Red is mated in 2, ``#+0``/``#-0``:
  Black/Red is mated now), searched to depth ``D``.
- ``[%best M]`` after a move is the engine's best move (ICCS) in the position the move was played in.
- NAG ``$6`` (?!), ``$2`` (?) or ``$4`` (??) marks an inaccuracy, mistake or blunder; such a move
  also gets the engine's best line as a variation.
- The ``Annotator`` tag names the engine and its limits.

Reading back, a move's class is its NAG when it has one of these, else *best* when it is its
``[%best]`` move or lost under 0.01, else *good*; a move with no ``[%best]`` was not reviewed (its side was not asked for).
"""
from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from xqdesk.board import Board
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.score import MATE_GIVEN, Cp, Mate, Score

WIN_CURVE_K = 0.00368208
"""Slope of the win-probability curve per centipawn."""
CP_CLAMP = 1000
"""Centipawn scores are clamped to ± this before the curve."""
BEST_LOSS = 0.01
INACCURACY_LOSS = 0.05
MISTAKE_LOSS = 0.10
BLUNDER_LOSS = 0.15
ANNOTATOR_PREFIX = "xqdesk review"
"""The ``Annotator`` tag of a reviewed game starts so."""


class MoveClass(enum.Enum):
    """How good a move was; ``symbol`` is its PGN suffix, ``nag`` its NAG (0: none)."""

    BEST = ("best", "", 0)
    GOOD = ("good", "", 0)
    INACCURACY = ("inaccuracy", "?!", 6)
    MISTAKE = ("mistake", "?", 2)
    BLUNDER = ("blunder", "??", 4)

    def __init__(self, label: str, symbol: str, nag: int) -> None:
        self.label = label
        self.symbol = symbol
        self.nag = nag

    @property
    def is_error(self) -> bool:
        """An inaccuracy, mistake or blunder."""
        return self.nag != 0


REVIEW_NAGS = {cls.nag: cls for cls in MoveClass if cls.nag}


def win_probability(score: Score) -> float:
    """The expected result (0–1) of the side whose view ``score`` is in (see the module docstring)."""
    mate = score.mate()
    if mate is not None:
        return 1.0 if (mate > 0 or score == MATE_GIVEN) else 0.0
    cp = max(-CP_CLAMP, min(CP_CLAMP, score.score() or 0))
    return 1.0 / (1.0 + math.exp(-WIN_CURVE_K * cp))


def classify(loss: float, played_best: bool) -> MoveClass:
    """The class of a move that lost ``loss`` of expected result (see the module docstring)."""
    if played_best or loss < BEST_LOSS:
        return MoveClass.BEST
    if loss >= BLUNDER_LOSS:
        return MoveClass.BLUNDER
    if loss >= MISTAKE_LOSS:
        return MoveClass.MISTAKE
    if loss >= INACCURACY_LOSS:
        return MoveClass.INACCURACY
    return MoveClass.GOOD


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy (0–100) of a move that lost ``loss`` (0–1) of expected result."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss) * 100.0) - 3.1669
    return max(0.0, min(100.0, value))


def side_accuracy(accuracies: Sequence[float]) -> Optional[float]:
    """The mean of the arithmetic and harmonic means of move accuracies (None for no moves)."""
    if not accuracies:
        return None
    arithmetic = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(value, 1.0) for value in accuracies)
    return (arithmetic + harmonic) / 2.0


@dataclass(frozen=True)
class PositionEval:
    """The engine's verdict on one position: ``score`` from **Red's** view, the depth reached, its
    best move and line (empty when the game is over there)."""

    score: Score
    depth: int = 0
    best_line: tuple[Move, ...] = ()

    @property
    def best_move(self) -> Optional[Move]:
        return self.best_line[0] if self.best_line else None


@dataclass(frozen=True)
class MoveReview:
    """One reviewed move of the main line (``ply`` 1 is the first move)."""

    ply: int
    move: Move
    color: Color
    before: Score
    """The score of the position the move was played in, from Red's view."""
    after: Score
    """The score of the position after it, from Red's view."""
    depth: int
    best_line: tuple[Move, ...]
    move_class: Optional[MoveClass]
    """None when this side was not reviewed."""

    @property
    def best_move(self) -> Optional[Move]:
        return self.best_line[0] if self.best_line else None

    @property
    def loss(self) -> float:
        """Expected result the mover lost by this move (0–1; negative: it gained)."""
        sign = 1 if self.color == RED else -1
        before = self.before if sign > 0 else -self.before
        after = self.after if sign > 0 else -self.after
        return win_probability(before) - win_probability(after)

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.loss)


@dataclass(frozen=True)
class SideSummary:
    """A side's accuracy (None without reviewed moves) and how many moves of each class."""

    accuracy: Optional[float]
    counts: dict[MoveClass, int] = field(default_factory=dict)

    def count(self, move_class: MoveClass) -> int:
        return self.counts.get(move_class, 0)


@dataclass(frozen=True)
class GameReview:
    """The review of a game's main line: the start position's verdict and every move's."""

    start: PositionEval
    moves: tuple[MoveReview, ...]
    end_depth: int = 0
    """The depth the position after the last move was searched to."""

    def summary(self, color: Color) -> SideSummary:
        mine = [move for move in self.moves if move.color == color and move.move_class is not None]
        counts: dict[MoveClass, int] = {}
        for move in mine:
            assert move.move_class is not None
            counts[move.move_class] = counts.get(move.move_class, 0) + 1
        return SideSummary(side_accuracy([move.accuracy for move in mine]), counts)

    def errors(self) -> list[MoveReview]:
        """The inaccuracies, mistakes and blunders, in game order."""
        return [move for move in self.moves if move.move_class is not None and move.move_class.is_error]


def build_review(game: Game, evals: Sequence[PositionEval], sides: Sequence[Color] = (RED, BLACK)) -> GameReview:
    """The review of ``game``'s main line from the verdicts on its positions: ``evals[i]`` is the
    position before move ``i + 1`` (so one more than there are moves). Only moves of ``sides`` are
    classed."""
    moves = game.mainline_moves()
    if len(evals) != len(moves) + 1:
        raise ValueError(f"a review of {len(moves)} moves needs {len(moves) + 1} position verdicts, got {len(evals)}")
    board = game.start_board()
    reviewed = []
    for ply, move in enumerate(moves, start=1):
        color = board.turn
        before, after = evals[ply - 1], evals[ply]
        review = MoveReview(ply, move, color, before.score, after.score, before.depth, before.best_line, None)
        if color in sides:
            review = _with_class(review, classify(review.loss, move == before.best_move))
        reviewed.append(review)
        board.push(move)
    return GameReview(evals[0], tuple(reviewed), evals[-1].depth)


def _with_class(review: MoveReview, move_class: Optional[MoveClass]) -> MoveReview:
    return MoveReview(review.ply, review.move, review.color, review.before, review.after, review.depth,
                      review.best_line, move_class)


# --- the record form --------------------------------------------------------------------------------
_EVAL = re.compile(r"\[%eval\s+(?P<score>#[+-]?\d+|[+-]?\d+(?:\.\d+)?)(?:\s*,\s*(?P<depth>\d+))?\s*\]")
_BEST = re.compile(r"\[%best\s+(?P<move>[a-i]\d[a-i]\d)\s*\]")
_REVIEW_COMMANDS = re.compile(r"\s*\[%(?:eval|best)\s[^\]]*\]")
_COMMANDS = re.compile(r"\s*\[%(?:eval|best|cal|csl)\s[^\]]*\]")
"""Every machine command a person does not edit as words: the review's and the board drawings'
(:mod:`xqdesk.drawings`)."""


def format_eval(score: Score, depth: int) -> str:
    """``[%eval 0.35,12]`` for a score from Red's view (see the module docstring)."""
    mate = score.mate()
    if mate is not None:
        text = "#+0" if score == MATE_GIVEN else f"#{mate}" if mate != 0 else "#-0"
    else:
        text = f"{(score.score() or 0) / 100:.2f}"
    return f"[%eval {text},{depth}]"


def parse_eval(comment: str) -> Optional[tuple[Score, int]]:
    """The score (Red's view) and depth of the first ``[%eval …]`` in ``comment``, if any."""
    found = _EVAL.search(comment)
    if found is None:
        return None
    text = found.group("score")
    depth = int(found.group("depth") or 0)
    if text.startswith("#"):
        if text == "#+0":
            return MATE_GIVEN, depth
        return Mate(int(text[1:])), depth
    return Cp(round(float(text) * 100)), depth


def parse_best(comment: str) -> Optional[Move]:
    """The move of a ``[%best …]`` command in ``comment``, if any."""
    found = _BEST.search(comment)
    return Move.from_iccs(found.group("move")) if found else None


def strip_commands(comment: str) -> str:
    """``comment`` without its ``[%eval]`` and ``[%best]`` commands and its drawings (``[%cal]``,
    ``[%csl]``): the words a person reads."""
    return _COMMANDS.sub("", comment).strip()


def with_text(comment: str, text: str) -> str:
    """``comment`` with its words replaced by ``text``, its ``[%eval]`` and ``[%best]`` commands
    and its drawings kept as they were (what a person edits is the words; the review's commands stay intact)."""
    commands = " ".join(match.group(0).strip() for match in _COMMANDS.finditer(comment))
    return f"{commands} {text.strip()}".strip() if commands else text


def _with_commands(comment: str, commands: str) -> str:
    """``comment`` with its review commands replaced by ``commands`` (its drawings and words kept)."""
    rest = _REVIEW_COMMANDS.sub("", comment).strip()
    return f"{commands} {rest}".strip() if rest else commands


def is_reviewed(game: Game) -> bool:
    """Whether ``game`` carries a review written by :func:`write_review`."""
    return game.headers.get("Annotator", "").startswith(ANNOTATOR_PREFIX)


def write_review(game: Game, review: GameReview, annotator: str = "") -> None:
    """Store ``review`` in ``game`` (its main line): comment commands, NAGs, the best line of each
    inaccuracy, mistake and blunder as a variation, the ``Annotator`` tag. A previous review's
    commands and class NAGs are replaced."""
    nodes = game.mainline()
    if len(nodes) != len(review.moves):
        raise ValueError(f"the review has {len(review.moves)} moves, the game {len(nodes)}")
    game.comment = _with_commands(game.comment, format_eval(review.start.score, review.start.depth))
    board = game.start_board()
    for node, move in zip(nodes, review.moves):
        if node.move != move.move:
            raise ValueError(f"move {move.ply}: the review has {move.move.iccs()}, the game {node.move.iccs()}")
        commands = format_eval(move.after, _depth_after(review, move.ply))
        if move.move_class is not None and move.best_move is not None:
            commands += f" [%best {move.best_move.iccs()}]"
        node.comment = _with_commands(node.comment, commands)
        node.nags -= set(REVIEW_NAGS)
        if move.move_class is not None and move.move_class.is_error:
            node.nags.add(move.move_class.nag)
            _add_line(node.parent, board, move.best_line, move.before, move.depth)
        board.push(move.move)
    game.headers["Annotator"] = f"{ANNOTATOR_PREFIX} ({annotator})" if annotator else ANNOTATOR_PREFIX


def _depth_after(review: GameReview, ply: int) -> int:
    return review.moves[ply].depth if ply < len(review.moves) else review.end_depth


def _add_line(parent: GameNode, board: Board, line: Sequence[Move], score: Score, depth: int) -> None:
    """Add the legal prefix of ``line`` from ``board`` as a variation of ``parent`` (unless one
    with its first move is recorded already); its first move carries the score."""
    if not line or parent.variation(line[0]) is not None:
        return
    walk = board.copy()
    node: GameNode = parent
    for index, move in enumerate(line):
        if not walk.is_legal(move):
            break
        node = node.add_variation(move, comment=format_eval(score, depth) if index == 0 else "")
        walk.push(move)


def read_review(game: Game) -> Optional[GameReview]:
    """The review stored in ``game`` (see the module docstring), None when its start or any main
    line move has no ``[%eval]``."""
    start = parse_eval(game.comment)
    if start is None:
        return None
    nodes: list[ChildNode] = game.mainline()
    evals = [PositionEval(start[0], start[1])]
    for node in nodes:
        found = parse_eval(node.comment)
        if found is None:
            return None
        evals.append(PositionEval(found[0], found[1]))
    board = game.start_board()
    moves = []
    for ply, node in enumerate(nodes, start=1):
        best = parse_best(node.comment)
        before, after = evals[ply - 1], evals[ply]
        line = _line_of(node, best)
        review = MoveReview(ply, node.move, board.turn, before.score, after.score, before.depth, line, None)
        if best is not None:
            marked = [REVIEW_NAGS[nag] for nag in sorted(node.nags) if nag in REVIEW_NAGS]
            unmarked = MoveClass.BEST if node.move == best or review.loss < BEST_LOSS else MoveClass.GOOD
            review = _with_class(review, marked[0] if marked else unmarked)
        moves.append(review)
        board.push(node.move)
    return GameReview(evals[0], tuple(moves), evals[-1].depth)


def _line_of(node: ChildNode, best: Optional[Move]) -> tuple[Move, ...]:
    """The best line recorded as a variation beside ``node`` (or just ``best``)."""
    if best is None:
        return ()
    alternative = node.parent.variation(best)
    if alternative is None or alternative is node:
        return (best,)
    return (best,) + tuple(alternative.mainline_moves())


__all__ = ["MoveClass", "PositionEval", "MoveReview", "SideSummary", "GameReview", "win_probability", "classify",
           "move_accuracy", "side_accuracy", "build_review", "write_review", "read_review", "is_reviewed",
           "format_eval", "parse_eval", "parse_best", "strip_commands"]
