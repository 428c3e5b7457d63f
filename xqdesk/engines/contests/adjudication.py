"""Draw and resign adjudication from the engines' own scores, as cutechess-cli's ``-draw`` and
``-resign`` do it.

After each move, the score the mover's engine reported for it (from its own view) is added:

- **draw** (``movenumber=N movecount=M score=S``): once at least N full moves have been played in
  the game, a draw is declared when the last M moves of each side (2·M plies in a row) were scored
  within S centipawns of zero; a capture starts the count again;
- **resign** (``movecount=M score=S [twosided=true]``): a side whose own score was S centipawns
  or more below zero for M of its moves in a row loses; with ``twosided`` only when its opponent's
  score was at least S above zero for its last M moves too.

A move without a score (an engine that reports none, a course player) resets the counts, as a
book move does in cutechess. Mate scores count as very large scores.

- **tablebase** (cutechess-cli's ``-tb``): once a move reaches a position that a table in the
  directory covers, the table's verdict ends the game (a win for the side it wins for, else a
  draw). The tables (``xqdesk egtb build``) are xqdesk's own; they judge by mate only, so a
  table's win that the course's sixty-round rule would turn into a draw is still adjudicated a win.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from xqdesk.board import Board
from xqdesk.egtb import MissingTableError, Tablebase
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color, color_name
from xqdesk.score import PovScore

MATE_CENTIPAWNS = 100_000
"""The centipawn value of a mate score (far beyond any threshold)."""


@dataclass(frozen=True)
class DrawRule:
    """cutechess-cli's ``-draw movenumber=N movecount=M score=S``."""

    move_number: int
    move_count: int
    score: int

    def __post_init__(self) -> None:
        if self.move_number < 0 or self.move_count < 1 or self.score < 0:
            raise ValueError(f"draw adjudication needs movenumber >= 0, movecount >= 1 and score >= 0, got "
                             f"movenumber={self.move_number}, movecount={self.move_count}, score={self.score}")


@dataclass(frozen=True)
class ResignRule:
    """cutechess-cli's ``-resign movecount=M score=S [twosided=true]``."""

    move_count: int
    score: int
    two_sided: bool = False

    def __post_init__(self) -> None:
        if self.move_count < 1 or self.score < 0:
            raise ValueError(f"resign adjudication needs movecount >= 1 and score >= 0, got "
                             f"movecount={self.move_count}, score={self.score}")


@dataclass(frozen=True)
class AdjudicationRules:
    """The adjudication a match applies (any rule may be absent); ``tablebase`` the directory of
    the endgame tables that end a game they cover (a path, so the rules cross to a worker)."""

    draw: Optional[DrawRule] = None
    resign: Optional[ResignRule] = None
    tablebase: Optional[str] = None

    def __bool__(self) -> bool:
        return self.draw is not None or self.resign is not None or self.tablebase is not None


_TABLEBASES: dict[str, Tablebase] = {}
_TABLEBASES_GUARD = threading.Lock()


def open_tablebase(directory: str) -> Tablebase:
    """The tables of ``directory``, opened once per process (each table is read on first use and
    shared by every game; :class:`~xqdesk.egtb.Tablebase` is thread-safe)."""
    with _TABLEBASES_GUARD:
        tablebase = _TABLEBASES.get(directory)
        if tablebase is None:
            tablebase = _TABLEBASES[directory] = Tablebase(Path(directory))
        return tablebase


def tablebase_verdict(tablebase: Tablebase, board: Board) -> Optional[Outcome]:
    """The adjudicated outcome of ``board`` by the tables (None when no table covers it, or the
    game is over there by the rules)."""
    if board.outcome() is not None or not tablebase.covers(board):
        return None
    try:
        value = tablebase.probe(board)
    except (MissingTableError, ValueError):
        return None
    if value.is_draw:
        return Outcome.adjudicated(None, "the endgame tablebase says draw")
    winner: Color = board.turn if value.is_win else (not board.turn)
    return Outcome.adjudicated(winner, f"the endgame tablebase says {color_name(winner)} mates in "
                                       f"{value.dtm} plies")


class Adjudicator:
    """The counts of one game; feed it every move with :meth:`observe`."""

    def __init__(self, rules: AdjudicationRules) -> None:
        self.rules = rules
        self._tablebase = open_tablebase(rules.tablebase) if rules.tablebase is not None else None
        self._draw_count = 0
        self._losing = {RED: 0, BLACK: 0}
        self._winning = {RED: 0, BLACK: 0}

    def observe(self, board: Board, score: Optional[PovScore]) -> Optional[Outcome]:
        """The board after a move, and the mover's score for it (None: it gave none); the
        adjudicated outcome when the game is decided now, else None."""
        mover: Color = not board.turn
        if self._tablebase is not None:
            verdict = tablebase_verdict(self._tablebase, board)
            if verdict is not None:
                return verdict
        if score is None:
            self._draw_count = 0
            self._losing[mover] = self._winning[mover] = 0
            return None
        centipawns = score.pov(mover).score(mate_score=MATE_CENTIPAWNS) or 0  # never None given a mate_score
        return self._draw(board, centipawns) or self._resign(mover, centipawns)

    def _draw(self, board: Board, centipawns: int) -> Optional[Outcome]:
        rule = self.rules.draw
        if rule is None:
            return None
        captured = board.ply() > 0 and board.captured_piece() != 0
        self._draw_count = 0 if captured or abs(centipawns) > rule.score else self._draw_count + 1
        if board.ply() // 2 >= rule.move_number and self._draw_count >= 2 * rule.move_count:
            return Outcome.adjudicated(None, f"both engines scored within {rule.score} cp of 0 "
                                             f"for {rule.move_count} moves each")
        return None

    def _resign(self, mover: Color, centipawns: int) -> Optional[Outcome]:
        rule = self.rules.resign
        if rule is None:
            return None
        self._losing[mover] = self._losing[mover] + 1 if centipawns <= -rule.score else 0
        self._winning[mover] = self._winning[mover] + 1 if centipawns >= rule.score else 0
        if self._losing[mover] >= rule.move_count and (
                not rule.two_sided or self._winning[not mover] >= rule.move_count):
            side = color_name(mover).capitalize()
            return Outcome.adjudicated(not mover, f"{side} scored {rule.score} cp or more below 0 "
                                                  f"for {rule.move_count} moves")
        return None


__all__ = ["AdjudicationRules", "Adjudicator", "DrawRule", "ResignRule", "MATE_CENTIPAWNS", "open_tablebase",
           "tablebase_verdict"]
