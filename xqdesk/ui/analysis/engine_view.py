"""One engine's column in the engine panel (:class:`EngineView`), and the texts it writes.

An :class:`EngineView` shows one engine: its name and state, depth, score (from Red's or the
mover's view), nodes, nodes per second, time, one row per MultiPV line with the principal
variation in the chosen notation, a start/stop button and the engine's protocol log. An engine
that plays a seat keeps its last search on show after it has moved (marked as the search of
that move) until it searches again, so in engine-vs-engine both columns say what each engine
last thought.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move
from xqdesk.pieces import Color
from xqdesk.score import PovScore
from xqdesk.ui.base.i18n import follow_language, tr, tr_player
from xqdesk.ui.base.reasons import engine_reason
from xqdesk.ui.base.settings import ScoreView
from xqdesk.ui.engines.engine_worker import SearchProgress

LOG_LINES = 500
NAME_MIN_WIDTH = 60
"""An engine name is cut to no less than this (pixels) when the panel is narrow."""
"""Lines kept in each engine's log."""


def score_text(score: Optional[PovScore], view: ScoreView, mover: Color) -> str:
    """``score`` from Red's view or from ``mover``'s (the side to move in the position shown),
    as ``view`` says: ``+0.35``, ``#3``, ``#-2``; empty for no score."""
    if score is None:
        return ""
    return str(score.red() if view is ScoreView.RED else score.pov(mover))


def count_text(value: Optional[int]) -> str:
    """A node count in a short form: ``950``, ``12.3k``, ``4.56M``."""
    if value is None:
        return ""
    if value >= 1_000_000_000:
        return f"{value / 1e9:.2f}G"
    if value >= 1_000_000:
        return f"{value / 1e6:.2f}M"
    if value >= 10_000:
        return f"{value / 1e3:.1f}k"
    return str(value)


def pv_text(board: Board, pv: Sequence[Move], notation: Notation) -> str:
    """The principal variation written in ``notation``, cut before its first illegal move."""
    position = board.copy()
    texts = []
    for move in pv:
        if not position.is_legal(move):
            break
        texts.append(format_move(position, move, notation))
        position.push(move)
    return " ".join(texts)


@dataclass(frozen=True)
class ShownPosition:
    """The position the panel shows: a game's start FEN, the moves since, and the board after them."""

    start_fen: str
    moves: tuple[Move, ...]
    board: Board

    @classmethod
    def build(cls, start_fen: str, moves: Sequence[Move]) -> "ShownPosition":
        board = Board(start_fen)
        for move in moves:
            board.push(move)
        return cls(start_fen, tuple(moves), board)

    @property
    def ply(self) -> int:
        return len(self.moves)


