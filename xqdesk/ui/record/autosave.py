"""The autosave: the game on show written to the user's data folder soon after every change,
so a crash or a kill loses at most about a second of it; the game autosaved before it is kept in
a second slot (``autosave.previous.pgn``).

Opening an autosaved game is the file commands' job (:class:`xqdesk.ui.record.files.FileManager`); this
room only decides when to write, and writes.

The writing (the game written out as PGN, a quarter of a second for a big annotated tree, and the
file) happens on a thread of its own, one write at a time, so the window never waits for it after
a move or a comment. The game is read there while the window may change it: a write during which
the game changed (the controller's :attr:`~xqdesk.ui.game.game_controller.GameController.revision`
moved on) is thrown away before it replaces the file, and the change's own autosave follows —
written out on the window's thread when the game is quick to write out, since a game that changes
faster than the writing thread reads it (engines moving every 0.05 s on a busy machine) would
otherwise never be saved.
:meth:`Autosave.write_now` writes at once and waits, for the moments that need the file whole
(before a game is replaced, when the window closes).
"""
from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from xqdesk.errors import XqdeskError
from xqdesk.game import Game
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.reasons import tr_reason
from xqdesk.ui.game.game_controller import GameController

AUTOSAVE_DELAY_MS = 300
"""The autosave waits this long after a change for more changes (one write for a burst)."""
AUTOSAVE_MAX_WAIT_MS = 1000
"""…but never longer than this after the first unsaved change, however fast changes come."""
FORMAT_HERE_SECONDS = 0.05
"""A game that changed while the writing thread read it is written out on the window's thread
instead when writing it out took no more than this many seconds of CPU last time (a game of moves,
not a big annotated tree), so that the window never waits long for it."""
AUTOSAVE_NAME = "autosave.pgn"
PREVIOUS_AUTOSAVE_SUFFIX = ".previous"
"""The second slot: ``autosave.previous.pgn`` keeps the game autosaved before the current one."""


