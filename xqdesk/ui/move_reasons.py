"""Why a move on the board is refused, in the interface language and the chosen notation.

The core board explains an illegal move in fixed English phrases (:meth:`Board.why_illegal`); this
module translates them and writes the move in the notation the move list uses (a move the pieces
cannot make at all is written in coordinates, since the notation of a piece's move needs a piece
that can make it).
"""
from __future__ import annotations

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move
from xqdesk.ui.i18n import tr


def reason_text(why: str) -> str:
    """The board's English reason ``why`` in the interface language (unknown ones as they are)."""
    reasons = {
        "no piece on the from-square": tr("no piece on the from-square"),
        "that piece belongs to the side not to move": tr("that piece belongs to the side not to move"),
        "the target square holds a piece of the same side": tr("the target square holds a piece of the same side"),
        "the piece cannot move that way": tr("the piece cannot move that way"),
        "the piece has given check three times running (perpetual check)":
            tr("the piece has given check three times running (perpetual check)"),
        "it would leave the king in check or facing the other king":
            tr("it would leave the king in check or facing the other king"),
        "not a legal move here": tr("not a legal move here"),
    }
    return reasons.get(why, why)


def move_text(board: Board, move: Move, notation: Notation) -> str:
    """``move`` in ``notation`` where the piece on its from-square could make it, else in ICCS."""
    if notation is Notation.ICCS or not board.code_at(move.from_square):
        return move.iccs()
    try:
        mover = board.copy()
        if (board.code_at(move.from_square) > 0) != mover.turn:
            return move.iccs()
        return format_move(mover, move, notation)
    except Exception:  # noqa: BLE001 - a shape the notation cannot write: coordinates say it
        return move.iccs()


def illegal_move_reason(board: Board, move: Move, notation: Notation = Notation.ICCS) -> str:
    """The status-bar text refusing ``move`` on ``board``: the move in ``notation`` and why."""
    why = reason_text(board.why_illegal(move) or "not a legal move here")
    return tr("Illegal move: {reason}").format(reason=f"{move_text(board, move, notation)}: {why}")