class EngineView(QWidget):
    """One engine's column: name and state, search figures, MultiPV rows and the log."""

    start_requested = Signal()
    stop_requested = Signal()

    COLUMNS = ("#", "Score", "Depth", "Principal variation")

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._engine_name = ""
        self._state = ""
        self._running = False
        self._can_start = True
        self._progress: Optional[SearchProgress] = None
        self._position: Optional[ShownPosition] = None
        self._last_search: Optional[tuple[ShownPosition, SearchProgress, str]] = None
        """The search that chose the engine's last move: its position, progress and the move's text."""
        self._left: Optional[tuple[ShownPosition, SearchProgress]] = None
        """The search on show when the position last changed (the engine's move may have changed it)."""
        self._notation = Notation.CHINESE
        self._score_view = ScoreView.RED

        self.name_label = QLabel()
        bold = QFont(self.name_label.font())
        bold.setBold(True)
        self.name_label.setFont(bold)
        self.state_label = QLabel()
        # long engine names, states and figures are cut rather than widening the window (two
        # engines side by side must fit a 1024 px laptop screen); the full text is in the tooltip
        self.name_label.setMinimumWidth(NAME_MIN_WIDTH)
        for label in (self.state_label,):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self._on_start_clicked)
        header = QHBoxLayout()
        header.addWidget(self.name_label)
        header.addWidget(self.state_label, 1)
        header.addWidget(self.start_button)

        self.figures_label = QLabel()
        self.figures_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.figures_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.lines_table = QTableWidget(0, len(self.COLUMNS))
        self.lines_table.verticalHeader().setVisible(False)
        self.lines_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.lines_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table_header = self.lines_table.horizontalHeader()
        for column in range(len(self.COLUMNS) - 1):
            table_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        table_header.setStretchLastSection(True)
        # no column headings: the figures line above names depth and score, and on a 768 px
        # laptop the height they took is the third line's
        table_header.setVisible(False)
        rows = self.lines_table.verticalHeader()
        rows.setMinimumSectionSize(self.fontMetrics().height() + 4)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)  # compact: three lines in a short dock
        self.lines_table.setMinimumHeight(rows.defaultSectionSize() * 2)
        self.lines_table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)

        self.log_toggle = QToolButton()
        self.log_toggle.setCheckable(True)
        self.log_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.log_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.log_toggle.toggled.connect(self._on_log_toggled)
        self.log_view = QPlainTextEdit()
        self.log_view.setReadOnly(True)
        self.log_view.setMaximumBlockCount(LOG_LINES)
        self.log_view.setVisible(False)
        header.addWidget(self.log_toggle)  # in the header row: the lines keep the height

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addWidget(self.figures_label)
        layout.addWidget(self.lines_table, 1)
        layout.addWidget(self.log_view, 1)
        self.retranslate()
        follow_language(self, self.retranslate)

    # -- texts -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.lines_table.setHorizontalHeaderLabels([tr(text) for text in self.COLUMNS])
        self.log_toggle.setText(tr("Engine log"))
        self._show_header()
        self._show_progress()

    def _show_header(self) -> None:
        self.name_label.setText(tr_player(self._engine_name) or tr("(no engine)"))
        self.name_label.setToolTip(self._engine_name)
        self.state_label.setText(tr(self._state) if self._state else "")
        self.start_button.setText(tr("Stop") if self._running else tr("Start"))
        self.start_button.setEnabled(bool(self._engine_name) and self._can_start)

    # -- what it shows -----------------------------------------------------------------------
    @property
    def engine_name(self) -> str:
        return self._engine_name

    @property
    def state(self) -> str:
        """The engine's state in English (``Ready``, ``Thinking…``, ``Stopped`` …)."""
        return self._state

    @property
    def progress(self) -> Optional[SearchProgress]:
        """The search progress on show (None before the first report on this position)."""
        return self._progress

    def set_engine_name(self, name: str) -> None:
        if name != self._engine_name:
            self._last_search = None
        self._engine_name = name
        self._show_header()

    @property
    def last_search(self) -> Optional[tuple[ShownPosition, SearchProgress, str]]:
        return self._last_search

    def remember_search(self, move: Optional[Move]) -> None:
        """The engine's search chose ``move``: keep that search on show after the position
        changes, until the engine searches again. The search is the one on show, or the one on
        show when the position last changed (the game may play the move before this is called)."""
        if self._progress is not None and self._position is not None:
            searched = (self._position, self._progress)
        elif self._left is not None:
            searched = self._left
        else:
            return
        position, progress = searched
        if move is not None and not position.board.is_legal(move):
            return  # not this search's move
        text = format_move(position.board, move, self._notation) if move is not None else ""
        self._last_search = (position, progress, text)
        self._show_progress()

    def forget_search(self) -> None:
        self._last_search = self._left = None
        self._show_progress()

    def set_can_start(self, can_start: bool) -> None:
        """Whether the start/stop button works (not for an engine playing a seat of the game)."""
        self._can_start = can_start
        self._show_header()

    def set_state(self, state: str, running: Optional[bool] = None) -> None:
        """Show the engine's state (an English source string, translated for display)."""
        self._state = state
        if running is not None:
            self._running = running
        self._show_header()

    def set_failed(self, reason: str) -> None:
        self._state = ""
        self._running = False
        self._show_header()
        self.state_label.setText(tr("Engine failed: {reason}").format(reason=engine_reason(reason.splitlines()[0])))
        self.append_log(f"! {reason}")

    def set_position(self, position: ShownPosition) -> None:
        """The position the next progress belongs to; clears the lines shown (an engine's last
        search stays, see :meth:`remember_search`)."""
        if self._progress is not None and self._position is not None:
            self._left = (self._position, self._progress)
        self._position = position
        self._progress = None
        self._show_progress()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        self._show_progress()

    def set_score_view(self, view: ScoreView) -> None:
        self._score_view = view
        self._show_progress()

    def show_progress(self, progress: SearchProgress) -> None:
        """Show a search's newest progress (for the position given to :meth:`set_position`)."""
        self._progress = progress
        self._show_progress()

    def append_log(self, line: str) -> None:
        self.log_view.appendPlainText(line)

    def append_log_lines(self, lines: Sequence[str]) -> None:
        """Add lines of the engine's transport log (see ``EngineWorker.log_lines``)."""
        if lines:
            self.log_view.appendPlainText("\n".join(lines))

    def row_texts(self) -> list[list[str]]:
        """The MultiPV table as text, row by row (what the user reads)."""
        def text(row: int, column: int) -> str:
            item = self.lines_table.item(row, column)
            return item.text() if item is not None else ""

        return [[text(row, column) for column in range(self.lines_table.columnCount())]
                for row in range(self.lines_table.rowCount())]

    def figures_text(self) -> str:
        return self.figures_label.text()

    def _show_progress(self) -> None:
        progress, position = self._progress, self._position
        caption = ""
        if progress is None and self._last_search is not None:  # the search of the engine's last move
            position, progress, move = self._last_search
            caption = tr("Last search ({move})").format(move=move) if move else tr("Last search")
        if progress is None or position is None:
            self.figures_label.setText("")
            self.lines_table.setRowCount(0)
            return
        latest = progress.latest
        turn = position.board.turn
        depth = "" if latest.depth is None else str(latest.depth)
        if latest.seldepth is not None and depth:
            depth += f"/{latest.seldepth}"
        best = progress.rows[0].score if progress.rows else latest.score
        seconds = "" if latest.time_ms is None else tr("{seconds} s").format(seconds=f"{latest.time_ms / 1000:.1f}")
        figures = [
            f"{tr('Depth')} {depth}",
            f"{tr('Score')} {score_text(best, self._score_view, turn)}",
            f"{tr('Nodes')} {count_text(latest.nodes)}",
            f"{tr('NPS')} {count_text(latest.nps)}",
            f"{tr('Time')} {seconds}",
        ]
        self.figures_label.setText("  ·  ".join(([caption] if caption else []) + figures))
        self.figures_label.setToolTip(self.figures_label.text())
        self.lines_table.setRowCount(len(progress.rows))
        for row, info in enumerate(progress.rows):
            cells = (str(info.multipv), score_text(info.score, self._score_view, turn),
                     "" if info.depth is None else str(info.depth),
                     pv_text(position.board, info.pv, self._notation))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column < 3:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.lines_table.setItem(row, column, item)

    # -- buttons -----------------------------------------------------------------------------
    def _on_start_clicked(self) -> None:
        if self._running:
            self.stop_requested.emit()
        else:
            self.start_requested.emit()

    def _on_log_toggled(self, shown: bool) -> None:
        self.log_view.setVisible(shown)
        self.log_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
