"""The window's clocks: a view of the game runner's clocks, refreshed about ten times a second.

The time controls, the charging of time and the verdict that a side has run out are the
:class:`~xqdesk.engines.play.game_runner.GameRunner`'s; :class:`GameClock` only shows them and, on each
tick, asks the runner whether the side to move has overstepped (``expired`` carries the runner's
timeout outcome). Time is read from a monotonic source that tests may replace; the ``QTimer`` only
paces the display and the question, it is never the measure of time itself.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from xqdesk.engines.play.game_runner import GameRunner
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ui.base.i18n import language_notifier, side_word, tr

TICK_MS = 100


@dataclass(frozen=True)
class ClockReading:
    """What the clock shows for one side: seconds left for this move (a per-move limit or a
    byo-yomi period) and of its game time (None: no such limit), whether it is running, and
    whether the side is in byo-yomi (读秒: its game time spent, ``move_left`` the period left)."""

    color: Color
    move_left: float | None
    game_left: float | None
    running: bool
    in_byoyomi: bool = False


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
    """Shows a runner's clocks: ``ticked`` ~10 times a second while a side thinks, ``expired``
    (the runner's timeout Outcome) once when the side to move runs out."""

    ticked = Signal(object)  # ClockReading of the running side
    expired = Signal(object)  # Outcome: the runner's timeout verdict

    def __init__(self, now: Callable[[], float] = time.monotonic, parent: QObject | None = None,
                 grace: Callable[[Color], float] = lambda _color: 0.0) -> None:
        super().__init__(parent)
        self.now = now
        self.grace = grace
        """Seconds past its allowance a side may run before a tick judges it out of time (an
        engine seat is judged by its own thread first; a person gets none)."""
        self._runner: GameRunner | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def follow(self, runner: GameRunner | None) -> None:
        """Show ``runner``'s clocks from now on (None: no live game, nothing runs)."""
        self._timer.stop()
        self._runner = runner
        self._emit_both()

    def running_color(self) -> Color | None:
        turn = self._runner.turn if self._runner is not None else None
        return turn.color if turn is not None else None

    def is_live(self) -> bool:
        """Whether a game's clocks are shown (a live game, or one that just ended)."""
        return self._runner is not None

    def has_limit(self, color: Color) -> bool:
        return self._runner is not None and not self._runner.clocks[color].control.is_unlimited

    def refresh(self) -> None:
        """Show the runner's clocks as they stand; tick while a side is thinking."""
        if self.running_color() is not None:
            self._timer.start()
        else:
            self._timer.stop()
        self._emit_both()

    def reading(self, color: Color) -> ClockReading:
        """What the clock shows for ``color`` now."""
        runner = self._runner
        if runner is None:
            return ClockReading(color, None, None, False)
        now = self.now()
        clock = runner.clocks[color]
        control = clock.control
        game_left = clock.main_time_left(now)
        # in byo-yomi from the moment the game time runs out, in the middle of a move too: the
        # period counts down then, and the spent game time is not shown
        in_period = control.byoyomi is not None and game_left is not None and game_left <= 0
        move_left = clock.time_left(now) if control.move_time is not None or in_period else None
        if in_period:
            game_left = None
        outcome = runner.outcome
        if outcome is not None and outcome.termination is Termination.TIMEOUT and outcome.winner is not None \
                and outcome.winner != color:  # the side that ran out shows it, not a fresh allowance
            move_left = 0.0 if move_left is not None else None
            game_left = 0.0 if game_left is not None and move_left is None else game_left
        return ClockReading(color, move_left, game_left, clock.running and outcome is None, in_period)

    def _emit_both(self) -> None:
        for color in (RED, BLACK):
            self.ticked.emit(self.reading(color))

    def _tick(self) -> None:
        color = self.running_color()
        if color is None or self._runner is None:
            self._timer.stop()
            return
        self.ticked.emit(self.reading(color))
        outcome = self._runner.check_time(self.now() - self.grace(color))
        if outcome is not None:
            self._timer.stop()
            self._emit_both()
            self.expired.emit(outcome)


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
        side = side_word(reading.color)
        parts = [format_seconds(seconds) for seconds in (reading.game_left, reading.move_left) if seconds is not None]
        if reading.in_byoyomi:
            parts = [f"{tr('byo-yomi')} {format_seconds(reading.move_left)}"]
        if not parts:  # an untimed side in a game says so; outside a game there is no clock to show
            parts = [tr("no clock") if self._clock.is_live() else format_seconds(None)]
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
