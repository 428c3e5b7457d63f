"""The evaluation bar beside the board: Red's share of the expected result, from the newest engine
score of the position on show (or the review's score there), as a red and a dark part of a
vertical bar, with the score written at the leading side's end.

The bar lies in the board picture's left margin (:meth:`EvalBar.attach`), beside the ranks, so it
moves and scales with the board. Red's part grows from Red's side of the board (the bottom unless
the board is flipped). The share
is the review's win probability of the score (:func:`xqdesk.review.win_probability`), so the bar
and the review's accuracy speak the same language; with no score the bar shows an even split,
greyed, without text.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from xqdesk.review import win_probability
from xqdesk.score import MateGiven, Score
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.board.board_view import BoardView

BAR_WIDTH = 22
MARGIN_SHARE = 0.42
"""At most this share of a cell wide: the left margin of the board picture is free for 0.55 cell."""
RED_PART = QColor(200, 40, 30)
BLACK_PART = QColor(45, 45, 48)
UNKNOWN_PART = QColor(150, 150, 150)
TEXT_ON_RED = QColor(255, 255, 255)


def score_label(score: Score) -> str:
    """A short text of a score from Red's view: ``+1.3``, ``-0.4``, ``#5``, ``#-2``."""
    mate = score.mate()
    if mate is not None or isinstance(score, MateGiven):
        return "#" if mate is None else f"#{mate}"
    pawns = (score.score() or 0) / 100
    return f"{pawns:+.1f}" if abs(pawns) < 10 else f"{pawns:+.0f}"


class EvalBar(QWidget):
    """A narrow vertical bar; :meth:`show_score` sets what it shows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._score: Score | None = None
        self._flipped = False
        self._board: BoardView | None = None
        self.setFixedWidth(BAR_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self._describe()

    def attach(self, board_view: BoardView) -> None:
        """Lie in ``board_view``'s left margin, from the top rank to the bottom one, following its size."""
        self._board = board_view
        self.setParent(board_view)
        board_view.installEventFilter(self)
        self._place()
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self._board and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._place()
        return False

    def _place(self) -> None:
        board = self._board
        if board is None:
            return
        geometry = board.geometry_model()
        cell, origin = geometry.cell, geometry.origin
        width = max(4, min(BAR_WIDTH, int(cell * MARGIN_SHARE)))
        self.setFixedSize(width, max(10, int(cell * 9)))
        self.move(int(origin.x() - cell + cell * 0.06), int(origin.y()))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(BAR_WIDTH, 300)

    def score(self) -> Score | None:
        """The score on show (Red's view), None when there is none."""
        return self._score

    def red_share(self) -> float:
        """Red's part of the bar, 0..1 (½ without a score)."""
        return 0.5 if self._score is None else win_probability(self._score)

    def text(self) -> str:
        """The score as written on the bar ('' without one)."""
        return "" if self._score is None else score_label(self._score)

    def show_score(self, score: Score | None) -> None:
        """Show ``score`` (from Red's view; None: no score known for the position on show)."""
        if score != self._score:
            self._score = score
            self._describe()
            self.update()

    def set_flipped(self, flipped: bool) -> None:
        """Whether the board is flipped (Red at the top): Red's part then grows from the top."""
        if flipped != self._flipped:
            self._flipped = flipped
            self.update()

    def _describe(self) -> None:
        self.setToolTip(tr("Evaluation: {score} from Red's view").format(score=self.text()) if self._score is not None
                        else tr("Evaluation: no engine score for this position"))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        width, height = float(self.width()), float(self.height())
        if self._score is None:
            painter.fillRect(QRectF(0, 0, width, height), UNKNOWN_PART)
            painter.setPen(QColor(235, 235, 235))
            painter.drawLine(0, int(height / 2), int(width), int(height / 2))
            painter.end()
            return
        red_height = height * self.red_share()
        red_rect = QRectF(0, 0 if self._flipped else height - red_height, width, red_height)
        black_rect = QRectF(0, red_height if self._flipped else 0, width, height - red_height)
        painter.fillRect(black_rect, BLACK_PART)
        painter.fillRect(red_rect, RED_PART)
        font = QFont(self.font())
        font.setPixelSize(max(8, int(width * 0.42)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(TEXT_ON_RED)
        red_leads = self.red_share() >= 0.5
        text_height = font.pixelSize() + 4
        at_top = (self._flipped and red_leads) or (not self._flipped and not red_leads)
        rect = QRectF(0, 2, width, text_height) if at_top else QRectF(0, height - text_height - 2, width,
                                                                            text_height)
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), self.text())
        painter.end()
