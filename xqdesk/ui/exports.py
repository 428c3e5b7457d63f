"""Pictures of the game: the board as shown as a PNG or SVG file or on the clipboard, and the line
on show as an animated GIF."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

from xqdesk.errors import XqdeskError
from xqdesk.ui.board_view import BoardView
from xqdesk.ui.game_controller import GameController
from xqdesk.ui.i18n import tr
from xqdesk.ui.pictures import DEFAULT_GIF_DELAY, copy_picture, line_scenes, save_gif, save_picture
from xqdesk.ui.settings import SavedSettings

PICTURE_WIDTH = 720
"""Width in pixels of the pictures the window exports (PNG, GIF frames, the clipboard)."""
PICTURE_FILTERS = ("PNG (*.png)", "SVG (*.svg)")


class Exports(QObject):
    """Writes pictures of ``board`` and of ``controller``'s game; ``status(str)`` reports."""

    status = Signal(str)

    def __init__(self, controller: GameController, board: BoardView, settings: SavedSettings,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._board = board
        self._settings = settings
        self._window = parent

    def export_position(self, path: str) -> bool:
        """Write the board as shown (orientation, coordinates, arrows, last move) to a PNG or SVG."""
        try:
            save_picture(self._board.scene(), path, PICTURE_WIDTH)
        except (OSError, XqdeskError) as error:
            self.status.emit(tr("Could not save {path}: {reason}").format(path=path, reason=error))
            return False
        self.status.emit(tr("Wrote {path}").format(path=path))
        return True

    def choose_and_export_position(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self._window, tr("Export position…"),
                                                   self._settings.current.last_directory, ";;".join(PICTURE_FILTERS))
        if path:
            if not path.lower().endswith((".png", ".svg")):
                path += ".svg" if chosen == PICTURE_FILTERS[1] else ".png"
            self.export_position(path)

    def copy_position_picture(self) -> None:
        copy_picture(self._board.scene(), PICTURE_WIDTH)
        self.status.emit(tr("Copy position picture"))

    def export_gif(self, path: str, delay: float) -> bool:
        """Write the line on show, from the start to its end, as an animated GIF (``delay`` s a move)."""
        scene = self._board.scene()
        try:
            scenes = line_scenes(self._controller.game(), self._controller.line_moves(), flipped=scene.flipped,
                                 coordinates=scene.coordinates)
            save_gif(scenes, path, PICTURE_WIDTH, delay)
        except (OSError, XqdeskError) as error:
            self.status.emit(tr("Could not save {path}: {reason}").format(path=path, reason=error))
            return False
        self.status.emit(tr("Wrote {path}").format(path=path))
        return True

    def choose_and_export_gif(self) -> None:
        delay, accepted = QInputDialog.getDouble(self._window, tr("Export game as GIF…"), tr("Seconds between moves"),
                                                 DEFAULT_GIF_DELAY, 0.05, 60.0, 2)
        if not accepted:
            return
        path, _filter = QFileDialog.getSaveFileName(self._window, tr("Export game as GIF…"),
                                                    self._settings.current.last_directory, "GIF (*.gif)")
        if path:
            self.export_gif(path if path.lower().endswith(".gif") else path + ".gif", delay)
