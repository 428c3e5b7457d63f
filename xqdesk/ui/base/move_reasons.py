"""Why a move on the board is refused, in the interface language and the chosen notation.

The core board says why a move is refused as an :class:`~xqdesk.board.IllegalReason` value
(:meth:`Board.why_illegal`); this module translates the value and writes the move in the notation
the move list uses (a move the pieces cannot make at all is written in coordinates, since the
notation of a piece's move needs a piece that can make it).
"""
from __future__ import annotations

from xqdesk.board import Board, IllegalReason
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move
from xqdesk.ui.base.i18n import tr


def reason_text(reason: IllegalReason) -> str:
    """The board's ``reason`` in the interface language (LEGAL, which no refused move has: that
    the move is not legal here)."""
    if reason is IllegalReason.LEGAL:
        return tr("not a legal move here")
    return tr(reason.value)


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
    why = reason_text(board.why_illegal(move))
    return tr("Illegal move: {reason}").format(reason=f"{move_text(board, move, notation)}: {why}")
