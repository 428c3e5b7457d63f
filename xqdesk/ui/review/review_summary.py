"""The review summary: after a whole-game review (or when a reviewed record is opened), each side's
accuracy and how many inaccuracies (?!), mistakes (?) and blunders (??) it made, in a small grid
above the move list; a click on a side's count steps to that side's first move of that class.
Hidden when the game on show has no review.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QWidget

from xqdesk.pieces import BLACK, RED, Color
from xqdesk.review import GameReview, MoveClass
from xqdesk.ui.base.i18n import follow_language, tr

CLASSES = (MoveClass.INACCURACY, MoveClass.MISTAKE, MoveClass.BLUNDER)
CLASS_COLORS = {MoveClass.INACCURACY: "#c9a400", MoveClass.MISTAKE: "#e07800", MoveClass.BLUNDER: "#d0201b"}
"""The marks' colours of the score graph."""


class ReviewSummary(QWidget):
    """Accuracy and counts per side; ``ply_chosen(ply)`` when a count is clicked (the ply after
    that side's first move of the class)."""

    ply_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._review: GameReview | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold;")
        grid.addWidget(self.title, 0, 0)
        self.accuracy_title = QLabel()
        grid.addWidget(self.accuracy_title, 0, 1)
        self.class_titles: dict[MoveClass, QLabel] = {}
        for column, move_class in enumerate(CLASSES, start=2):
            label = QLabel()
            label.setStyleSheet(f"color: {CLASS_COLORS[move_class]}; font-weight: bold;")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.class_titles[move_class] = label
            grid.addWidget(label, 0, column)
        self.side_labels: dict[Color, QLabel] = {}
        self.accuracy_labels: dict[Color, QLabel] = {}
        self.count_buttons: dict[tuple[Color, MoveClass], QPushButton] = {}
        for row, color in enumerate((RED, BLACK), start=1):
            self.side_labels[color] = QLabel()
            grid.addWidget(self.side_labels[color], row, 0)
            self.accuracy_labels[color] = QLabel()
            grid.addWidget(self.accuracy_labels[color], row, 1)
            for column, move_class in enumerate(CLASSES, start=2):
                button = QPushButton()
                button.setFlat(True)
                button.clicked.connect(lambda _checked=False, c=color, k=move_class: self._step_to(c, k))
                self.count_buttons[(color, move_class)] = button
                grid.addWidget(button, row, column)
        follow_language(self, self.retranslate)
        self.retranslate()
        self.setVisible(False)

    def review(self) -> GameReview | None:
        return self._review

    def set_review(self, review: GameReview | None) -> None:
        """Show ``review``'s summary (None: hide the pane)."""
        self._review = review
        self.retranslate()
        self.setVisible(review is not None and self.parentWidget() is not None)

    def retranslate(self) -> None:
        self.title.setText(tr("Review"))
        self.accuracy_title.setText(tr("Accuracy"))
        names = {MoveClass.INACCURACY: tr("Inaccuracies"), MoveClass.MISTAKE: tr("Mistakes"),
                 MoveClass.BLUNDER: tr("Blunders")}
        for move_class, label in self.class_titles.items():
            label.setText(f"{move_class.symbol} {names[move_class]}")
        review = self._review
        for color in (RED, BLACK):
            self.side_labels[color].setText(tr("Red") if color == RED else tr("Black"))
            summary = review.summary(color) if review is not None else None
            accuracy = summary.accuracy if summary is not None else None
            self.accuracy_labels[color].setText("–" if accuracy is None else f"{accuracy:.0f}%")
            for move_class in CLASSES:
                count = summary.count(move_class) if summary is not None else 0
                button = self.count_buttons[(color, move_class)]
                button.setText(str(count))
                button.setEnabled(count > 0)

    def accuracy_text(self, color: Color) -> str:
        return self.accuracy_labels[color].text()

    def count_text(self, color: Color, move_class: MoveClass) -> str:
        return self.count_buttons[(color, move_class)].text()

    def _step_to(self, color: Color, move_class: MoveClass) -> None:
        if self._review is None:
            return
        for move in self._review.moves:
            if move.color == color and move.move_class is move_class:
                self.ply_chosen.emit(move.ply)
                return
