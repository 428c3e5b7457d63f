"""The window's clocks: a per-move countdown for the side to move and optional game clocks.

The course gives every move 10 seconds; a side whose countdown (or game clock, when set) runs out
has lost — the game controller turns :attr:`GameClock.expired` into ``Outcome.timeout``. Time is
read from a monotonic source that tests may replace; a ``QTimer`` only refreshes the display and
notices expiry, it is never the measure of time itself.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ui.i18n import language_notifier, tr

TICK_MS = 100


@dataclass(frozen=True)
class ClockReading:
    """What the clock shows for one side: seconds left for this move and in the game (None: no limit)."""

    color: Color
    move_left: float | None
    game_left: float | None
    running: bool


def format_seconds(seconds: float | None) -> str:
    """``'9.4'`` under a minute, ``'12:05'`` above it, ``'–'`` for no limit."""
    if seconds is None:
        return "–"
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.1f}"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


class GameClock(QObject):
    """Counts down the side to move; emits ``ticked`` ~10 times a second and ``expired`` once."""

    ticked = Signal(object)  # ClockReading of the running side
    expired = Signal(bool)  # the colour whose time ran out

    def __init__(self, move_limit: float | None = 10.0, game_limit: float | None = None,
                 now: Callable[[], float] = time.monotonic, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self._move_limit = move_limit
        self._game_limit = game_limit
        self._game_left: dict[Color, float | None] = {RED: game_limit, BLACK: game_limit}
        self._running: Color | None = None
        self._started_at = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def set_limits(self, move_limit: float | None, game_limit: float | None = None) -> None:
        """New limits (None: unlimited); resets the game clocks and stops the clock."""
        self.stop()
        self._move_limit, self._game_limit = move_limit, game_limit
        self._game_left = {RED: game_limit, BLACK: game_limit}

    @property
    def move_limit(self) -> float | None:
        return self._move_limit

    def has_limit(self) -> bool:
        return self._move_limit is not None or self._game_limit is not None

    def running_color(self) -> Color | None:
        return self._running

    def start(self, color: Color) -> None:
        """Start ``color``'s countdown for a new move (stopping the other side's)."""
        self.stop()
        if not self.has_limit():
            return
        self._running = color
        self._started_at = self._now()
        self._timer.start()
        self.ticked.emit(self.reading(color))

    def stop(self) -> float:
        """Stop the running side, charge its game clock, and return the seconds it used (0 if idle)."""
        if self._running is None:
            return 0.0
        used = self._now() - self._started_at
        left = self._game_left[self._running]
        color = self._running
        if left is not None:
            self._game_left[color] = left - used
        self._running = None
        self._timer.stop()
        self.ticked.emit(self.reading(color))
        return used

    def reading(self, color: Color) -> ClockReading:
        """What the clock shows for ``color`` now."""
        used = self._now() - self._started_at if self._running == color else 0.0
        move_left = None if self._move_limit is None else self._move_limit - used
        game_left = self._game_left[color]
        if game_left is not None:
            game_left -= used
        return ClockReading(color, move_left, game_left, self._running == color)

    def _tick(self) -> None:
        color = self._running
        if color is None:
            return
        reading = self.reading(color)
        self.ticked.emit(reading)
        out_of_move_time = reading.move_left is not None and reading.move_left <= 0
        out_of_game_time = reading.game_left is not None and reading.game_left <= 0
        if out_of_move_time or out_of_game_time:
            self.stop()
            self.expired.emit(color)


class ClockDisplay(QWidget):
    """Red's and Black's clock side by side; the running one is highlighted."""

    def __init__(self, clock: GameClock, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._labels = {RED: QLabel(), BLACK: QLabel()}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for color in (RED, BLACK):
            label = self._labels[color]
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setMinimumWidth(110)
            layout.addWidget(label)
        clock.ticked.connect(self._show)
        language_notifier().language_changed.connect(self.refresh)
        self.refresh()

    def refresh(self, _language: str = "") -> None:
        """Show both sides as they stand now."""
        for color in (RED, BLACK):
            self._show(self._clock.reading(color), refresh_other=False)

    def text(self, color: Color) -> str:
        return self._labels[color].text()

    def _show(self, reading: ClockReading, refresh_other: bool = True) -> None:
        side = tr("Red") if reading.color == RED else tr("Black")
        parts = [format_seconds(reading.move_left if reading.running else self._clock.move_limit)]
        if reading.game_left is not None:
            parts.append(format_seconds(reading.game_left))
        label = self._labels[reading.color]
        label.setText(f"{side}  {' / '.join(parts)}")
        ink = "#c0251b" if reading.color == RED else "#1c1c1c"
        weight = "bold" if reading.running else "normal"
        background = "#ffe9a8" if reading.running else "transparent"
        label.setStyleSheet(f"color: {ink}; font-weight: {weight}; background: {background}; "
                            "border-radius: 4px; padding: 3px; font-size: 15px;")
        if refresh_other:
            other = BLACK if reading.color == RED else RED
            self._show(self._clock.reading(other), refresh_other=False)