def default_autosave_path() -> Path:
    """Where the current game is kept between runs (the user's application data folder)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder or Path.home() / ".xqdesk") / AUTOSAVE_NAME


class Autosave(QObject):
    """Writes ``controller``'s game to :attr:`path` after each change (see :meth:`schedule`);
    ``report`` is told, in the interface language, when a write fails."""

    _failed = Signal(str)  # why a write failed (emitted by the writing thread)
    _overtaken_by_a_change = Signal()  # a write was thrown away: the game changed while it was read

    def __init__(self, controller: GameController, path: Optional[Path], report: Callable[[str], None],
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._report = report
        self.path = path or default_autosave_path()
        self._written_game: int | None = None  # id() of the game last autosaved in this run
        self._restored = False  # the window started with the autosaved game
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._in_flight: Future[Optional[str]] | None = None
        self._overtaken = False  # the last write was thrown away: the game changed while it was read
        self._format_seconds = 0.0  # how long the last game took to write out as PGN
        self._failed.connect(self._on_failed)
        self._overtaken_by_a_change.connect(self._write_overtaken_game)
        # A change (re)starts the short timer; the first unsaved change also starts the long one,
        # which a later change does not restart: a game changing faster than the short delay
        # (engines moving every 0.1 s) is still saved at least every AUTOSAVE_MAX_WAIT_MS.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.write_soon)
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(AUTOSAVE_MAX_WAIT_MS)
        self._deadline.timeout.connect(self.write_soon)
        controller.game_changed.connect(self.schedule)
        controller.comment_changed.connect(lambda _ply: self.schedule())
        controller.game_over.connect(lambda _outcome: self.schedule())

    @property
    def previous_path(self) -> Path:
        """The second slot: the game autosaved before the one in :attr:`path`."""
        return self.path.with_name(self.path.stem + PREVIOUS_AUTOSAVE_SUFFIX + self.path.suffix)

    def schedule(self) -> None:
        """Autosave after :data:`AUTOSAVE_DELAY_MS` without a change, and at the latest
        :data:`AUTOSAVE_MAX_WAIT_MS` after the first change not yet saved."""
        self._timer.start()
        if not self._deadline.isActive():
            self._deadline.start()

    def pending(self) -> bool:
        """True while a change waits to be autosaved (or its write is still going on)."""
        return self._timer.isActive() or self._deadline.isActive() or self._writing()

    def note_restored(self) -> None:
        """The game on show is the one read from :attr:`path` (it is not moved to the second slot)."""
        self._restored = True
        self._written_game = id(self._controller.game())

    def write_soon(self) -> None:
        """Start writing the current game on the writing thread (the window goes on at once);
        while a write is still going on, this one waits for the next round."""
        self._timer.stop()
        self._deadline.stop()
        if self._writing():
            self.schedule()
            return
        write = self._start_write(wait_for_changes=True)
        write.add_done_callback(self._report_from_writer)
        self._in_flight = write

    def write_now(self) -> None:
        """Write the current game to the autosave file now and wait until it is written (atomically:
        a kill or a full disk mid-write loses nothing). When it is another game than the one
        autosaved last, that one is copied to the second slot first, so replacing a game never loses it to the autosave
        within a second."""
        self._timer.stop()
        self._deadline.stop()
        if self._in_flight is not None:
            self._in_flight.result()  # the write before it ends first (it may move a slot)
        failure = self._start_write(wait_for_changes=False).result()
        self._in_flight = None
        if failure:
            self._report(failure)

    def _report_from_writer(self, write: Future[Optional[str]]) -> None:
        """On the writing thread: a failed write's message, handed to the window's thread."""
        failure = write.result()
        if failure:
            self._failed.emit(failure)
        elif self._overtaken:
            self._overtaken_by_a_change.emit()

    def _write_overtaken_game(self) -> None:
        """A write was overtaken by a change: a game quick to write out is written out now, on this
        thread; a big one waits for the change's own autosave (a person is editing it)."""
        if self._formats_here():
            self.write_soon()

    def _formats_here(self) -> bool:
        """Whether the next write reads the game on the window's thread: the last one was overtaken
        by a change, and the game is quick to write out."""
        return self._overtaken and self._format_seconds <= FORMAT_HERE_SECONDS

    def _writing(self) -> bool:
        return self._in_flight is not None and not self._in_flight.done()

    def _start_write(self, wait_for_changes: bool) -> Future[Optional[str]]:
        """Hand the current game to the writing thread. Which slot the file already there goes to
        is decided here, in the window's thread; ``wait_for_changes``: the write is thrown away
        when the game changes while it is read (the window's thread then is not waiting).

        A game that changed under the last write and is quick to write out (an engine game moving
        every 0.05 s, not a big annotated tree) is written out here instead, so that a game
        changing faster than the writing thread reads it still reaches the file within the
        second."""
        game = self._controller.game()
        target = self.path
        rotate = (self._written_game is not None and self._written_game != id(game)) or \
                 (self._written_game is None and not self._restored)  # the last run's game, not shown in this one
        self._written_game = id(game)
        if wait_for_changes and self._formats_here():
            self._overtaken = False
            return self._writer.submit(self._write, self._formatted(game), target, rotate, None)
        revision = self._controller.revision if wait_for_changes else None
        return self._writer.submit(self._write, game, target, rotate, revision)

    def _formatted(self, game: Game) -> str:
        """``game`` as PGN text; how long that took is kept in :attr:`_format_seconds`."""
        from xqdesk.formats.pgn import format_pgn

        started = time.thread_time()  # its own work, not the time it waited for the other threads
        text = format_pgn(game)
        self._format_seconds = time.thread_time() - started
        return text

    def _write(self, game: Game | str, target: Path, rotate: bool, revision: Optional[int]) -> Optional[str]:
        """On the writing thread: ``game`` (or its PGN text) to ``target``, whole or not at all, the
        file there first copied to the second slot when ``rotate``; nothing replaced when
        ``revision`` is no longer the controller's once the game is read (it changed meanwhile).
        The message to show when it could not be written, else None."""
        from xqdesk.formats.atomic_write import write_bytes_atomically, write_text_atomically

        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if rotate and target.is_file():  # a copy: both slots stay whole if the write fails
                write_bytes_atomically(self.previous_path, target.read_bytes())
            try:
                text = game if isinstance(game, str) else self._formatted(game)
            except Exception:  # noqa: BLE001 - a tree changed mid-read can fail in any way
                if not self._changed_since(revision):
                    raise
            self._overtaken = self._changed_since(revision)
            if self._overtaken:
                return None  # the change's own autosave follows
            write_text_atomically(target, text)
        except (OSError, XqdeskError) as error:
            return tr("Could not save {path}: {reason}").format(path=target.name, reason=tr_reason(str(error)))
        return None

    def _changed_since(self, revision: Optional[int]) -> bool:
        """Whether the game changed after ``revision`` was taken (never, for None: nothing to watch)."""
        return revision is not None and revision != self._controller.revision

    def _on_failed(self, message: str) -> None:
        self._report(message)
