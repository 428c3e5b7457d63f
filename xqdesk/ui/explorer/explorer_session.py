"""The opening explorer in the window: its dock, the position index it reads, building that index
in the background, and the moves and games chosen in it."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QProgressDialog, QWidget

from xqdesk.errors import XqdeskError
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import SavedSettings
from xqdesk.ui.explorer.explorer_panel import ExplorerPanel
from xqdesk.ui.explorer.index_builder import BuildResult, IndexBuilder
from xqdesk.ui.game.game_controller import GameController, Mode

INDEX_FILTER = "*.xqdb *.db *.sqlite"
RECORD_FILTER = "*.pgn *.PGN *.xqf *.XQF *.txt *.fen *.FEN"


class ExplorerSession(QObject):
    """The explorer's dock, its toggle and its index; ``status(str)`` reports. :attr:`builder` is
    the index build running or last run; ``confirm_discard()`` says whether the game on show may
    be replaced by one opened from the explorer."""

    status = Signal(str)

    def __init__(self, controller: GameController, settings: SavedSettings, panel: ExplorerPanel,
                 dock: QDockWidget, parent: QWidget, confirm_discard: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        self.confirm_discard = confirm_discard
        self._controller = controller
        self._settings = settings
        self.panel = panel
        self.dock = dock
        self._window = parent
        self.toggle_action = QAction(parent)
        """*View → Opening explorer*: shows or hides the dock (checked while it is shown)."""
        self.toggle_action.setCheckable(True)
        self.toggle_action.setShortcut(QKeySequence("Ctrl+E"))
        self.toggle_action.setChecked(settings.current.show_explorer)
        self.toggle_action.triggered.connect(self.toggle)
        self.builder: IndexBuilder | None = None
        self._build_progress: QProgressDialog | None = None
        panel.move_chosen.connect(self.play_move)
        panel.game_chosen.connect(self.open_game)
        panel.status.connect(self.status)
        dock.visibilityChanged.connect(self._on_visibility)

    def toggle(self) -> None:
        self.dock.setVisible(not self.dock.isVisible())

    def _on_visibility(self, visible: bool) -> None:
        if self._window.isVisible():  # a hidden window hides its docks too: that is no choice of the user's
            self.toggle_action.setChecked(visible)
            if visible != self._settings.current.show_explorer:
                self._settings.update(show_explorer=visible)

    def set_database(self, path: str) -> None:
        """Explore the position index at ``path`` (made by ``xqdesk index``), and show the pane."""
        self._settings.update(explorer_database=path)
        self.panel.set_database(path)
        self.dock.setVisible(True)

    def choose_database(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self._window, tr("Choose position index…"), self._settings.current.last_directory,
            f"{tr('Position indexes')} ({INDEX_FILTER});;{tr('All files')} (*)")
        if path:
            self.set_database(path)

    def choose_and_index_files(self) -> None:
        """Add record files to the position index in use (a new one is asked for when none is)."""
        settings = self._settings.current
        paths, _filter = QFileDialog.getOpenFileNames(
            self._window, tr("Add games to the position index…"), settings.last_directory,
            f"{tr('Game records')} ({RECORD_FILTER});;{tr('All files')} (*)")
        if not paths:
            return
        database = settings.explorer_database
        if not database:
            database, _filter = QFileDialog.getSaveFileName(self._window, tr("New position index"),
                                                            settings.last_directory,
                                                            f"{tr('Position indexes')} (*.xqdb)")
            if not database:
                return
            if "." not in database.rsplit("/", 1)[-1]:
                database += ".xqdb"
        self.index_files(database, paths)

    def index_files(self, database: str, paths: list[str]) -> IndexBuilder | None:
        """Build or update the index ``database`` from ``paths`` in the background, with a progress
        dialog whose Cancel stops it; the explorer then uses it. None while another build runs."""
        if self.builder is not None and self.builder.is_running():
            self.status.emit(tr("A position index is being built already"))
            return None
        builder = IndexBuilder(database, paths, self)
        progress = QProgressDialog(tr("Indexing games…"), tr("Cancel"), 0, 0, self._window)
        progress.setWindowTitle(tr("Add games to the position index…"))
        progress.setMinimumDuration(0)
        progress.canceled.connect(builder.cancel)
        builder.file_done.connect(self._on_file_indexed)  # a method of this object: queued to its thread
        builder.games_done.connect(self._on_games_indexed)
        builder.finished.connect(self._on_index_built)
        self.builder, self._build_progress = builder, progress
        progress.show()
        builder.start()
        return builder

    def _on_games_indexed(self, done: int, total: int) -> None:
        if self._build_progress is not None:
            self._build_progress.setRange(0, total)
            self._build_progress.setValue(done)

    def _on_file_indexed(self, name: str, games: int) -> None:
        if self._build_progress is not None:
            self._build_progress.setLabelText(tr("Indexed {name}: {games} games").format(name=name, games=games))

    def _on_index_built(self, result: BuildResult) -> None:
        if self._build_progress is not None:
            self._build_progress.close()
            self._build_progress.deleteLater()
            self._build_progress = None
        report = result.report
        if result.error:
            self.status.emit(tr("Could not read the position index: {reason}").format(reason=result.error))
            return
        text = tr("Indexed {files} files, {games} games; {skipped} unchanged skipped").format(
            files=report.files_added, games=report.games, skipped=report.files_skipped)
        if report.cancelled:
            text += " — " + tr("cancelled")
        self.status.emit(text)
        self.set_database(result.database)

    def play_move(self, move: Move) -> None:
        """A move double-clicked in the explorer: the recorded next move is stepped to; another
        is played as in analysis (a new variation where the record goes on)."""
        controller = self._controller
        if not controller.at_end() and move in controller.alternatives():
            controller.choose_alternative(controller.alternatives().index(move))
            return
        if controller.mode() is Mode.REPLAY:
            controller.set_mode(Mode.ANALYSIS)
        controller.play_move(move)

    def open_game(self, game: Game, ply: int) -> None:
        """A game double-clicked in the explorer, opened at the move where it reached the position
        (unsaved changes are saved or given up first)."""
        if not self.confirm_discard():
            return
        try:
            self._controller.load_game(game, Mode.REPLAY, ply=ply)
        except XqdeskError as error:
            self.status.emit(tr("Could not open {path}: {reason}").format(path=game.headers.get("Event", ""),
                                                                          reason=error))

    def shutdown(self) -> None:
        if self.builder is not None:
            self.builder.cancel()
            self.builder.wait()
        self.panel.shutdown()
