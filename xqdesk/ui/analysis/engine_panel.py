"""The engine panel: one or two engines side by side on the same position, and a score graph.

:class:`EnginePanel` holds two :class:`~xqdesk.ui.analysis.engine_view.EngineView` columns and the graph.
It shows any :class:`EngineWorker` attached to it — the window attaches the workers of the game's
engine seats — and tells what it shows through ``progress_shown``, so nobody else connects to a
worker's progress; the connections made for an attached worker are undone when it is detached.
It runs analysis by itself: :meth:`EnginePanel.set_engines` starts workers it owns, and every
:meth:`EnginePanel.set_position` restarts their infinite searches on the new position (engines
follow the moves).

With no engine attached and no score to draw (replaying a game) the panel has nothing to say: it
folds to one line with an *Analysis* button (``analysis_requested``) and a height cap, so a dock
holding it gives the height back to the move list; ``occupied_changed`` tells when it folds.
"""
from __future__ import annotations

from typing import Optional, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QSplitter, QVBoxLayout, QWidget

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.ui.analysis.engine_view import EngineView, ShownPosition
from xqdesk.ui.analysis.score_graph import ScoreGraph, red_view_pawns
from xqdesk.ui.base.connections import SignalConnections
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.base.settings import ScoreView
from xqdesk.ui.engines.engine_worker import EngineDescription, EngineWorker, SearchProgress

MAX_LINES = 5
"""The most MultiPV lines the panel asks for."""

UNLIMITED_HEIGHT = 16777215
"""Qt's QWIDGETSIZE_MAX: the height cap lifted."""

GRAPH_MIN_WIDTH = 220
"""The score graph sits to the right of the engine lines, at least this wide."""


class _Seat:
    """A worker shown in a view, the panel's connections to it, and whether the panel owns it
    (started it, and shuts it down)."""

    def __init__(self, worker: EngineWorker, owned: bool) -> None:
        self.worker = worker
        self.owned = owned
        self.analysing = False
        self.connections = SignalConnections()


