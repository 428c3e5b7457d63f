"""Building a position index from the window, off the GUI thread, with progress and cancel.

:class:`IndexBuilder` runs :meth:`PositionIndex.add <xqdesk.position_index.PositionIndex.add>` in a
thread of its own (the index is opened there: SQLite connections stay in their thread). It says
``games_done(done, total)`` as the games of a file are indexed (at most every REPORT_INTERVAL_S),
``file_done(name, games)`` after each file and ``finished(BuildResult)`` at the end, or with
``error`` set when the index could not be opened; :meth:`cancel` stops it between files or within
a few games, keeping only whole files. The cyclic collector rests meanwhile (see
:func:`~xqdesk.ui.base.background.rest_collector`), and the thread pauses a moment every few games
so the window's thread gets the interpreter.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from xqdesk.errors import XqdeskError
from xqdesk.position_index import IndexReport, PositionIndex
from xqdesk.ui.base.background import REPORT_INTERVAL_S, ThreadedObject, rest_collector, wake_collector

GAMES_PER_PAUSE = 10
PAUSE_S = 0.002


@dataclass(frozen=True)
class BuildResult:
    """What a build did (``report``), or why it could not start (``error``)."""

    database: str
    report: IndexReport
    error: str = ""


class IndexBuilder(ThreadedObject):
    """One build of ``database`` from ``paths``; :meth:`start` it, :meth:`cancel` it, :meth:`wait` for it."""

    games_done = Signal(int, int)
    file_done = Signal(str, int)
    finished = Signal(object)  # BuildResult

    def __init__(self, database: str, paths: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__("index-builder", parent)
        self.database = database
        self.paths = tuple(paths)
        self._cancel = threading.Event()
        self._last_report = 0.0

    def cancel(self) -> None:
        self._cancel.set()

    def _game_done(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - self._last_report >= REPORT_INTERVAL_S:
            self._last_report = now
            self.games_done.emit(done, total)
        if done % GAMES_PER_PAUSE == 0:
            time.sleep(PAUSE_S)  # hand the interpreter to the window's thread for a moment

    def _run(self) -> None:
        rest_collector()
        try:
            with PositionIndex(self.database) as index:
                report = index.add(self.paths, progress=self.file_done.emit, cancelled=self._cancel.is_set,
                                   game_progress=self._game_done)
        except (XqdeskError, OSError) as error:
            self.finished.emit(BuildResult(self.database, IndexReport(), str(error)))
            return
        finally:
            wake_collector()
        self.finished.emit(BuildResult(self.database, report))
