"""The windows the main window opens beside itself: fog of war and the engine tournament (one
each, kept while the main window lives)."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from xqdesk.ui.base.settings import SavedSettings
from xqdesk.ui.game.seat_dialogs import available_engines
from xqdesk.ui.windows.fog_window import FogGameWindow
from xqdesk.ui.windows.tournament_window import TournamentWindow


class ExtraWindows(QObject):
    """Opens, keeps and shuts down the fog-of-war and tournament windows of ``parent``."""

    def __init__(self, settings: SavedSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self._settings = settings
        self._window = parent
        self.fog_window: FogGameWindow | None = None
        self.tournament_window: TournamentWindow | None = None

    def open_fog(self) -> FogGameWindow:
        """*Game → Fog of war*: the fog-of-war window."""
        if self.fog_window is None:
            self.fog_window = FogGameWindow(self._window)
        self.fog_window.show()
        self.fog_window.raise_()
        return self.fog_window

    def open_tournament(self) -> TournamentWindow:
        """*Game → Engine tournament…*: the tournament window."""
        if self.tournament_window is None:
            settings = self._settings.current
            self.tournament_window = TournamentWindow(available_engines(settings), settings.last_directory,
                                                      self._window)
        self.tournament_window.show()
        self.tournament_window.raise_()
        return self.tournament_window

    def shutdown(self) -> None:
        for window in (self.fog_window, self.tournament_window):
            if window is not None:
                window.shutdown()