class EnginePanel(QWidget):
    """Two engine views side by side, the score-view and lines choices, and the score graph."""

    score_view_changed = Signal(object)  # ScoreView
    lines_changed = Signal(int)
    analysis_changed = Signal(bool)  # whether any owned engine is analysing
    candidates_changed = Signal(int, object)  # view index, tuple of each line's first Move, best first
    progress_shown = Signal(int, object)  # view index, the SearchProgress it now shows
    occupied_changed = Signal(bool)  # False: nothing to show, the panel folded to one line
    analysis_requested = Signal()  # the folded panel's Analysis button

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.views = (EngineView(), EngineView())
        self.graph = ScoreGraph()
        self._occupied: Optional[bool] = None
        self._seats: list[Optional[_Seat]] = [None, None]
        self._position = ShownPosition.build(Board().fen(), ())
        self._notation = Notation.CHINESE
        self._score_view = ScoreView.RED

        self.score_view_label = QLabel()
        self.score_view_box = QComboBox()
        self.score_view_box.addItem("", ScoreView.RED)
        self.score_view_box.addItem("", ScoreView.MOVER)
        self.score_view_box.currentIndexChanged.connect(self._on_score_view_chosen)
        self.lines_label = QLabel()
        self.lines_box = QSpinBox()
        self.lines_box.setRange(1, MAX_LINES)
        self.lines_box.valueChanged.connect(self._on_lines_chosen)
        bar = QHBoxLayout()  # above the graph, not across the panel: the lines keep the height
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.score_view_label)
        bar.addWidget(self.score_view_box)
        bar.addSpacing(8)
        bar.addWidget(self.lines_label)
        bar.addWidget(self.lines_box)
        bar.addStretch(1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for index, view in enumerate(self.views):
            self.splitter.addWidget(view)
            view.start_requested.connect(lambda index=index: self.start_analysis(index))
            view.stop_requested.connect(lambda index=index: self.stop_analysis(index))
            view.set_position(self._position)
        self.views[1].setVisible(False)
        self.graph.setMinimumWidth(GRAPH_MIN_WIDTH)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(2)
        right_layout.addLayout(bar)
        right_layout.addWidget(self.graph, 1)
        self.splitter.addWidget(right)  # beside the lines: the dock's whole height, not a strip
        for index, stretch in enumerate((2, 2, 1)):
            self.splitter.setStretchFactor(index, stretch)

        self.idle_label = QLabel()
        self.analysis_button = QPushButton()
        self.analysis_button.clicked.connect(self.analysis_requested)
        self.idle_bar = QWidget()
        idle = QHBoxLayout(self.idle_bar)
        idle.setContentsMargins(2, 0, 2, 0)
        idle.addWidget(self.idle_label)
        idle.addWidget(self.analysis_button)
        idle.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.idle_bar)
        layout.addWidget(self.splitter, 1)
        self.graph.contents_changed.connect(self._update_occupied)
        self.retranslate()
        follow_language(self, self.retranslate)
        self._update_occupied()

    def is_occupied(self) -> bool:
        """Whether there is something to show: an engine attached, or a score in the graph."""
        return any(seat is not None for seat in self._seats) or self.graph.has_scores()

    def _update_occupied(self) -> None:
        occupied = self.is_occupied()
        if occupied == self._occupied:
            return
        self._occupied = occupied
        # hide first, then show: never both at once, or the window grows to hold them for a moment
        shown, hidden = (self.splitter, self.idle_bar) if occupied else (self.idle_bar, self.splitter)
        hidden.setVisible(False)
        self.setMaximumHeight(UNLIMITED_HEIGHT if occupied else self.idle_bar.sizeHint().height())
        shown.setVisible(True)
        self.occupied_changed.emit(occupied)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """Compact: a few lines per engine and the graph, leaving the window to the board."""
        return QSize(640, 240)

    def retranslate(self) -> None:
        self.score_view_label.setText(tr("Score from"))
        self.score_view_box.setItemText(0, tr("Red's view"))
        self.score_view_box.setItemText(1, tr("Mover's view"))
        self.lines_label.setText(tr("Lines"))
        self.idle_label.setText(tr("No engine is running."))
        self.analysis_button.setText(tr("Analysis"))
        if self._occupied is False:  # the cap follows the texts' height
            self.setMaximumHeight(self.idle_bar.sizeHint().height())

    # -- choices ----------------------------------------------------------------------------
    @property
    def score_view(self) -> ScoreView:
        return self._score_view

    def set_score_view(self, view: ScoreView) -> None:
        self.score_view_box.setCurrentIndex(0 if view is ScoreView.RED else 1)

    def _on_score_view_chosen(self, index: int) -> None:
        self._score_view = self.score_view_box.itemData(index)
        for view in self.views:
            view.set_score_view(self._score_view)
        self.score_view_changed.emit(self._score_view)

    @property
    def lines(self) -> int:
        return self.lines_box.value()

    def set_lines(self, count: int) -> None:
        self.lines_box.setValue(count)

    def _on_lines_chosen(self, count: int) -> None:
        self.lines_changed.emit(count)
        self._restart_analysis()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        for view in self.views:
            view.set_notation(notation)

    # -- engines ----------------------------------------------------------------------------
    def worker(self, index: int) -> Optional[EngineWorker]:
        seat = self._seats[index]
        return None if seat is None else seat.worker

    def attach(self, index: int, worker: EngineWorker, owned: bool = False) -> None:
        """Show ``worker`` in view ``index`` (0 or 1). An owned worker is shut down with the panel."""
        self.detach(index)
        seat = _Seat(worker, owned)
        self._seats[index] = seat
        view = self.views[index]
        view.setVisible(True)
        view.set_can_start(owned)
        view.set_engine_name(worker.description.name if worker.description else worker.spec.name)
        view.set_state("Starting…" if worker.description is None and not worker.has_failed() else "Ready", False)
        view.set_position(self._position)
        connect = seat.connections.connect
        connect(worker.engine_ready, lambda description, i=index: self._on_ready(i, description))
        connect(worker.progress, lambda progress, i=index: self._on_progress(i, progress))
        connect(worker.best_move, lambda request_id, result, i=index: self._on_best_move(i, result.move))
        connect(worker.move_reply, lambda request_id, reply, i=index: self._on_best_move(i, reply.move))
        connect(worker.engine_failed, lambda reason, i=index: self._on_failed(i, reason))
        connect(worker.log_lines, view.append_log_lines)
        self._update_occupied()

    def detach(self, index: int, wait: bool = True) -> None:
        """Stop showing the worker of view ``index`` (shutting it down when the panel owns it;
        ``wait=False`` lets its thread end in the background, see :meth:`EngineWorker.shutdown`)."""
        seat = self._seats[index]
        if seat is None:
            return
        self._seats[index] = None
        seat.connections.disconnect_all()
        if seat.owned:
            seat.worker.shutdown(wait=wait)
        view = self.views[index]
        view.set_engine_name("")
        view.forget_search()
        view.set_state("", False)
        view.set_position(self._position)
        if index == 1:
            view.setVisible(False)
        self._update_occupied()

    def set_engines(self, specs: Sequence[EngineSpec]) -> None:
        """Start (and own) one or two analysis engines; the views show them, ready to analyse."""
        if not 1 <= len(specs) <= 2:
            raise ValueError(f"the panel shows one or two engines, got {len(specs)}: {[s.name for s in specs]!r}")
        for index in range(2):
            self.detach(index, wait=False)
        for index, spec in enumerate(specs):
            worker = EngineWorker(spec, self)
            self.attach(index, worker, owned=True)
            worker.start()

    def shutdown(self) -> None:
        """Stop every analysis and shut down the engines the panel owns."""
        for index in range(2):
            self.detach(index)
        self.analysis_changed.emit(False)

    # -- position and analysis ---------------------------------------------------------------
    @property
    def position(self) -> ShownPosition:
        return self._position

    def set_position(self, start_fen: str, moves: Sequence[Move]) -> None:
        """Show the position after ``moves`` from ``start_fen``; analysing engines follow it."""
        self._position = ShownPosition.build(start_fen, moves)
        self.graph.set_ply_count(max(self.graph.ply_count, self._position.ply + 1))
        self.graph.set_current_ply(self._position.ply)
        for view in self.views:
            view.set_position(self._position)
        self._restart_analysis()

    def is_analysing(self, index: Optional[int] = None) -> bool:
        seats = self._seats if index is None else [self._seats[index]]
        return any(seat is not None and seat.analysing for seat in seats)

    def start_analysis(self, index: Optional[int] = None) -> None:
        """Let engine ``index`` (every engine when None) analyse the shown position until stopped."""
        for i in range(2) if index is None else (index,):
            seat = self._seats[i]
            if seat is None or not seat.owned or seat.worker.has_failed():
                continue  # an engine playing a seat of the game is the game's to drive
            seat.analysing = True
            self._search(i)
        self.analysis_changed.emit(self.is_analysing())

    def stop_analysis(self, index: Optional[int] = None) -> None:
        """Stop engine ``index`` (every engine when None); its last lines stay on show."""
        for i in range(2) if index is None else (index,):
            seat = self._seats[i]
            if seat is None or not seat.analysing:
                continue
            seat.analysing = False
            seat.worker.stop()
            self.views[i].set_state("Stopped", False)
        self.analysis_changed.emit(self.is_analysing())

    def _restart_analysis(self) -> None:
        for index, seat in enumerate(self._seats):
            if seat is not None and seat.analysing:
                self._search(index)

    def _search(self, index: int) -> None:
        seat = self._seats[index]
        if seat is None:
            return
        if self._position.board.outcome() is not None:
            seat.worker.cancel()
            self.views[index].set_state("Stopped", True)
            return
        limits = SearchLimits(infinite=True, multipv=self.lines)
        seat.worker.search(self._position.start_fen, self._position.moves, limits)
        self.views[index].set_state("Thinking…", True)

    # -- worker replies ---------------------------------------------------------------------
    def _on_ready(self, index: int, description: EngineDescription) -> None:
        view = self.views[index]
        view.set_engine_name(description.name)
        seat = self._seats[index]
        if seat is not None and not seat.analysing:
            view.set_state("Ready", False)

    def _on_progress(self, index: int, progress: SearchProgress) -> None:
        self.views[index].show_progress(progress)
        self.progress_shown.emit(index, progress)
        board = self._position.board
        candidates = tuple(row.pv[0] for row in progress.rows if row.pv and board.is_legal(row.pv[0]))
        self.candidates_changed.emit(index, candidates)
        best = progress.rows[0].score if progress.rows else progress.latest.score
        if best is not None:
            self.graph.set_score(self._position.ply, red_view_pawns(best), index)

    def _on_best_move(self, index: int, move: Optional[Move] = None) -> None:
        seat = self._seats[index]
        if seat is not None and not seat.analysing:
            self.views[index].set_state("Ready", False)
            if not seat.owned:  # an engine playing a seat: its search stays on show after its move
                self.views[index].remember_search(move)

    def _on_failed(self, index: int, reason: str) -> None:
        seat = self._seats[index]
        if seat is not None:
            seat.analysing = False
        self.views[index].set_failed(reason)
        self.analysis_changed.emit(self.is_analysing())


__all__ = ["EnginePanel", "EngineView", "ShownPosition"]
