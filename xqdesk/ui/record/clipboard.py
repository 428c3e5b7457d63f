"""The game and the clipboard: the position as FEN, the moves of the line on show as numbered
text, and both pasted back (a FEN starts an analysis; moves in any notation are played)."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication

from xqdesk.board import Board
from xqdesk.errors import XqdeskError
from xqdesk.notation import parse_line
from xqdesk.pieces import BLACK
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.reasons import tr_reason
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.record.move_list import MoveList


def move_tokens(text: str) -> list[str]:
    """The moves of a pasted move list (any notation): its words less move numbers and ellipses."""
    return [token for token in text.replace("\n", " ").split()
            if not token.rstrip(".").isdigit() and token not in ("…", "...")]


class GameClipboard(QObject):
    """Copies and pastes ``controller``'s game (moves written as ``move_list`` shows them);
    ``status(str)`` reports; ``confirm_discard()`` says whether a pasted position may replace the
    game on show."""

    status = Signal(str)

    def __init__(self, controller: GameController, move_list: MoveList, parent: QObject | None = None,
                 confirm_discard: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        self._confirm_discard = confirm_discard
        self._controller = controller
        self._move_list = move_list

    def copy_fen(self) -> None:
        QGuiApplication.clipboard().setText(self._controller.board().fen())
        self.status.emit(tr("Copy FEN"))

    def paste_fen(self) -> bool:
        """*Edit → Paste FEN*: analyse the clipboard's position; moves after it (``<FEN> moves
        h2e2 h9g7``, any notation) are played. A bad FEN or move is said and changes nothing;
        unsaved changes are saved or given up first. Whether the position was taken."""
        fen, _moves_word, moves_text = QGuiApplication.clipboard().text().strip().partition(" moves ")
        try:
            board = Board(fen.strip())
        except XqdeskError as error:
            self.status.emit(tr("Invalid FEN: {reason}").format(reason=tr_reason(str(error))))
            return False
        try:
            moves = parse_line(board, move_tokens(moves_text))
        except XqdeskError as error:
            self.status.emit(tr("Illegal move: {reason}").format(reason=tr_reason(str(error))))
            return False
        if not self._confirm_discard():
            return False
        self._controller.new_game(Mode.ANALYSIS, start_fen=board.fen())
        for move in moves:
            self._controller.play_move(move)
        return True

    def copy_moves(self) -> None:
        board = self._controller.game().start_board()
        lines: list[str] = []
        number = board.fullmove_number
        slot = 1 if board.turn == BLACK else 0
        for text in self._move_list.move_texts():
            if slot % 2 == 0:
                lines.append(f"{number}. {text}")
            else:
                lines[-1:] = [f"{lines[-1]} {text}" if lines else f"{number}. … {text}"]
                number += 1
            slot += 1
        QGuiApplication.clipboard().setText("\n".join(lines))
        self.status.emit(tr("Copy moves"))

    def paste_moves(self) -> None:
        """Play the clipboard's moves (any notation, move numbers allowed) from the viewed position
        in analysis mode."""
        controller = self._controller
        try:
            moves = parse_line(controller.board(), move_tokens(QGuiApplication.clipboard().text()))
        except XqdeskError as error:
            self.status.emit(tr("Illegal move: {reason}").format(reason=error))
            return
        if controller.mode() is not Mode.ANALYSIS:
            controller.set_mode(Mode.ANALYSIS)
        for move in moves:
            controller.play_move(move)
