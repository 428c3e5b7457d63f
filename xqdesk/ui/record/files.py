"""Opening and saving games in the window: file dialogs, course match folders and files with
several games (the game list), recent files, dropped files, unsaved changes and the autosave.

Reading and writing are the record formats' job (:mod:`xqdesk.formats`); this module only chooses
paths, shows the games and reports problems (in the window's banner, which stays until dismissed).
Every file and match folder is read in the background (:mod:`xqdesk.ui.record.game_loader`) with a
progress bar, a *Cancel* button and a busy cursor while the window stays usable. *Save as…* offers each writable format and, for PGN, the
notation of the moves (Chinese, WXF, ICCS); *Save* on a file xqdesk cannot write (XQF, a match
folder) offers *Save as…*. Opening another file or closing the window over unsaved changes asks
first (save, discard or cancel).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar, QWidget

from xqdesk.errors import XqdeskError
from xqdesk.formats import WRITE_EXTENSIONS
from xqdesk.formats.game_file import GameFile
from xqdesk.formats.game_stream import StoredGames
from xqdesk.formats.replace_game import (
    REPLACEABLE_SUFFIXES,
    GameNotReplaceable,
    GameSpans,
    file_stamp,
    find_game_spans,
    replace_game,
)
from xqdesk.game import Game
from xqdesk.notation import Notation
from xqdesk.ui.base.background import BackgroundJob, JobProgressBar
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.message_banner import BannerKind
from xqdesk.ui.base.reasons import tr_reason
from xqdesk.ui.base.settings import Settings
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.record.autosave import Autosave
from xqdesk.ui.record.game_list import GameRow, GameTable
from xqdesk.ui.record.game_loader import (
    blank_record_problem,
    load_record,
    pause_collector,
    read_record,
    resume_collector,
)
from xqdesk.ui.record.move_list import MoveList


class FileHost(Protocol):
    """What the file commands need of the window they serve (the main window is one)."""

    settings: Settings
    move_list: MoveList

    def update_settings(self, **changes: Any) -> None: ...

    def show_status(self, text: str) -> None: ...

    def show_important(self, text: str, kind: BannerKind = BannerKind.ERROR) -> None: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

    def window(self) -> QWidget: ...

OPEN_FILTER = ("*.pgn *.PGN *.xqf *.XQF *.txt *.fen *.FEN *.ubb *.htm *.html *.wxf *.cbr *.CBR *.cbl *.CBL "
               "*.cbf *.CBF")
WRITABLE_SUFFIXES = WRITE_EXTENSIONS
"""The file types xqdesk writes (the others, and match folders, are read only here)."""


@dataclass(frozen=True)
class SaveFormat:
    """A choice of the *Save as…* dialog: a file type and, for PGN, the notation of its moves."""

    suffix: str
    notation: Notation = Notation.ICCS

    def filter_text(self) -> str:
        """The file dialog's filter line for this choice (in the interface language)."""
        if self.suffix == ".pgn":
            names = {Notation.CHINESE: tr("PGN, Chinese notation"), Notation.WXF: tr("PGN, WXF notation"),
                     Notation.ICCS: tr("PGN, ICCS notation")}
            return f"{names[self.notation]} (*.pgn)"
        if self.suffix == ".txt":
            return f"{tr('Course history')} (*.txt)"
        if self.suffix == ".xqf":
            return "XQF (*.xqf)"
        if self.suffix == ".ubb":
            return "DhtmlXQ (*.ubb)"
        return f"{tr('FEN and moves')} (*.fen)"


SAVE_FORMATS = (SaveFormat(".pgn", Notation.CHINESE), SaveFormat(".pgn", Notation.WXF),
                SaveFormat(".pgn", Notation.ICCS), SaveFormat(".txt"), SaveFormat(".fen"), SaveFormat(".xqf"),
                SaveFormat(".ubb"))


def write_record(path: str | Path, games: list[Game], notation: Notation = Notation.ICCS) -> None:
    from xqdesk.formats import write_games

    write_games(path, games, notation)


