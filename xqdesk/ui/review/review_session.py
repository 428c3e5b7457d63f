"""Whole-game review in the window: asking how, running it off the GUI thread with a progress bar
and a cancel button, storing the result in the game, and stepping through its marked moves."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

from xqdesk.engines.search_types import SearchLimits
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.review import GameReview, read_review, write_review
from xqdesk.score import Score
from xqdesk.ui.analysis.score_graph import ScoreGraph
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import EngineProfile, SavedSettings
from xqdesk.ui.game.game_controller import GameController
from xqdesk.ui.game.seat_dialogs import ANALYSIS_PROFILE, available_engines
from xqdesk.ui.record.move_list import MoveList
from xqdesk.ui.review.review_dialog import ReviewDialog, ReviewProgress
from xqdesk.ui.review.review_summary import ReviewSummary
from xqdesk.ui.review.review_worker import ReviewWorker


class ReviewSession(QObject):
    """The review of the game on show (:attr:`review`, run here or read from its record, shown in
    the score graph, the move list's marks and ``summary``) and the review running
    (:attr:`worker`); ``changed`` when either changes, ``shown`` when another review is shown,
    ``status(str)`` to report."""

    changed = Signal()
    shown = Signal()
    status = Signal(str)

    def __init__(self, controller: GameController, settings: SavedSettings, graph: ScoreGraph, move_list: MoveList,
                 summary: ReviewSummary, parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._settings = settings
        self._graph = graph
        self._move_list = move_list
        self._summary = summary
        self._window = parent
        self.review: GameReview | None = None
        self.worker: ReviewWorker | None = None
        self.progress = ReviewProgress()
        self.progress.hide()
        self.progress.cancel_requested.connect(self.cancel)

    def choose(self) -> None:
        """*Game → Review game…*: ask how, then review the main line in the background."""
        engines = (ANALYSIS_PROFILE,) + available_engines(self._settings.current)
        dialog = ReviewDialog(engines, self._window)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start(dialog.engine(), dialog.limits(), dialog.sides())

    def start(self, profile: EngineProfile, limits: SearchLimits,
              sides: tuple[Color, ...] = (RED, BLACK)) -> ReviewWorker | None:
        """Review the game's main line with ``profile``'s engine; the window stays usable, a
        progress bar shows how far it is, and the result is stored in the game when it comes."""
        if self.worker is not None or not self._controller.game().mainline():
            return None
        worker = ReviewWorker(profile.to_spec(), limits, self._controller.game(), sides, self)
        worker.progress.connect(self.progress.set_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(lambda message: self._end(tr("Review failed: {reason}").format(reason=message)))
        worker.cancelled.connect(lambda: self._end(tr("Review cancelled")))
        self.worker = worker
        self.progress.set_progress(0, len(worker.moves) + 1)
        self.progress.show()
        worker.start()
        self.changed.emit()
        return worker

    def cancel(self) -> None:
        """Stop the running review (nothing is stored)."""
        if self.worker is not None:
            self.worker.cancel()

    def next_mistake(self) -> None:
        """Go to the next inaccuracy, mistake or blunder of the review after the move on show
        (from the first again after the last)."""
        if self.review is None or not self.review.errors():
            self.status.emit(tr("No marked moves"))
            return
        plies = [move.ply for move in self.review.errors()]
        controller = self._controller
        while controller.variation_depth():  # the review is of the main line: back to it
            controller.leave_variation()
        ply = controller.ply()
        controller.go_to(next((marked for marked in plies if marked > ply), plies[0]))

    def shutdown(self) -> None:
        if self.worker is not None:
            self.worker.shutdown()
            self.worker = None

    def _on_finished(self, review: GameReview, annotator: str) -> None:
        worker = self.worker
        game = self._controller.game()
        if worker is None or game.mainline_moves() != worker.moves:
            self._end(tr("The game changed during the review: its result was not stored"))
            return
        write_review(game, review, annotator)
        self._end(tr("Review done: {count} marked moves").format(count=len(review.errors())))
        self._show(review)

    def _end(self, message: str) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.shutdown()
            worker.deleteLater()
        self.progress.hide()
        self.status.emit(message)
        self.changed.emit()

    def on_game_changed(self) -> None:
        """The game's moves changed: show the review its record holds, if any."""
        game = self._controller.game()
        self._show(read_review(game) if game.comment else None)

    def score(self) -> Score | None:
        """The review's score (Red's view) of the position on show, when the main line is shown."""
        review, controller = self.review, self._controller
        ply = controller.ply()
        if review is None or controller.variation_depth() or ply > len(review.moves):
            return None
        return review.start.score if ply == 0 else review.moves[ply - 1].after

    def _show(self, review: GameReview | None) -> None:
        self.review = review
        self._graph.set_review(review)
        self._summary.set_review(review)
        self._move_list.refresh_marks()
        self.shown.emit()
        self.changed.emit()
