"""Playing a record through: a step forward at a steady pace until the end of the line on view."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


class Autoplay(QObject):
    """Calls ``step`` every interval while running; ``step`` returns False at the end, which
    stops it."""

    def __init__(self, step: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._step = step
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)

    def start(self, interval: float) -> None:
        """Step every ``interval`` seconds (at least a millisecond)."""
        self._timer.start(max(1, int(interval * 1000)))

    def stop(self) -> None:
        self._timer.stop()

    def is_running(self) -> bool:
        return self._timer.isActive()

    def _tick(self) -> None:
        if not self._step():
            self._timer.stop()
