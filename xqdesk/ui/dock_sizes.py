"""The sizes of the window's docks: their first sizes once the window is laid out, and the engine
dock folding to one line while the engine panel has nothing to show (the move list gets the
height) and unfolding to the height it had when it has again."""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from xqdesk.ui.analysis.engine_panel import EnginePanel

ENGINE_DOCK_HEIGHT = 300
ENGINE_DOCK_SHARE = 0.22
"""The engine dock's first height: ENGINE_DOCK_HEIGHT, or this share of a shorter window."""
EXPLORER_DOCK_WIDTH = 430
"""The explorer dock's first width."""


class DockSizes(QObject):
    """Sizes ``window``'s engine dock (holding ``panel``) and explorer dock."""

    def __init__(self, window: QMainWindow, engine_dock: QDockWidget, panel: EnginePanel,
                 explorer_dock: QDockWidget) -> None:
        super().__init__(window)
        self._window = window
        self._engine_dock = engine_dock
        self._panel = panel
        self._explorer_dock = explorer_dock
        self.sized = False
        """Whether the first sizes were given (they only take once the window is laid out)."""
        self._engine_height = ENGINE_DOCK_HEIGHT
        """The engine dock's height while it has something to show."""
        panel.occupied_changed.connect(self._on_panel_occupied)

    def size_once(self) -> None:
        """The first sizes (call when the window is shown; later calls do nothing)."""
        if self.sized:
            return
        self.sized = True
        window = self._window
        self._engine_height = min(ENGINE_DOCK_HEIGHT, int(window.height() * ENGINE_DOCK_SHARE))
        if self._panel.is_occupied():
            window.resizeDocks([self._engine_dock], [self._engine_height], Qt.Orientation.Vertical)
        window.resizeDocks([self._explorer_dock], [EXPLORER_DOCK_WIDTH], Qt.Orientation.Horizontal)

    def _on_panel_occupied(self, occupied: bool) -> None:
        """The engine panel folded (nothing to show: the move list gets the height) or unfolded
        (the dock gets back the height it had, or its first one)."""
        dock, window = self._engine_dock, self._window
        if dock.isFloating() or window.dockWidgetArea(dock) not in (Qt.DockWidgetArea.BottomDockWidgetArea,
                                                                    Qt.DockWidgetArea.TopDockWidgetArea):
            return
        if not occupied:
            if self.sized and dock.height() > 2 * self._panel.maximumHeight():
                self._engine_height = dock.height()  # as the user left it
            return
        if self.sized:
            QTimer.singleShot(0, self, lambda: window.resizeDocks([dock], [self._engine_height],
                                                                  Qt.Orientation.Vertical))
