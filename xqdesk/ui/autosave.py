"""The autosave: the game on show written to the user's data folder soon after every change,
so a crash or a kill loses at most about a second of it; the game autosaved before it is kept in
a second slot (``autosave.previous.pgn``).

Opening an autosaved game is the file commands' job (:class:`xqdesk.ui.files.FileManager`); this
room only decides when to write, and writes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from xqdesk.errors import XqdeskError
from xqdesk.ui.game_controller import GameController
from xqdesk.ui.i18n import tr
from xqdesk.ui.reasons import tr_reason

AUTOSAVE_DELAY_MS = 300
"""The autosave waits this long after a change for more changes (one write for a burst)."""
AUTOSAVE_MAX_WAIT_MS = 1000
"""…but never longer than this after the first unsaved change, however fast changes come."""
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

    def __init__(self, controller: GameController, path: Optional[Path], report: Callable[[str], None],
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._report = report
        self.path = path or default_autosave_path()
        self._written_game: int | None = None  # id() of the game last autosaved in this run
        self._restored = False  # the window started with the autosaved game
        # A change (re)starts the short timer; the first unsaved change also starts the long one,
        # which a later change does not restart: a game changing faster than the short delay
        # (engines moving every 0.1 s) is still saved at least every AUTOSAVE_MAX_WAIT_MS.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.write_now)
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(AUTOSAVE_MAX_WAIT_MS)
        self._deadline.timeout.connect(self.write_now)
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
        """True while a change waits to be autosaved."""
        return self._timer.isActive() or self._deadline.isActive()

    def note_restored(self) -> None:
        """The game on show is the one read from :attr:`path` (it is not moved to the second slot)."""
        self._restored = True
        self._written_game = id(self._controller.game())

    def write_now(self) -> None:
        """Write the current game to the autosave file (atomically: a kill or a full disk mid-write
        loses nothing, the last autosave stays whole). When it is another game than the one
        autosaved last, that one is copied to the second slot first, so replacing a game never loses it to the autosave within a second."""
        from xqdesk.formats import write_games
        from xqdesk.formats.atomic_write import write_bytes_atomically

        self._timer.stop()
        self._deadline.stop()
        target = self.path
        game = self._controller.game()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_file() and self._written_game is not None and self._written_game != id(game):
                write_bytes_atomically(self.previous_path, target.read_bytes())
            elif target.is_file() and self._written_game is None and not self._restored:
                # the last run's game, not shown in this one
                write_bytes_atomically(self.previous_path, target.read_bytes())
            write_games(target, [game])  # atomic: a full disk leaves the last autosave whole
            self._written_game = id(game)
        except (OSError, XqdeskError) as error:
            self._report(tr("Could not save {path}: {reason}").format(path=target.name, reason=tr_reason(str(error))))
