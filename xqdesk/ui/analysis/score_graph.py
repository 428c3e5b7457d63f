"""A graph of the engines' scores over the game, from Red's point of view.

One series per engine (at most two), one point per ply: the score of the position after that many
plies. Above the middle line Red stands better, below it Black. Scores are drawn on a squashed
scale (``tanh``) so that the early half-pawn swings stay visible beside a won endgame; mates sit at
the edges. Clicking the graph asks to go to the ply under the mouse (``ply_clicked``).

A game's review (:meth:`ScoreGraph.set_review`) is drawn as its own curve with a coloured mark on
each inaccuracy, mistake and blunder; a click on (or near) a mark goes to that move.
"""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from xqdesk.review import GameReview, MoveClass
from xqdesk.score import PovScore, Score
from xqdesk.ui.base.i18n import follow_language, tr

SCALE_PAWNS = 4.0
"""Pawns at which the squashed scale reaches 76 % of the way to the edge."""

MATE_PAWNS = 1000.0
"""About the value a mate stands for on the graph (the edge): mate in N is ``N`` centipawns less."""

SERIES_COLORS = (QColor(200, 30, 30), QColor(40, 90, 200))

GRID_PAWNS = (1.0, 3.0)
"""Scores (pawns, both signs) drawn as faint lines with their value, to read the curve by."""


def red_view_pawns(score: PovScore) -> float:
    """``score`` in pawns from Red's view (a mate near ±:data:`MATE_PAWNS`)."""
    return score_pawns(score.red())


def score_pawns(score: Score) -> float:
    """A score in pawns, from whichever view it is in (a mate near ±:data:`MATE_PAWNS`)."""
    return (score.score(mate_score=round(MATE_PAWNS * 100)) or 0) / 100.0


REVIEW_COLOR = QColor(60, 140, 70)
"""The review's curve (the engines' live scores keep SERIES_COLORS)."""

MARK_COLORS = {MoveClass.INACCURACY: QColor(230, 180, 30), MoveClass.MISTAKE: QColor(235, 120, 20),
               MoveClass.BLUNDER: QColor(200, 20, 20)}
"""The colour of each class's mark on the review curve."""

MARK_RADIUS = 4.0
MARK_HIT = 8.0
"""Pixels around a mark within which a click goes to its move."""


def squash(pawns: float) -> float:
    """A score in pawns mapped into (-1, 1) for drawing."""
    return math.tanh(pawns / SCALE_PAWNS)


GRAPH_MIN_HEIGHT = 72
"""Pixels below which the curve is too flat to read."""


