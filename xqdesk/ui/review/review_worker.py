"""A whole-game review running in its own ``QThread``, so the window stays usable.

The thread owns a :class:`xqdesk.engines.analysis.reviewer.GameReviewer` (its engine process); the GUI
thread only starts it, reads its signals and may :meth:`ReviewWorker.cancel` it (which stops the
engine's search at once from the GUI thread, without waiting). Every run ends in exactly one of
``finished``, ``failed`` or ``cancelled``. :meth:`ReviewWorker.shutdown` cancels and joins.
"""
from __future__ import annotations

from typing import Optional, Sequence

from PySide6.QtCore import QObject, QThread, Signal

from xqdesk.engines.analysis.reviewer import GameReviewer, ReviewCancelled
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.errors import XqdeskError
from xqdesk.game import Game
from xqdesk.pieces import Color

SHUTDOWN_WAIT_MS = 5000
"""How long :meth:`ReviewWorker.shutdown` waits for the thread before killing the engine."""


class _ReviewThread(QThread):
    progress = Signal(int, int)  # positions searched, positions in all
    reviewed = Signal(object, str)  # GameReview, annotator text
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, reviewer: GameReviewer, game: Game, sides: Sequence[Color]) -> None:
        super().__init__()
        self.reviewer = reviewer
        self.game = game
        self.sides = tuple(sides)

    def run(self) -> None:  # noqa: D102 - QThread entry point
        review, failure, cancelled = None, "", False
        try:
            review = self.reviewer.review(self.game, self.sides, lambda done, total: self.progress.emit(done, total))
        except ReviewCancelled:
            cancelled = True
        except XqdeskError as error:  # engine failures, bad records
            failure = str(error)
        except Exception as error:  # noqa: BLE001 - anything else is reported, never lost in the thread
            failure = f"{type(error).__name__}: {error}"
        annotator = self.reviewer.annotator
        self.reviewer.close()  # before the news, so nothing waits for the engine to quit after it
        if review is not None:
            self.reviewed.emit(review, annotator)
        elif cancelled:
            self.cancelled.emit()
        else:
            self.failed.emit(failure)


class ReviewWorker(QObject):
    """Reviews one game (a copy of its main line is taken at once) in the background."""

    progress = Signal(int, int)
    finished = Signal(object, str)  # GameReview, annotator
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, spec: EngineSpec, limits: SearchLimits, game: Game, sides: Sequence[Color],
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        copy = Game.from_moves(game.mainline_moves(), game.start_fen, headers=dict(game.headers))
        copy.ruleset = game.ruleset
        self.moves = copy.mainline_moves()
        self._reviewer = GameReviewer(spec, limits)
        self._thread = _ReviewThread(self._reviewer, copy, sides)
        self._thread.progress.connect(self.progress)
        self._thread.reviewed.connect(self.finished)
        self._thread.failed.connect(self.failed)
        self._thread.cancelled.connect(self.cancelled)

    def start(self) -> None:
        self._thread.start()

    def is_running(self) -> bool:
        return self._thread.isRunning()

    def cancel(self) -> None:
        """Stop the review now (``cancelled`` follows); safe to call at any time."""
        self._reviewer.cancel()

    def shutdown(self) -> None:
        """Cancel and wait for the thread (the engine is killed if it does not stop in time)."""
        self.cancel()
        if self._thread.isRunning() and not self._thread.wait(SHUTDOWN_WAIT_MS):
            engine = self._reviewer.engine
            if engine is not None:
                engine.kill()
            self._thread.wait()
