"""The tablebase pane: when the board on show is covered by the endgame tables of the chosen
directory, it says who wins and in how many plies ("Red wins, mate in 23") and lists every move
with its value, best first.

It takes room only when it has something to say: for an endgame about the size of the tables it
has, one line names the table it would need; in a middlegame (more pieces than any table of the
directory holds) the pane is not shown at all, leaving the room to the move list.

Probing reads a table file the first time a material balance is shown (the small tables take
milliseconds) and is then a few lookups, so it runs on the GUI thread.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from xqdesk.board import Board
from xqdesk.egtb import MissingTableError, Tablebase, TableValue
from xqdesk.egtb.fileformat import TableFileError
from xqdesk.egtb.generate import LONG_MATE_PLIES
from xqdesk.notation import Notation, format_move
from xqdesk.pieces import RED
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.engines.engine_preparation import prepare_in_view

MOVES_SHOWN = 8
"""How many of the best moves the pane lists."""


def verdict_text(value: TableValue, turn: bool) -> str:
    """``Red wins, mate in 23`` / ``Black wins, mate in 12`` (plies) / ``Draw``, translated."""
    if value.dtm is None:
        return tr("Draw")
    winner_red = (turn == RED) == value.is_win
    text = (tr("Red wins, mate in {plies}") if winner_red else tr("Black wins, mate in {plies}")).format(plies=value.dtm)
    if value.dtm >= LONG_MATE_PLIES:
        text += " " + tr("(the 120-ply rule may draw it first)")
    return text


def move_value_text(value: TableValue) -> str:
    """A move's value for the side that plays it: mates in N, is mated in N, or draws."""
    if value.dtm is None:
        return tr("draw")
    return (tr("mates in {plies}") if value.is_win else tr("is mated in {plies}")).format(plies=value.dtm)


class TablebasePane(QWidget):
    """A verdict line and the best moves of the position on show (hidden without a directory)."""

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.title_label = QLabel()
        self.verdict_label = QLabel()
        self.verdict_label.setWordWrap(True)
        self.moves_list = QListWidget()
        self.moves_list.setMaximumHeight(140)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title_label)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.moves_list)
        self._tablebase: Optional[Tablebase] = None
        self._board: Optional[Board] = None
        self._notation = Notation.CHINESE
        self._problem = ""
        self._largest = 0  # pieces besides the generals in the directory's biggest table
        self._preparing = False  # the solver's compiled code is being prepared in the status bar
        self.retranslate()
        follow_language(self, self.retranslate)
        self.setVisible(False)

    def retranslate(self) -> None:
        self.title_label.setText(f"<b>{tr('Tablebase')}</b>")
        self._show()

    def set_directory(self, path: str) -> None:
        """Use the tables in ``path`` (empty: none, and the pane hides)."""
        self._tablebase = None
        self._problem = ""
        self._largest = 0
        if path:
            try:
                self._tablebase = Tablebase(Path(path).expanduser())
                self._largest = max((len(name) - 2 for name in self._tablebase.signatures()), default=0)
            except FileNotFoundError:
                self._problem = tr("No such tablebase directory: {path}").format(path=path)
        self._show()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        self._show()

    def show_board(self, board: Board) -> None:
        """Show what the tables say about ``board`` (a copy is kept)."""
        self._board = board.copy()
        self._show()

    def verdict(self) -> str:
        return self.verdict_label.text()

    def move_texts(self) -> list[str]:
        return [self.moves_list.item(row).text() for row in range(self.moves_list.count())]

    def _code_ready(self) -> None:
        self._preparing = False
        self._show()

    def _say(self, text: str) -> None:
        """Show ``text`` as the verdict ('' : nothing to say, the pane hides) and the moves listed."""
        self.verdict_label.setText(text)
        self.moves_list.setVisible(self.moves_list.count() > 0)
        self.setVisible(bool(text) and self.parentWidget() is not None)

    def _show(self) -> None:
        self.moves_list.clear()
        board = self._board
        if self._tablebase is None or board is None:
            self._say(self._problem)
            return
        material = Tablebase.signature_of(board)
        signature = material.canonical()[0].name()
        if not self._tablebase.covers(board):
            too_big = len(material.red) + len(material.black) > self._largest
            self._say("" if too_big else tr("Not in the tablebase (needs {signature})").format(signature=signature))
            return
        if self._preparing or prepare_in_view("egtb", self._code_ready):
            self._preparing = True  # the first probe after an install would compile here, freezing the window
            self._say(tr("Preparing the tablebase solver…"))
            return
        try:
            value = self._tablebase.probe(board)
            moves = self._tablebase.best_moves(board)
        except MissingTableError as error:
            self._say(tr("Not in the tablebase (needs {signature})").format(signature=error.signature))
            return
        except (TableFileError, ValueError) as error:
            self._say(tr("Tablebase error: {reason}").format(reason=error))
            return
        for move, move_value in moves[:MOVES_SHOWN]:
            self.moves_list.addItem(f"{format_move(board, move, self._notation)}  {move_value_text(move_value)}")
        self._say(verdict_text(value, board.turn))
