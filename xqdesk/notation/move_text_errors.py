"""The errors raised when a move's text cannot be read in a position.

Every message carries the text as given (``!r``) and the position's FEN, so a failure in a long
game record can be found and reproduced.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from xqdesk.errors import AmbiguousMoveError, IllegalMoveError

if TYPE_CHECKING:
    from xqdesk.board import Board
    from xqdesk.move import Move


def unreadable_move(text: object, board: Board, reason: str) -> IllegalMoveError:
    """An :class:`IllegalMoveError` for ``text`` that names no legal move of ``board``."""
    return IllegalMoveError(f"cannot read move {text!r} in position {board.fen()!r}: {reason}")


def unwritable_move(move: Move, board: Board, reason: str) -> IllegalMoveError:
    """An :class:`IllegalMoveError` for a ``move`` that cannot be written in ``board``."""
    return IllegalMoveError(f"cannot write move {move.iccs()!r} in position {board.fen()!r}: {reason}")


def ambiguous_move(text: object, board: Board, moves: Iterable[Move]) -> AmbiguousMoveError:
    """An :class:`AmbiguousMoveError` for ``text`` that fits several legal ``moves``."""
    names = ", ".join(move.iccs() for move in moves)
    return AmbiguousMoveError(f"move {text!r} is ambiguous in position {board.fen()!r}: it fits {names}")
