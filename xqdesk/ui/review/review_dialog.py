"""*Game → Review game…*: choose the engine, the time or depth per move and whose moves to review;
and the progress bar (with its Cancel button) the window shows while a review runs."""
from __future__ import annotations

import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from xqdesk.engines.analysis.reviewer import review_limits
from xqdesk.engines.search_types import SearchLimits
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.base.settings import EngineProfile
from xqdesk.ui.game.seat_dialogs import engine_box

DEFAULT_MOVETIME = 0.5
DEFAULT_DEPTH = 8
PROGRESS_INTERVAL = 0.25
"""Seconds between two redraws of the progress bar (QProgressBar repaints at once on each value)."""


class ReviewDialog(QDialog):
    """The review's settings; read them with :meth:`engine`, :meth:`limits`, :meth:`sides`."""

    def __init__(self, engines: tuple[EngineProfile, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Review game…"))
        self.engine_box = engine_box(engines)
        self.by_time = QRadioButton(tr("Seconds per move"))
        self.by_depth = QRadioButton(tr("Depth per move"))
        self.by_time.setChecked(True)
        self.movetime_box = QDoubleSpinBox()
        self.movetime_box.setRange(0.05, 600.0)
        self.movetime_box.setDecimals(2)
        self.movetime_box.setValue(DEFAULT_MOVETIME)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, 99)
        self.depth_box.setValue(DEFAULT_DEPTH)
        self.by_time.toggled.connect(self._follow_choice)
        self._follow_choice()
        self.sides_box = QComboBox()
        self.sides_box.addItem(tr("Both sides"), (RED, BLACK))
        self.sides_box.addItem(tr("Red"), (RED,))
        self.sides_box.addItem(tr("Black"), (BLACK,))
        form = QFormLayout()
        form.addRow(tr("Engine"), self.engine_box)
        form.addRow(self.by_time, self.movetime_box)
        form.addRow(self.by_depth, self.depth_box)
        form.addRow(tr("Review"), self.sides_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def _follow_choice(self) -> None:
        self.movetime_box.setEnabled(self.by_time.isChecked())
        self.depth_box.setEnabled(not self.by_time.isChecked())

    def engine(self) -> EngineProfile:
        return self.engine_box.currentData()

    def limits(self) -> SearchLimits:
        if self.by_time.isChecked():
            return review_limits(movetime=self.movetime_box.value())
        return review_limits(depth=self.depth_box.value())

    def sides(self) -> tuple[Color, ...]:
        return self.sides_box.currentData()


class ReviewProgress(QWidget):
    """A progress bar and a Cancel button for the status bar while a review runs."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(220)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancel_requested)
        self._pending = (0, 0)
        self._shown_at = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._apply)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self.retranslate()
        follow_language(self, self.retranslate)

    def retranslate(self) -> None:
        self.bar.setFormat(tr("Reviewing: %v / %m positions"))
        self.cancel_button.setText(tr("Cancel review"))

    def set_progress(self, done: int, total: int) -> None:
        """Show ``done`` of ``total``: at once when the bar has not moved for a while or the work is
        done, else at the next :data:`PROGRESS_INTERVAL` (so a fast review never floods the window
        with redraws)."""
        self._pending = (done, total)
        wait = PROGRESS_INTERVAL - (time.monotonic() - self._shown_at)
        if wait <= 0 or done >= total:
            self._timer.stop()
            self._apply()
        elif not self._timer.isActive():
            self._timer.start(int(wait * 1000))

    def _apply(self) -> None:
        done, total = self._pending
        self._shown_at = time.monotonic()
        self.bar.setMaximum(total)
        self.bar.setValue(done)

    def value(self) -> tuple[int, int]:
        """The progress last given (shown now or soon)."""
        return self._pending
