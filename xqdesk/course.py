"""The AlphaChess course's utility functions (its ``utils.py``), built on the core.

A course ``Player`` whose folder has no ``utils.py`` of its own gets this module as ``utils``.
Boards are the course's tuple of 10 lists of 9 ints (``board[x][y]``), actions are
``(old_x, old_y, new_x, new_y)`` tuples and history entries are
``(old_x, old_y, new_x, new_y, captured)``.
"""
from __future__ import annotations

from typing import Sequence

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.pieces import RED, parse_color
from xqdesk.ruleset import COURSE

Action = tuple[int, int, int, int]
_HISTORY_THAT_MATTERS = max(COURSE.perpetual_check_min_history + 1, 2 * COURSE.perpetual_check_limit)
HistoryEntry = tuple[int, int, int, int, int]


def init_board() -> tuple[list[int], ...]:
    """The course's start position: a tuple of 10 fresh lists of 9 ints."""
    return Board(STARTING_FEN).to_course_board()


def get_legal_actions(board: Sequence[Sequence[int]], side: str, history: Sequence[Sequence[int]]) -> list[Action]:
    """Every legal action of ``side`` on ``board`` after ``history``, as the course referee judges:
    king safety (facing kings included) and the perpetual-check restriction.

    Returns a list of 4-tuples of ints. ``board`` and ``history`` are not modified. Only the
    last few history entries bear on the answer (the perpetual-check rule looks back five plies
    and needs more than six entries), so only those are replayed: a search can call this often.
    """
    position = Board.from_course(board, side, history[-_HISTORY_THAT_MATTERS:])
    return [move.to_course() for move in position.legal_moves]


def change_round(side: str) -> str:
    """The other side: ``"red"`` → ``"black"`` and back."""
    return "black" if parse_color(side) == RED else "red"


__all__ = ["init_board", "get_legal_actions", "change_round", "Action", "HistoryEntry"]