class ScoreGraph(QWidget):
    """The scores of up to two series over the plies of a game, with the current ply marked."""

    ply_clicked = Signal(int)
    contents_changed = Signal()  # a score or the review came or went (not the current ply)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._series: list[dict[int, float]] = [{}, {}]
        self._review: dict[int, float] = {}
        self._marks: dict[int, MoveClass] = {}
        self._names: list[str] = []
        self._ply_count = 0
        self._current_ply: Optional[int] = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(GRAPH_MIN_HEIGHT)
        self.retranslate()
        follow_language(self, self.retranslate)

    def retranslate(self) -> None:
        self.setToolTip(tr("Score graph"))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(320, 100)

    # -- data ------------------------------------------------------------------------------------
    def set_score(self, ply: int, pawns: float, series: int = 0) -> None:
        """Record the score (pawns, Red's view) of the position after ``ply`` plies."""
        if ply < 0:
            raise ValueError(f"a ply is 0 or more, got {ply!r}")
        empty = not self.has_scores()
        self._series[series][ply] = pawns
        self._ply_count = max(self._ply_count, ply + 1)
        self.update()
        if empty:
            self.contents_changed.emit()

    def set_series_names(self, names: list[str]) -> None:
        """Name the series (first, second) for the legend; no names, no legend."""
        self._names = list(names[:len(self._series)])
        self.update()

    def series_names(self) -> list[str]:
        return list(self._names)

    def legend_rects(self) -> list[QRectF]:
        """Where each named series' legend entry is drawn (top left, one line each; below the
        "Red ahead" label when an entry would reach it)."""
        metrics = self.fontMetrics()
        plot = self._plot_rect()
        height = metrics.height()
        rects = [QRectF(plot.left() + 28, plot.top() + 2 + index * (height + 2),
                        metrics.horizontalAdvance(name) + 26, height)
                 for index, name in enumerate(self._names)]
        labels = self.direction_label_rects()
        if labels and any(rect.intersects(labels[0]) for rect in rects):
            rects = [rect.translated(0, labels[0].height() + 2) for rect in rects]
        return rects

    def direction_label_rects(self) -> list[QRectF]:
        """Where "Red ahead ↑" (top right) and "Black ahead ↓" (bottom right) are written; none
        when the graph is too short for them."""
        metrics = self.fontMetrics()
        plot = self._plot_rect()
        if plot.height() <= 3 * metrics.height():
            return []
        height = metrics.height()
        rects = []
        for text, top in ((tr("Red ahead ↑"), plot.top()), (tr("Black ahead ↓"), plot.bottom() - height)):
            width = metrics.horizontalAdvance(text) + 2
            rects.append(QRectF(plot.right() - 2 - width, top, width, height))
        return rects

    def set_ply_count(self, count: int) -> None:
        """The length of the game, so the x axis spans it (scores past it are forgotten)."""
        self._ply_count = max(count, 0)
        had_scores = self.has_scores()
        for values in self._series:
            for ply in [ply for ply in values if ply >= count]:
                del values[ply]
        self.update()
        if had_scores and not self.has_scores():
            self.contents_changed.emit()

    def set_current_ply(self, ply: Optional[int]) -> None:
        """Mark the ply on show (None: no mark)."""
        self._current_ply = ply
        self.update()

    def set_review(self, review: Optional[GameReview]) -> None:
        """Show a game's review (None: no review): its scores as a curve, each inaccuracy,
        mistake and blunder as a mark at the ply after the move."""
        self._review, self._marks = {}, {}
        if review is not None:
            self._review[0] = score_pawns(review.start.score)
            for move in review.moves:
                self._review[move.ply] = score_pawns(move.after)
                if move.move_class is not None and move.move_class.is_error:
                    self._marks[move.ply] = move.move_class
            self._ply_count = max(self._ply_count, len(review.moves) + 1)
        self.update()
        self.contents_changed.emit()

    def review_scores(self) -> dict[int, float]:
        """The review's scores (pawns, Red's view) by ply (a copy)."""
        return dict(self._review)

    def marks(self) -> dict[int, MoveClass]:
        """The marked plies and their classes (a copy)."""
        return dict(self._marks)

    def mark_position(self, ply: int) -> QPointF:
        """Where the mark of ``ply`` is drawn (widget coordinates)."""
        plot = self._plot_rect()
        return QPointF(self._x(ply, plot), self._y(self._review.get(ply, 0.0), plot))

    def mark_near(self, point: QPointF) -> Optional[int]:
        """The ply of the mark within :data:`MARK_HIT` pixels of ``point`` (the nearest), if any."""
        best: Optional[tuple[float, int]] = None
        for ply in self._marks:
            where = self.mark_position(ply)
            distance = math.hypot(where.x() - point.x(), where.y() - point.y())
            if distance <= MARK_HIT and (best is None or distance < best[0]):
                best = (distance, ply)
        return best[1] if best is not None else None

    def clear(self) -> None:
        """Forget every score (the review too)."""
        self._review, self._marks = {}, {}
        self._series = [{}, {}]
        self._ply_count = 0
        self._current_ply = None
        self.update()
        self.contents_changed.emit()

    def has_scores(self) -> bool:
        """Whether there is anything to draw: a score of either series, or a review."""
        return bool(self._review or self._series[0] or self._series[1])

    def scores(self, series: int = 0) -> dict[int, float]:
        """The recorded scores of ``series`` by ply (a copy)."""
        return dict(self._series[series])

    @property
    def ply_count(self) -> int:
        return self._ply_count

    # -- geometry and painting ---------------------------------------------------------------
    def _plot_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(4, 4, -4, -4)

    def _x(self, ply: int, plot: QRectF) -> float:
        span = max(self._ply_count - 1, 1)
        return plot.left() + plot.width() * ply / span

    def _y(self, pawns: float, plot: QRectF) -> float:
        return plot.center().y() - squash(pawns) * plot.height() / 2

    def ply_at(self, x: float) -> int:
        """The ply nearest to the widget's x coordinate ``x``."""
        plot = self._plot_rect()
        span = max(self._ply_count - 1, 1)
        ratio = (x - plot.left()) / max(plot.width(), 1.0)
        return min(max(round(ratio * span), 0), max(self._ply_count - 1, 0))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        plot = self._plot_rect()
        painter.fillRect(self.rect(), self.palette().base())
        middle = plot.center().y()
        painter.setPen(QPen(self.palette().mid().color(), 1))
        painter.drawLine(QPointF(plot.left(), middle), QPointF(plot.right(), middle))
        self._paint_scale(painter, plot)
        for index, values in enumerate(self._series):
            if not values:
                continue
            color = SERIES_COLORS[index]
            points = [QPointF(self._x(ply, plot), self._y(values[ply], plot)) for ply in sorted(values)]
            if index == 0:
                area = QPainterPath(QPointF(points[0].x(), middle))
                for point in points:
                    area.lineTo(point)
                area.lineTo(QPointF(points[-1].x(), middle))
                fill = QColor(color)
                fill.setAlpha(50)
                painter.fillPath(area, fill)
            painter.setPen(QPen(color, 2))
            if len(points) == 1:
                painter.drawEllipse(points[0], 2.0, 2.0)
            else:
                painter.drawPolyline(points)
        self._paint_review(painter, plot)
        if self._current_ply is not None and self._ply_count:
            x = self._x(self._current_ply, plot)
            painter.setPen(QPen(self.palette().text().color(), 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        self._paint_legend(painter)
        painter.end()

    def _paint_review(self, painter: QPainter, plot: QRectF) -> None:
        """The review's curve and its class marks."""
        if not self._review:
            return
        points = [QPointF(self._x(ply, plot), self._y(self._review[ply], plot)) for ply in sorted(self._review)]
        painter.setPen(QPen(REVIEW_COLOR, 2))
        if len(points) > 1:
            painter.drawPolyline(points)
        for ply, move_class in sorted(self._marks.items()):
            painter.setPen(QPen(self.palette().base().color(), 1))
            painter.setBrush(MARK_COLORS[move_class])
            painter.drawEllipse(self.mark_position(ply), MARK_RADIUS, MARK_RADIUS)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_legend(self, painter: QPainter) -> None:
        """Each named series: a short line in its colour and its name, on a light box."""
        for index, rect in enumerate(self.legend_rects()):
            box = QColor(self.palette().base().color())
            box.setAlpha(210)
            painter.fillRect(rect.adjusted(-2, 0, 2, 0), box)
            painter.setPen(QPen(SERIES_COLORS[index], 3))
            y = rect.center().y()
            painter.drawLine(QPointF(rect.left(), y), QPointF(rect.left() + 18, y))
            painter.setPen(self.palette().text().color())
            painter.drawText(rect.adjusted(24, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, self._names[index])

    def _paint_scale(self, painter: QPainter, plot: QRectF) -> None:
        """Faint lines at ±1 and ±3 pawns with their values, and which way is Red ahead."""
        faint = QColor(self.palette().mid().color())
        faint.setAlpha(90)
        label_color = self.palette().placeholderText().color()
        for pawns in GRID_PAWNS:
            for signed in (pawns, -pawns):
                y = self._y(signed, plot)
                painter.setPen(QPen(faint, 1, Qt.PenStyle.DotLine))
                painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
                painter.setPen(label_color)
                painter.drawText(QPointF(plot.left() + 2, y - 2), f"{signed:+.0f}")
        painter.setPen(label_color)
        for rect, text in zip(self.direction_label_rects(), (tr("Red ahead ↑"), tr("Black ahead ↓"))):
            painter.drawText(rect, Qt.AlignmentFlag.AlignRight, text)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton and self._ply_count:
            marked = self.mark_near(event.position())
            self.ply_clicked.emit(marked if marked is not None else self.ply_at(event.position().x()))
        super().mousePressEvent(event)
