"""*Game → Engine tournament…*: engines play a round robin from the window.

Choose two or more engines, a time control and the games per pair (colours alternate), and where
the games are saved (PGN, written after every game). While it runs the window shows the game in
progress on a board with both engines' newest lines (depth, score, principal variation), the
crosstable with each engine's points, score and Elo against the field (with its 95% interval),
and the games finished. *Stop* ends it within one move; closing the window stops it too.

The tournament itself is :class:`~xqdesk.ui.windows.tournament_run.TournamentRun`, which drives the
Qt-free contest code in a thread of its own.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from xqdesk.board import Board
from xqdesk.engines.contests.adjudication import AdjudicationRules, DrawRule, ResignRule
from xqdesk.engines.contests.match import PlayedGame, ScheduledGame
from xqdesk.engines.contests.tournament import crosstable, standings
from xqdesk.engines.registry import EngineProfile
from xqdesk.engines.search_types import SearchInfo
from xqdesk.notation import Notation
from xqdesk.pieces import RED
from xqdesk.time_control import TimeControl
from xqdesk.ui.analysis.engine_view import count_text, pv_text
from xqdesk.ui.base.i18n import follow_language, tr, tr_outcome
from xqdesk.ui.board.board_view import BoardView
from xqdesk.ui.record.game_list import points_text
from xqdesk.ui.windows.tournament_run import LiveMove, TournamentRun

TIME_CONTROLS = ("1s", "2s", "5s", "1m+1s", "3m+2s", "5m|10s")
ADJUDICATION = AdjudicationRules(draw=DrawRule(move_number=40, move_count=8, score=20),
                                 resign=ResignRule(move_count=3, score=800))
"""What *Adjudicate* applies: a draw after move 40 when both scores stay within ±0.20 for 8 moves,
a resignation when a side's score stays below -8.00 for 3 moves (cutechess-cli's rules)."""


LIVE_MIN_WIDTH = 360
"""The least width the game in progress (its board and lines) keeps when the crosstable widens."""


class TournamentWindow(QWidget):
    """See the module docstring. ``engines`` are the engines offered; ``pgn_folder`` where the
    PGN file is proposed."""

    def __init__(self, engines: Sequence[EngineProfile], pgn_folder: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self._engines = tuple(engines)
        self.run: TournamentRun | None = None
        self._notation = Notation.CHINESE
        self._board = Board()
        self._playing: ScheduledGame | None = None
        self._lines: dict[int, str] = {}  # each engine's newest line, as shown
        self._shown: tuple[list[str], list[PlayedGame]] = ([], [])  # the names and games the tables show

        self.engine_list = QListWidget()
        self.engine_list.setMaximumHeight(self.engine_list.fontMetrics().height() * 10)
        self.set_engines(self._engines)
        self.engine_list.itemChanged.connect(lambda _item: self._show_results() if self.run is None else None)
        self.clock_box = QComboBox()
        self.clock_box.setEditable(True)
        self.clock_box.addItems(TIME_CONTROLS)
        self.games_box = QSpinBox()
        self.games_box.setRange(1, 100)
        self.games_box.setValue(2)
        self.adjudicate = QCheckBox()
        self.adjudicate.setChecked(True)
        self.pgn_edit = QLineEdit(str(Path(pgn_folder or Path.home()) / "tournament.pgn"))
        self.pgn_button = QToolButton()
        self.pgn_button.setText("…")
        self.pgn_button.clicked.connect(self._choose_pgn)
        pgn_row = QHBoxLayout()
        pgn_row.addWidget(self.pgn_edit, 1)
        pgn_row.addWidget(self.pgn_button)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.setup_box = QGroupBox()
        form = QFormLayout(self.setup_box)
        self.engines_caption, self.clock_caption, self.games_caption, self.pgn_caption = (QLabel() for _ in range(4))
        form.addRow(self.engines_caption, self.engine_list)
        form.addRow(self.clock_caption, self.clock_box)
        form.addRow(self.games_caption, self.games_box)
        form.addRow(self.adjudicate)
        form.addRow(self.pgn_caption, pgn_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        form.addRow(buttons)
        form.addRow(self.status_label)

        self.board_view = BoardView()
        self.board_view.set_movable_colors(frozenset())
        self.game_label = QLabel()
        self.game_label.setStyleSheet("font-weight: bold;")
        self.line_labels = {RED: QLabel(), not RED: QLabel()}
        for label in self.line_labels.values():
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        live = QWidget()
        live_layout = QVBoxLayout(live)
        live_layout.setContentsMargins(0, 0, 0, 0)
        live_layout.addWidget(self.game_label)
        live_layout.addWidget(self.board_view, 1)
        live_layout.addWidget(self.line_labels[RED])
        live_layout.addWidget(self.line_labels[not RED])

        self.crosstable_view = QTableWidget()
        self.games_view = QTableWidget(0, 5)
        for table in (self.crosstable_view, self.games_view):
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)
        results = QSplitter(Qt.Orientation.Vertical)
        results.addWidget(self.crosstable_view)
        results.addWidget(self.games_view)

        right = QSplitter(Qt.Orientation.Horizontal)
        right.addWidget(live)
        right.addWidget(results)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        right.setSizes([560, 480])
        self._splitter = right
        self.setup_box.setMaximumWidth(330)
        setup_column = QVBoxLayout()
        setup_column.addWidget(self.setup_box)
        setup_column.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addLayout(setup_column)
        layout.addWidget(right, 1)
        self.resize(1200, 720)
        follow_language(self, self.retranslate)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Engine tournament"))
        self.setup_box.setTitle(tr("Tournament"))
        self.engines_caption.setText(tr("Engines"))
        self.clock_caption.setText(tr("Time control"))
        self.games_caption.setText(tr("Games per pair"))
        self.adjudicate.setText(tr("Adjudicate lost and dead-drawn games"))
        self.pgn_caption.setText(tr("Save games to"))
        self.start_button.setText(tr("Start"))
        self.stop_button.setText(tr("Stop"))
        self.clock_box.setToolTip(tr("Each engine's clock: seconds a move ('1s': the engines are told it, the "
                                     "referee holds them to the course's 10 s), game time plus increment "
                                     "('3m+2s') or main time then byo-yomi ('5m|10s')"))
        self.games_view.setHorizontalHeaderLabels([tr("#"), tr("Red"), tr("Black"), tr("Result"), tr("Reason")])
        self._show_results()
        self._show_lines()

    def set_engines(self, engines: Sequence[EngineProfile]) -> None:
        """Offer ``engines`` (none chosen yet)."""
        self._engines = tuple(engines)
        self.engine_list.clear()
        for profile in self._engines:
            item = QListWidgetItem(profile.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.engine_list.addItem(item)

    # --- reading it (tests, tools) -----------------------------------------------------------
    def chosen_engines(self) -> list[EngineProfile]:
        return [self._engines[row] for row in range(self.engine_list.count())
                if self.engine_list.item(row).checkState() == Qt.CheckState.Checked]

    def set_chosen(self, names: Sequence[str]) -> None:
        for row in range(self.engine_list.count()):
            item = self.engine_list.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.text() in names else Qt.CheckState.Unchecked)

    def crosstable_text(self, row: int, column: int) -> str:
        item = self.crosstable_view.item(row, column)
        return item.text() if item is not None else ""

    def line_text(self, red: bool) -> str:
        return self.line_labels[red].text()

    # --- running -------------------------------------------------------------------------------
    def start(self) -> bool:
        """Start the tournament as set up (False, with the reason shown, when it cannot)."""
        if self.run is not None:
            return False
        chosen = self.chosen_engines()
        if len(chosen) < 2:
            self.status_label.setText(tr("Choose at least two engines"))
            return False
        try:
            control = TimeControl.parse(self.clock_box.currentText())
        except ValueError as error:
            self.status_label.setText(str(error))
            return False
        if control.is_unlimited:
            self.status_label.setText(tr("An engine tournament needs a time control"))
            return False
        run = TournamentRun(chosen, control, self.games_box.value(), self.pgn_edit.text().strip() or None,
                            ADJUDICATION if self.adjudicate.isChecked() else AdjudicationRules(), self)
        self.run = run
        self._shown = ([], [])
        run.moved.connect(self._on_moved)
        run.engine_info.connect(self._on_info)
        run.game_started.connect(self._on_game_started)
        run.game_ended.connect(lambda _played: self._show_results())
        run.pgn_failed.connect(lambda reason: self.status_label.setText(
            tr("Could not save {path}: {reason}").format(path=self.pgn_edit.text(), reason=reason)))
        run.ended.connect(self._on_ended)
        self.setup_box.setEnabled(True)
        for widget in (self.engine_list, self.clock_box, self.games_box, self.adjudicate, self.pgn_edit,
                       self.pgn_button, self.start_button):
            widget.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.status_label.setText(tr("Starting the engines…"))
        self._show_results()
        run.start()
        return True

    def stop(self) -> None:
        """End the tournament within one move."""
        if self.run is not None:
            self.stop_button.setEnabled(False)
            self.status_label.setText(tr("Stopping after this move…"))
            self.run.stop()

    def is_running(self) -> bool:
        return self.run is not None

    def shutdown(self) -> None:
        """Stop a running tournament and wait for its engines to end."""
        run = self.run
        if run is not None:
            run.stop()
            run.wait(60)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        super().closeEvent(event)

    def _on_game_started(self, game: ScheduledGame) -> None:
        self._playing = game
        self._lines.clear()
        self._board = Board() if game.opening is None else game.opening.board()
        self.board_view.set_position(self._board)
        self._show_game_label(0)
        self._show_lines()
        self.status_label.setText(tr("Playing game {number} of {total}").format(
            number=game.number, total=len(self.run.schedule) if self.run else 0))

    def _on_moved(self, live: LiveMove) -> None:
        self._board = live.board
        self.board_view.set_position(live.board, live.move)
        self._show_game_label(len(live.board.move_stack))
        self._show_lines()

    def _on_info(self, index: int, info: SearchInfo) -> None:
        game = self._playing
        if game is None or index not in (game.red, game.black):
            return
        color = RED if index == game.red else not RED
        board = self._board if self._board.turn == color else None  # the engine to move thinks of this board
        score = "" if info.score is None else str(info.score.red())
        seconds = "" if info.time_ms is None else tr("{seconds} s").format(seconds=f"{info.time_ms / 1000:.1f}")
        line = pv_text(board, info.pv, self._notation) if board is not None else ""
        parts = [f"{tr('Depth')} {info.depth}" if info.depth is not None else "", score,
                 count_text(info.nodes), seconds]
        self._lines[index] = " · ".join(part for part in parts if part) + (f"  {line}" if line else "")
        self._show_lines()

    def _on_ended(self, played: list[PlayedGame], reason: str) -> None:
        run = self.run
        self.run = None
        if run is not None:
            run.wait()
            run.deleteLater()
        for widget in (self.engine_list, self.clock_box, self.games_box, self.adjudicate, self.pgn_edit,
                       self.pgn_button, self.start_button):
            widget.setEnabled(True)
        self.stop_button.setEnabled(False)
        finished = sum(1 for game in played if game.finished)
        if reason == "stopped":
            text = tr("Stopped after {finished} finished games").format(finished=finished)
        elif reason:
            text = tr("The tournament could not go on: {reason}").format(reason=reason)
        else:
            text = tr("Tournament over: {finished} games").format(finished=finished)
        self.status_label.setText(text)

    # --- showing ---------------------------------------------------------------------------------
    def _show_game_label(self, plies: int) -> None:
        game = self._playing
        if game is None or self.run is None:
            return
        names = self.run.names
        self.game_label.setText(tr("Game {number}: {red} (Red) – {black} (Black), ply {ply}").format(
            number=game.number, red=names[game.red], black=names[game.black], ply=plies))

    def _show_lines(self) -> None:
        game, run = self._playing, self.run
        for color, label in self.line_labels.items():
            if game is None or run is None:
                label.setText("")
                continue
            index = game.red if color == RED else game.black
            side = tr("Red") if color == RED else tr("Black")
            label.setText(f"{side} — {run.names[index]}: {self._lines.get(index, '')}")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._fit_crosstable()

    def _fit_crosstable(self) -> None:
        """Widen the results beside the board (the board keeps at least :data:`LIVE_MIN_WIDTH`)
        until every crosstable column, Score % and Elo included, shows without scrolling."""
        table = self.crosstable_view
        header = table.horizontalHeader()
        needed = sum(max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
                     for column in range(table.columnCount())) + 2 * table.frameWidth()
        if table.verticalScrollBar().isVisible():
            needed += table.verticalScrollBar().width()
        live, results = self._splitter.sizes()
        if live + results == 0 or needed <= results:
            return
        widened = min(needed, live + results - LIVE_MIN_WIDTH)
        if widened > results:
            self._splitter.setSizes([live + results - widened, widened])

    def _show_results(self) -> None:
        """The crosstable and the games: of the tournament running or last run, else of the
        engines chosen (no games yet)."""
        run = self.run
        if run is not None:
            self._shown = (list(run.names), list(run.played))
        elif not self._shown[1]:
            self._shown = ([profile.name for profile in self.chosen_engines()], [])
        names, played = self._shown
        count = len(names)
        table = crosstable(count, played)
        standing = {row.name: row for row in standings(names, played)}
        headers = [tr("Engine")] + [str(number) for number in range(1, count + 1)] + [
            tr("Points"), tr("Games"), tr("Score %"), tr("Elo")]
        self.crosstable_view.setColumnCount(len(headers))
        self.crosstable_view.setHorizontalHeaderLabels(headers)
        self.crosstable_view.setRowCount(count)
        for row, name in enumerate(names):
            cells = [f"{row + 1}. {name}"]
            for column in range(count):
                points = table[row][column]
                cells.append("×" if column == row else "" if points is None else points_text(points))
            result = standing[name].tally
            games = result.games
            elo = standing[name].elo
            elo_text = "" if elo.difference is None else f"{elo.difference:+.0f}" + (
                f" ± {(elo.upper - elo.lower) / 2:.0f}" if elo.upper is not None and elo.lower is not None else "")
            cells += [points_text(result.points), str(games), f"{100 * result.points / games:.0f}%" if games else "",
                      elo_text]
            for column, text in enumerate(cells):
                self.crosstable_view.setItem(row, column, QTableWidgetItem(text))
        self._fit_crosstable()
        self.games_view.setRowCount(len(played))
        for row, game in enumerate(played):
            outcome = game.record.outcome
            cells = [str(game.scheduled.number), names[game.scheduled.red], names[game.scheduled.black],
                     outcome.result(), tr_outcome(outcome.text)]
            for column, text in enumerate(cells):
                self.games_view.setItem(row, column, QTableWidgetItem(text))

    def _choose_pgn(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, tr("Save games to"), self.pgn_edit.text(), "PGN (*.pgn)")
        if path:
            self.pgn_edit.setText(path if path.lower().endswith(".pgn") else path + ".pgn")