class FileManager(QObject):
    """The window's file commands. ``autosave_path`` None means the user's data folder."""

    loading_finished = Signal(bool)  # a background read ended: whether a game was shown (False: failed or cancelled)

    def __init__(self, window: FileHost, controller: GameController, autosave_path: str | None = None) -> None:
        super().__init__(window.window())
        self._window = window
        self._controller = controller
        self.current_path: Path | None = None
        self.current_format: SaveFormat | None = None
        self.game_table: GameTable | None = None
        self.record: GameFile | None = None
        self.loader: BackgroundJob[tuple[GameFile, list[GameRow]]] | None = None
        self.progress_bar: JobProgressBar | None = None
        self.save_dialog: QFileDialog | None = None
        self.question: QMessageBox | None = None
        self.record_path: Path | None = None  # the file or folder ``record`` was read from
        self._record_stamp: tuple[int, int] | None = None  # its size and time when read
        self._spans: GameSpans | None = None  # where its games lie, once a game was saved into it
        self._clean: tuple[int, int] | None = None  # (id of the game, its revision) when last saved or opened
        self._shown: tuple[Game, int] | None = None  # the game of ``record`` shown last, and its index
        self._touched = False  # a person changed the game since (a move, a comment, a variation)
        controller.seats_changed.connect(self._note_new_game)
        controller.move_made.connect(self._note_move)
        controller.comment_changed.connect(lambda _ply: self._note_edit())
        controller.game_changed.connect(lambda: self._note_edit() if not controller.mode().is_play else None)
        self.autosave = Autosave(controller, Path(autosave_path) if autosave_path else None, self._report, self)

    # --- opening ---------------------------------------------------------------------------------
    def open_path(self, path: str | Path) -> bool:
        """Open a record file or match folder in the background (a reading still going on is
        cancelled first): one game is shown at once, several in the game list.
        ``loading_finished`` says how it ended; problems go to the banner. Returns True (the
        reading started)."""
        return self.open_in_background(Path(path))

    def open_path_asking(self, path: str | Path) -> bool:
        """Open ``path`` as the user asked: unsaved changes are saved or given up first."""
        return self.confirm_discard() and self.open_path(path)

    def open_in_background(self, path: Path) -> bool:
        """Read ``path`` in a thread with a progress bar, a *Cancel* button and a busy cursor;
        the window stays usable."""
        if self.loader is not None:
            self.loader.cancel()
            self.loader.wait()
            self._end_loading()
        loader: BackgroundJob[tuple[GameFile, list[GameRow]]] = BackgroundJob(
            tr("Reading {name}…").format(name=path.name), lambda progress: load_record(path, progress),
            (OSError, XqdeskError), self)
        self.loader = loader
        bar = JobProgressBar(loader)
        self.progress_bar = bar
        self._window.statusBar().addPermanentWidget(bar)
        QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        loader.finished.connect(lambda loaded, p=path, job=loader: self._on_loaded(job, p, *loaded))
        loader.failed.connect(lambda reason, p=path, job=loader: self._on_load_failed(job, p, reason))
        loader.cancelled.connect(lambda p=path, job=loader: self._on_load_cancelled(job, p))
        pause_collector()
        loader.start()
        return True

    def is_loading(self) -> bool:
        return self.loader is not None

    def cancel_loading(self) -> None:
        """Stop the reading in progress (the game on show stays); ``loading_finished(False)`` follows."""
        if self.progress_bar is not None:
            self.progress_bar.cancel_button.click()

    def _end_loading(self) -> None:
        if self.loader is not None:
            self.loader.wait()
            self.loader.deleteLater()
            self.loader = None
        if self.progress_bar is not None:
            self._window.statusBar().removeWidget(self.progress_bar)
            self.progress_bar.deleteLater()
            self.progress_bar = None
            QGuiApplication.restoreOverrideCursor()
            resume_collector()

    def _on_loaded(self, job: BackgroundJob, path: Path, record: GameFile, rows: list[GameRow]) -> None:
        if job is not self.loader:
            return  # a reading replaced by a newer one
        self._end_loading()
        several = len(record.games) > 1 or path.is_dir()
        shown_before = self._controller.game()
        shown = self._show_record(path, record, rows, first_game=not several)
        if not (shown and several):
            self.loading_finished.emit(shown)
            return
        # A collection: its list now, its first game in a later event-loop step, so the window's
        # thread never does both (and their layout and paint) without a break. A timer, not a
        # 0 ms call: Qt runs those with the list's layout and paint, before the timers due.
        QTimer.singleShot(1, self, lambda: self._show_first_game(record, shown_before))

    def _show_first_game(self, record: GameFile, shown_before: Game) -> None:
        """The second step of showing a collection read in the background: its first game, unless
        another file was opened or a game chosen from the list in between; then the reading ends
        (``loading_finished(True)``: the list was shown)."""
        if self.record is record and self.loader is None and self._controller.game() is shown_before:
            self.show_game(record, 0, ply=0)
        self.loading_finished.emit(True)

    def _on_load_failed(self, job: BackgroundJob, path: Path, reason: str) -> None:
        if job is not self.loader:
            return
        self._end_loading()
        self._report(tr("Could not open {path}: {reason}").format(path=path.name, reason=tr_reason(str(reason))))
        self.loading_finished.emit(False)

    def _on_load_cancelled(self, job: BackgroundJob, path: Path) -> None:
        if job is not self.loader:
            return
        self._end_loading()
        self._window.show_status(tr("Stopped reading {name}").format(name=path.name))
        self.loading_finished.emit(False)

    def _report(self, text: str) -> None:
        self._window.show_important(text, BannerKind.ERROR)

    def _show_record(self, path: Path, record: GameFile, rows: list[GameRow] | None = None,
                     first_game: bool = True) -> bool:
        """Show what was read from ``path``: its one game, or the game list and (``first_game``)
        its first game."""
        if not record.games:
            reason = record.errors[0] if record.errors else tr("no game in it")
            self._report(tr("Could not open {path}: {reason}").format(path=path.name, reason=tr_reason(str(reason))))
            return False
        self.current_path = path
        self.current_format = None
        self._window.update_settings(recent_files=self._window.settings.with_recent_file(str(path)).recent_files,
                                     last_directory=str(path.parent))
        shown = self.show_record(record, as_table=path.is_dir(), rows=rows, first_game=first_game)
        self.record_path = path
        try:
            self._record_stamp = file_stamp(path) if path.is_file() else None
        except OSError:
            self._record_stamp = None
        return shown

    def paste_game(self) -> bool:
        """*Edit → Paste game*: read the clipboard's text in whichever record format it is (PGN,
        DhtmlXQ, dpxq text, PlayOK WXF, XiangQi Bridge XML, FEN and moves, a move list …), show its
        games (unsaved changes saved or given up first) and say which format was found; a text in
        no format gets the reader's error."""
        from xqdesk.formats import read_games_text  # the formats package finds the format

        record = read_games_text(QGuiApplication.clipboard().text(), tr("clipboard"))
        blank = blank_record_problem(record)
        if not record.games or blank:
            reason = blank or (record.errors[0] if record.errors else tr("no game in it"))
            self._window.show_status(tr("Could not paste a game: {reason}").format(reason=tr_reason(str(reason))))
            return False
        if not self.confirm_discard():
            return False
        shown = self.show_record(record)
        if shown:
            self.current_path = None  # Save asks where: the pasted game is no file's
        if shown and not any(error.game_number == 1 for error in record.errors):
            self._window.show_status(tr("Pasted {count} games ({format})").format(
                count=len(record.games), format=record.format or "?"))
        return shown

    def show_record(self, record: GameFile, as_table: bool = False, rows: list[GameRow] | None = None,
                    first_game: bool = True) -> bool:
        """Show the games read: one at once, several (or a folder's) in the game list (``rows``:
        its rows when already made) with the first game on the board (``first_game`` False: the
        list only, the caller shows the game)."""
        self.record = record
        self.record_path = None  # a file's record: set by the caller
        self._record_stamp = None
        self._spans = None
        if len(record.games) == 1 and not as_table:
            return self.show_game(record, 0)
        if first_game:
            self.show_game(record, 0, ply=0)
        self.show_game_list(rows)
        return True

    def show_game_list(self, rows: list[GameRow] | None = None) -> GameTable | None:
        """*File → Game list*: (re)open the list of the last file with several games."""
        record = self.record
        if record is None or not record.games:
            self._window.show_status(tr("No file with several games is open"))
            return None
        if self.game_table is None or self.game_table.record is not record:
            if self.game_table is not None:
                self.game_table.close()
                self.game_table.deleteLater()
            self.game_table = GameTable(record, lambda row: self.confirm_discard() and self.show_game(record, row),
                                        self._window.window(), rows)
        self.game_table.show()
        self.game_table.raise_()
        return self.game_table

    def show_game(self, record: GameFile, index: int, ply: int | None = 0) -> bool:
        """Load game ``index`` of ``record`` in replay mode, at ``ply`` (None: the end)."""
        try:
            game = record.games[index]  # a big file's game is read from it now
            self._controller.load_game(game, Mode.REPLAY, ply=ply)
            self._shown = (game, index)
        except XqdeskError as error:
            self._report(tr("Could not open {path}: {reason}").format(path=record.source, reason=tr_reason(str(error))))
            return False
        self._mark_clean()
        for read_error in record.errors:
            if read_error.game_number == index + 1:
                self._window.show_status(str(read_error))
        return True

    def choose_and_open(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self._window.window(), tr("Open a game"), self._window.settings.last_directory,
            f"{tr('Game records')} ({OPEN_FILTER});;{tr('All files')} (*)")
        if path:
            self.open_path_asking(path)

    def choose_and_open_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self._window.window(), tr("Open match folder…"),
                                                self._window.settings.last_directory)
        if path:
            self.open_path_asking(path)

    # --- saving ------------------------------------------------------------------------------------
    def save_to(self, path: str | Path, notation: Notation | None = None) -> bool:
        """Write the current game to ``path`` (format by extension; PGN moves in ``notation``, by
        default the one chosen when the file was last saved, else the move list's); errors go to
        the banner."""
        path = Path(path)
        if notation is None:
            kept = self.current_format
            notation = kept.notation if kept is not None and kept.suffix == ".pgn" else self._window.move_list.notation()
        if self.holds_collection(path):
            return self._save_into_collection(notation)
        try:
            write_record(path, [self._controller.game()], notation)
        except (OSError, XqdeskError) as error:
            self._report(tr("Could not save {path}: {reason}").format(path=path.name, reason=tr_reason(str(error))))
            return False
        self.current_path = path
        self.current_format = SaveFormat(path.suffix.lower(), notation)
        self._mark_clean()
        self._window.update_settings(recent_files=self._window.settings.with_recent_file(str(path)).recent_files,
                                     last_directory=str(path.parent))
        self._window.show_status(f"{tr('Save')}: {path}")
        return True

    def holds_collection(self, path: Path | None) -> bool:
        """Whether ``path`` is the open file of several games (a *Save* there keeps all of them)."""
        record = self.record
        return (path is not None and record is not None and len(record.games) > 1 and self.record_path is not None
                and path.is_file() and _same_file(path, self.record_path))

    def can_save_in_place(self) -> bool:
        """Whether *Save* can write the current file as it is: a file of a type xqdesk writes and,
        for a file of several games, one whose games can be replaced one at a time (PGN, FEN and
        moves, DhtmlXQ)."""
        path = self.current_path
        if path is None or not path.is_file() or path.suffix.lower() not in WRITABLE_SUFFIXES:
            return False
        return not self.holds_collection(path) or path.suffix.lower() in REPLACEABLE_SUFFIXES

    def save(self) -> bool:
        """*Save*: write the current file. In a file of several games, the game on show replaces
        its own text and every other game stays as it was (:mod:`xqdesk.formats.replace_game`);
        where that cannot be done, *Save as…* is offered. A new game, or a file xqdesk cannot
        write (XQF, a match folder), is offered *Save as…* too. Returns whether the game was saved."""
        if self.holds_collection(self.current_path):
            return self._save_into_collection()
        if self.can_save_in_place():
            assert self.current_path is not None
            return self.save_to(self.current_path)
        if self.current_path is not None:
            answer = self.ask(tr("xqdesk cannot write {name} in its format. Save the game as another file?").format(
                name=self.current_path.name), QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Save:
                return False
        return self.choose_and_save()

    def _record_index(self) -> int | None:
        """Which game of the open record is on show (None: a game of no record, like a new one)."""
        game = self._controller.game()
        record = self.record
        if record is None:
            return None
        if self._shown is not None and self._shown[0] is game:
            return self._shown[1]
        if not isinstance(record.games, list):  # a big file's games are read when asked for: not all now
            return None
        return next((index for index, candidate in enumerate(record.games) if candidate is game), None)

    def _save_into_collection(self, notation: Notation | None = None) -> bool:
        """*Save* in a file of several games: write it back with the game on show in place of its
        old text, every other game's bytes kept. When that cannot be done (a damaged game, a file
        changed by another program since it was opened, a format of one game a file), or the game
        on show is none of the file's, ask to *Save as…* instead; nothing is written meanwhile."""
        path, record = self.current_path, self.record
        assert path is not None and record is not None
        index = self._record_index()
        if index is None:
            return self._offer_save_as(tr("The game on show is not one of the {count} games of {name}.").format(
                count=len(record.games), name=path.name))
        notation = notation or self._window.move_list.notation()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        try:
            spans = self._spans
            if spans is None or not _same_file(spans.path, path):
                spans = find_game_spans(path, len(record.games), self._record_stamp)
            old_text = spans.game_bytes(index)
            self._spans = replace_game(spans, index, self._controller.game(), notation)
            new_text = self._spans.game_bytes(index)
        except GameNotReplaceable as error:
            QGuiApplication.restoreOverrideCursor()
            return self._offer_save_as(tr("xqdesk cannot save this game alone into {name}: {reason}.").format(
                name=path.name, reason=tr_reason(str(error))))
        except (OSError, XqdeskError) as error:
            QGuiApplication.restoreOverrideCursor()
            self._report(tr("Could not save {path}: {reason}").format(path=path.name, reason=tr_reason(str(error))))
            return False
        QGuiApplication.restoreOverrideCursor()
        self._record_stamp = self._spans.stamp
        if isinstance(record.games, StoredGames):  # its other games are read from the rewritten file
            record.games.follow_rewrite(index, self._controller.game(), len(new_text) - len(old_text),
                                        new_text.count(b"\n") - old_text.count(b"\n"))
        else:
            record.games[index] = self._controller.game()
        self._mark_clean()
        self._window.show_status(tr("Saved game {number} of {count} in {path}").format(
            number=index + 1, count=len(record.games), path=path))
        return True

    def _offer_save_as(self, why: str) -> bool:
        """Say ``why`` the file on show cannot take the game, and offer *Save as…*."""
        answer = self.ask(why + " " + tr("Save the game as another file?"),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Save:
            return False
        return self.choose_and_save()

    def choose_and_save(self) -> bool:
        """*Save as…*: a file dialog offering each format (PGN in each notation, course history,
        FEN and moves); the name gets the chosen format's extension when it has none."""
        dialog = QFileDialog(self._window.window(), tr("Save the game"), self._window.settings.last_directory)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        filters = [choice.filter_text() for choice in SAVE_FORMATS]
        dialog.setNameFilters(filters)
        preferred = self.current_format or SaveFormat(".pgn", self._window.move_list.notation())
        if preferred in SAVE_FORMATS:
            dialog.selectNameFilter(filters[SAVE_FORMATS.index(preferred)])
        if self.current_path is not None:
            dialog.selectFile(self.current_path.stem)
        self.save_dialog = dialog
        try:
            if dialog.exec() != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
                return False
            chosen = SAVE_FORMATS[filters.index(dialog.selectedNameFilter())] \
                if dialog.selectedNameFilter() in filters else preferred
            path = Path(dialog.selectedFiles()[0])
        finally:
            self.save_dialog = None
            dialog.deleteLater()
        if path.suffix.lower() not in WRITABLE_SUFFIXES:
            path = path.with_name(path.name + chosen.suffix)
        return self.save_to(path, chosen.notation if path.suffix.lower() == ".pgn" else None)

    # --- unsaved changes -----------------------------------------------------------------------
    def _revision(self) -> tuple[int, int]:
        """The game on show and its revision: compared, never written out (a big tree takes a
        quarter of a second to write as PGN)."""
        return id(self._controller.game()), self._controller.revision

    def _mark_clean(self) -> None:
        self._clean = self._revision()
        self._touched = False

    def _note_edit(self) -> None:
        self._touched = True

    def _note_move(self, _move: object) -> None:
        """A move added by a person (an engine's move in a game it plays is no edit of the user's:
        a watched engine game is kept by the autosave)."""
        controller = self._controller
        mover = not controller.board().turn  # the side that just moved
        if not controller.mode().is_play or controller.seat(mover) is None:
            self._touched = True

    def _note_new_game(self) -> None:
        """A new game or record: it has nothing unsaved yet (a mode switch keeps the same game)."""
        if self._clean is None or self._clean[0] != id(self._controller.game()):
            self._mark_clean()

    def has_unsaved_changes(self) -> bool:
        """Whether a person changed the game (moves, comments, variations) since it was last saved,
        opened or started."""
        game = self._controller.game()
        if not self._touched or (not game.mainline_moves() and not game.comment and not game.variations):
            return False
        return self._clean is None or self._clean != self._revision()

    def confirm_discard(self) -> bool:
        """Before the game is replaced or the window closes: with unsaved changes, ask whether to
        save them (then save), discard them, or cancel. True when it may go ahead. The game's last
        changes are autosaved first, so the game replaced next is whole in the second slot."""
        if self.autosave.pending():
            self.autosave.write_now()
        if not self.has_unsaved_changes():
            return True
        answer = self.ask(tr("The game has unsaved changes. Save them?"),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def ask(self, text: str, buttons: QMessageBox.StandardButton) -> QMessageBox.StandardButton:
        """A modal question to the user (kept in :attr:`question` while it is open)."""
        box = QMessageBox(QMessageBox.Icon.Question, tr("xqdesk"), text, buttons, self._window.window())
        self.question = box
        try:
            return QMessageBox.StandardButton(box.exec())
        finally:
            self.question = None
            box.deleteLater()

    # --- the autosaved games ------------------------------------------------------------------
    def restore_autosave(self) -> bool:
        """Open the autosaved game, at its end, for analysis (False when there is none)."""
        if not self.autosave.path.is_file():
            return False
        try:
            record = read_record(self.autosave.path)
        except (OSError, XqdeskError):
            return False
        if not record.games or record.errors:
            return False
        try:
            self._controller.load_game(record.games[0], Mode.ANALYSIS, ply=None)
        except XqdeskError:
            return False
        self._mark_clean()
        self.autosave.note_restored()
        return True

    def restore_previous_autosave(self) -> bool:
        """*File → Open previous autosave*: the game autosaved before the current autosave's one,
        opened for analysis. Nothing is lost: the game on show is autosaved as it stands first,
        and moves to the second slot when the restored game is autosaved. False when there is
        no previous autosave (or it cannot be read: the banner says why)."""
        path = self.autosave.previous_path
        if not path.is_file():
            self._window.show_status(tr("There is no previous autosave"))
            return False
        try:
            record = read_record(path)
            if not record.games:
                raise XqdeskError(str(record.errors[0]) if record.errors else tr("no game in it"))
            self.autosave.write_now()
            self._controller.load_game(record.games[0], Mode.ANALYSIS, ply=None)
        except (OSError, XqdeskError) as error:
            self._report(tr("Could not open {path}: {reason}").format(path=path.name, reason=tr_reason(str(error))))
            return False
        self._mark_clean()
        return True



def _same_file(first: Path, second: Path) -> bool:
    """Whether two paths name the same file (links and relative parts followed)."""
    try:
        return first.resolve() == second.resolve()
    except OSError:
        return first == second
