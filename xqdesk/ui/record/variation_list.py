"""The variations pane: the moves the record has from the viewed position (the line's next move
and the first move of each variation), to step into one; and the way back to the line a viewed
variation branches from. Hidden when there is nothing to choose and no way back."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from xqdesk.notation import Notation, format_move
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.game.game_controller import GameController

VISIBLE_ROWS = 4
"""Rows the list shows before it scrolls."""


class _AlternativeList(QListWidget):
    """The list of alternatives: a click or Enter on a row chooses it (once per click, whatever
    the style's activation rule)."""

    row_chosen = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.itemClicked.connect(lambda item: self.row_chosen.emit(self.row(item)))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentRow() >= 0:
            self.row_chosen.emit(self.currentRow())
            event.accept()
            return
        super().keyPressEvent(event)


class VariationList(QWidget):
    """Lists the recorded alternatives for the next move; clicking one plays it along its line."""

    chosen = Signal(int)  # index into the controller's alternatives()

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._notation = Notation.CHINESE
        self.title = QLabel()
        self.back_button = QPushButton()
        self.back_button.clicked.connect(controller.leave_variation)
        self.list = _AlternativeList()
        self.list.row_chosen.connect(self._choose)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.back_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.list)
        controller.position_changed.connect(self.refresh)
        controller.game_changed.connect(self.refresh)
        follow_language(self, self.refresh)
        self.refresh()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        self.refresh()

    def texts(self) -> list[str]:
        """The rows as shown (for tests)."""
        return [self.list.item(row).text() for row in range(self.list.count())]

    def refresh(self) -> None:
        """Show the alternatives at the controller's viewed position."""
        controller = self._controller
        board = controller.board()
        moves = controller.alternatives()
        depth = controller.variation_depth()
        self.title.setText(tr("Variations") if depth == 0 else
                           tr("Variation (depth {depth})").format(depth=depth))
        self.back_button.setText(tr("Back to main line") if depth == 1 else tr("Back to the parent line"))
        self.back_button.setVisible(depth > 0)
        self.list.clear()
        if len(moves) > 1:
            for index, move in enumerate(moves):
                text = format_move(board, move, self._notation)
                label = tr("{move} (this line)").format(move=text) if index == 0 else text
                self.list.addItem(f"{index + 1}. {label}")
        rows = min(max(len(moves), 1), VISIBLE_ROWS)  # as tall as its rows: the move list keeps the room
        self.list.setFixedHeight(self.list.sizeHintForRow(0) * rows + 2 * self.list.frameWidth() + 4
                                 if self.list.count() else 0)
        self.list.setVisible(len(moves) > 1)
        wanted = len(moves) > 1 or depth > 0
        self.setVisible(wanted and self.parentWidget() is not None)  # never a window of its own

    def _choose(self, row: int) -> None:
        if 0 <= row < len(self._controller.alternatives()):
            self._controller.choose_alternative(row)
            self.chosen.emit(row)
