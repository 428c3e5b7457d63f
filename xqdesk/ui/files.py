"""Opening and saving games in the window: file dialogs, course match folders (a table of the
match's games), files with several games, recent files, dropped files and the autosave.

Reading and writing are the record formats' job (:mod:`xqdesk.formats`); this module only chooses
paths, shows the games and reports problems in the status bar.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QStandardPaths, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView, QDialog, QFileDialog, QHeaderView, QLabel, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from xqdesk.errors import XqdeskError
from xqdesk.formats.course_match import is_course_match_folder, read_match_games
from xqdesk.formats.game_file import GameFile
from xqdesk.game import Game
from xqdesk.ui.game_controller import GameController, Mode
from xqdesk.ui.i18n import tr, tr_outcome

if TYPE_CHECKING:
    from xqdesk.ui.main_window import MainWindow

AUTOSAVE_DELAY_MS = 300
"""The autosave waits this long after a change for more changes (one write for a burst)."""
AUTOSAVE_MAX_WAIT_MS = 1000
"""…but never longer than this after the first unsaved change, however fast changes come."""
AUTOSAVE_NAME = "autosave.pgn"
OPEN_FILTER = ("*.pgn *.PGN *.xqf *.XQF *.txt *.fen *.FEN *.ubb *.htm *.html *.wxf *.cbr *.CBR *.cbl *.CBL "
               "*.cbf *.CBF")
SAVE_FILTERS = ("PGN (*.pgn)", "Course history (*.txt)", "FEN and moves (*.fen)", "XQF (*.xqf)", "DhtmlXQ (*.ubb)")


def default_autosave_path() -> Path:
    """Where the current game is kept between runs (the user's application data folder)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder or Path.home() / ".xqdesk") / AUTOSAVE_NAME


def read_record(path: str | Path) -> GameFile:
    """The games at ``path``: a course match folder, or a record file of any known format."""
    if Path(path).is_dir():
        if not is_course_match_folder(path):
            raise XqdeskError(f"{str(path)!r} is a folder but not a course match folder (no summary.txt)")
        return read_match_games(path)
    from xqdesk.formats import read_games  # the formats package picks the reader by content

    return read_games(path)


def write_record(path: str | Path, games: list[Game]) -> None:
    from xqdesk.formats import write_games

    write_games(path, games)


class GameTable(QDialog):
    """The games of a match folder or a multi-game file: players, result, reason; double-click
    (or Enter) opens one in the window. Not modal: the window stays usable beside it."""

    COLUMNS = ("Game", "Red", "Black", "Result", "Reason")

    def __init__(self, record: GameFile, open_game: Callable[[int], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self._open_game = open_game
        self.setWindowTitle(f"{tr('Games')} — {record.source}")
        self.table = QTableWidget(len(record.games), len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels([tr(column) for column in self.COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        damaged = record.damaged_game_numbers
        for row, game in enumerate(record.games):
            outcome = game.outcome
            number = game.headers.get("Round") or game.headers.get("Game") or str(row + 1)
            values = (number, game.headers.get("Red", ""), game.headers.get("Black", ""),
                      outcome.result() if outcome else game.headers.get("Result", "*"),
                      (tr_outcome(outcome.text) if outcome else "") + ("  ⚠" if row + 1 in damaged else ""))
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.cellDoubleClicked.connect(lambda row, _column: self._open_game(row))
        self.table.cellActivated.connect(lambda row, _column: self._open_game(row))
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        if record.errors:
            problems = QLabel("\n".join(str(error) for error in record.errors[:5]))
            problems.setWordWrap(True)
            problems.setStyleSheet("color: #a00;")
            layout.addWidget(problems)
        self.resize(720, 320)

    def row_center(self, row: int) -> QPoint:
        """Viewport position of a row's first cell (for tests)."""
        item = self.table.item(row, 0)
        if item is None:
            raise IndexError(f"the game table has no row {row!r}")
        return self.table.visualItemRect(item).center()


class FileManager(QObject):
    """The window's file commands. ``autosave_path`` None means the user's data folder."""

    def __init__(self, window: MainWindow, controller: GameController, autosave_path: str | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._controller = controller
        self.current_path: Path | None = None
        self.game_table: GameTable | None = None
        self.autosave_path = Path(autosave_path) if autosave_path else default_autosave_path()
        # A change (re)starts the short timer; the first unsaved change also starts the long one,
        # which a later change does not restart: a game changing faster than the short delay
        # (engines moving every 0.1 s) is still saved at least every AUTOSAVE_MAX_WAIT_MS.
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave_timer.timeout.connect(self.autosave_now)
        self._autosave_deadline = QTimer(self)
        self._autosave_deadline.setSingleShot(True)
        self._autosave_deadline.setInterval(AUTOSAVE_MAX_WAIT_MS)
        self._autosave_deadline.timeout.connect(self.autosave_now)
        controller.game_changed.connect(self.schedule_autosave)
        controller.comment_changed.connect(lambda _ply: self.schedule_autosave())
        controller.game_over.connect(lambda _outcome: self.schedule_autosave())

    # --- opening ---------------------------------------------------------------------------------
    def open_path(self, path: str | Path) -> bool:
        """Open a record file or match folder; one game is shown at once, several in a table.
        Problems go to the status bar; returns whether a game was shown or listed."""
        path = Path(path)
        try:
            record = read_record(path)
        except (OSError, XqdeskError) as error:
            self._window.show_status(tr("Could not open {path}: {reason}").format(path=path.name, reason=error))
            return False
        if not record.games:
            reason = record.errors[0] if record.errors else tr("no game in it")
            self._window.show_status(tr("Could not open {path}: {reason}").format(path=path.name, reason=reason))
            return False
        self.current_path = path
        self._window.update_settings(recent_files=self._window.settings.with_recent_file(str(path)).recent_files,
                                     last_directory=str(path.parent))
        return self.show_record(record, as_table=path.is_dir())

    def paste_game(self) -> bool:
        """*Edit → Paste game*: read the clipboard's text in whichever record format it is (PGN,
        DhtmlXQ, dpxq text, PlayOK WXF, XiangQi Bridge XML, FEN and moves, a move list …), show its
        games and say which format was found; a text in no format gets the reader's error."""
        from xqdesk.formats import read_games_text  # the formats package finds the format

        record = read_games_text(QGuiApplication.clipboard().text(), tr("clipboard"))
        if not record.games:
            reason = record.errors[0] if record.errors else tr("no game in it")
            self._window.show_status(tr("Could not paste a game: {reason}").format(reason=reason))
            return False
        shown = self.show_record(record)
        if shown:
            self.current_path = None  # Save asks where: the pasted game is no file's
        if shown and not any(error.game_number == 1 for error in record.errors):
            self._window.show_status(tr("Pasted {count} games ({format})").format(
                count=len(record.games), format=record.format or "?"))
        return shown

    def show_record(self, record: GameFile, as_table: bool = False) -> bool:
        """Show the games read: one at once, several (or a folder's) in a table of games."""
        if len(record.games) == 1 and not as_table:
            return self.show_game(record, 0)
        if self.game_table is not None:
            self.game_table.close()
            self.game_table.deleteLater()
        self.game_table = GameTable(record, lambda row: self.show_game(record, row), self._window)
        self.game_table.show()
        self.show_game(record, 0, ply=0)
        return True

    def show_game(self, record: GameFile, index: int, ply: int | None = 0) -> bool:
        """Load game ``index`` of ``record`` in replay mode, at ``ply`` (None: the end)."""
        game = record.games[index]
        try:
            self._controller.load_game(game, Mode.REPLAY, ply=ply)
        except XqdeskError as error:
            self._window.show_status(tr("Could not open {path}: {reason}").format(path=record.source, reason=error))
            return False
        for read_error in record.errors:
            if read_error.game_number == index + 1:
                self._window.show_status(str(read_error))
        return True

    def choose_and_open(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self._window, tr("Open a game"), self._window.settings.last_directory,
            f"{tr('Game records')} ({OPEN_FILTER});;{tr('All files')} (*)")
        if path:
            self.open_path(path)

    def choose_and_open_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self._window, tr("Open match folder…"),
                                                self._window.settings.last_directory)
        if path:
            self.open_path(path)

    # --- saving ------------------------------------------------------------------------------------
    def save_to(self, path: str | Path) -> bool:
        """Write the current game to ``path`` (format by extension); errors go to the status bar."""
        path = Path(path)
        try:
            write_record(path, [self._controller.game()])
        except (OSError, XqdeskError) as error:
            self._window.show_status(tr("Could not save {path}: {reason}").format(path=path.name, reason=error))
            return False
        self.current_path = path
        self._window.update_settings(recent_files=self._window.settings.with_recent_file(str(path)).recent_files)
        self._window.show_status(f"{tr('Save')}: {path}")
        return True

    def save(self) -> None:
        if self.current_path is not None and self.current_path.is_file():
            self.save_to(self.current_path)
        else:
            self.choose_and_save()

    def choose_and_save(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self._window, tr("Save the game"),
                                                   self._window.settings.last_directory, ";;".join(SAVE_FILTERS))
        if not path:
            return
        if not Path(path).suffix:
            path += {SAVE_FILTERS[1]: ".txt", SAVE_FILTERS[2]: ".fen", SAVE_FILTERS[3]: ".xqf",
                     SAVE_FILTERS[4]: ".ubb"}.get(chosen, ".pgn")
        self.save_to(path)

    # --- autosave ----------------------------------------------------------------------------------
    def schedule_autosave(self) -> None:
        """Autosave after :data:`AUTOSAVE_DELAY_MS` without a change, and at the latest
        :data:`AUTOSAVE_MAX_WAIT_MS` after the first change not yet saved."""
        self._autosave_timer.start()
        if not self._autosave_deadline.isActive():
            self._autosave_deadline.start()

    def autosave_pending(self) -> bool:
        """True while a change waits to be autosaved."""
        return self._autosave_timer.isActive() or self._autosave_deadline.isActive()

    def autosave_now(self) -> None:
        """Write the current game to the autosave file (atomically: a kill mid-write loses nothing)."""
        self._autosave_timer.stop()
        self._autosave_deadline.stop()
        target = self.autosave_path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".partial" + target.suffix)
            write_record(partial, [self._controller.game()])
            partial.replace(target)
        except (OSError, XqdeskError) as error:
            self._window.show_status(tr("Could not save {path}: {reason}").format(path=target.name, reason=error))

    def restore_autosave(self) -> bool:
        """Open the autosaved game, at its end, for analysis (False when there is none)."""
        if not self.autosave_path.is_file():
            return False
        try:
            record = read_record(self.autosave_path)
        except (OSError, XqdeskError):
            return False
        if not record.games or record.errors:
            return False
        try:
            self._controller.load_game(record.games[0], Mode.ANALYSIS, ply=None)
        except XqdeskError:
            return False
        return True

