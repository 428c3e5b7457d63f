"""Pictures of the game: the board as shown as a PNG or SVG file or on the clipboard, the line on
show as an animated GIF and the main line as a PDF (both written in the background by
:class:`~xqdesk.ui.exports.export_jobs.GameExports`, with progress and Cancel)."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QWidget

from xqdesk.errors import XqdeskError
from xqdesk.notation import Notation
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import SavedSettings
from xqdesk.ui.board.board_view import BoardView
from xqdesk.ui.exports.export_jobs import GameExports, PdfDialog
from xqdesk.ui.exports.pictures import DEFAULT_GIF_DELAY, copy_picture, line_scenes, save_picture
from xqdesk.ui.game.game_controller import GameController
from xqdesk.ui.record.move_list import MoveList

PICTURE_WIDTH = 720
"""Width in pixels of the pictures the window exports (PNG, GIF frames, the clipboard)."""
PICTURE_FILTERS = ("PNG (*.png)", "SVG (*.svg)")


class PictureExports(QObject):
    """Writes pictures of ``board`` and of ``controller``'s game (moves as ``move_list`` writes
    them); the GIF and the PDF through ``jobs``. ``status(str)`` reports; :attr:`pdf_dialog` is
    the PDF dialog while it is open."""

    status = Signal(str)

    def __init__(self, controller: GameController, board: BoardView, move_list: MoveList, settings: SavedSettings,
                 jobs: GameExports, parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._board = board
        self._move_list = move_list
        self._settings = settings
        self.jobs = jobs
        self._window = parent
        self.pdf_dialog: PdfDialog | None = None

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
        path, chosen = QFileDialog.getSaveFileName(self._window, tr("Export position…"), self._directory(),
                                                   ";;".join(PICTURE_FILTERS))
        if path:
            if not path.lower().endswith((".png", ".svg")):
                path += ".svg" if chosen == PICTURE_FILTERS[1] else ".png"
            self.export_position(path)

    def copy_position_picture(self) -> None:
        copy_picture(self._board.scene(), PICTURE_WIDTH)
        self.status.emit(tr("Copy position picture"))

    def export_gif(self, path: str, delay: float) -> bool:
        """Write the line on show, from the start to its end, as an animated GIF (``delay`` s a
        move) in the background (``jobs.finished`` says when it is written); False when it could
        not start."""
        scene = self._board.scene()
        try:
            scenes = line_scenes(self._controller.game(), self._controller.line_moves(), flipped=scene.flipped,
                                 coordinates=scene.coordinates)
        except XqdeskError as error:
            self.status.emit(tr("Could not save {path}: {reason}").format(path=path, reason=error))
            return False
        return self.jobs.export_gif(scenes, path, PICTURE_WIDTH, delay)

    def choose_and_export_gif(self) -> None:
        delay, accepted = QInputDialog.getDouble(self._window, tr("Export game as GIF…"), tr("Seconds between moves"),
                                                 DEFAULT_GIF_DELAY, 0.05, 60.0, 2)
        if not accepted:
            return
        path, _filter = QFileDialog.getSaveFileName(self._window, tr("Export game as GIF…"), self._directory(),
                                                    "GIF (*.gif)")
        if path:
            self.export_gif(path if path.lower().endswith(".gif") else path + ".gif", delay)

    def export_pdf(self, path: str, diagram_plies: list[int], notation: Notation | None = None) -> bool:
        """Print the game's main line to a PDF in the background, with diagrams after
        ``diagram_plies`` (0: the start), as the board is shown (orientation, coordinates)."""
        scene = self._board.scene()
        return self.jobs.export_pdf(self._controller.game(), path, notation or self._move_list.notation(),
                                    diagram_plies, flipped=scene.flipped, coordinates=scene.coordinates)

    def choose_and_export_pdf(self) -> None:
        dialog = PdfDialog(self._controller.game(), self._controller.ply(), self._move_list.notation(), self._window)
        self.pdf_dialog = dialog
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            plies, notation = dialog.diagram_plies(), dialog.notation()
        finally:
            self.pdf_dialog = None
            dialog.deleteLater()
        path, _filter = QFileDialog.getSaveFileName(self._window, tr("Export game as PDF…"), self._directory(),
                                                    "PDF (*.pdf)")
        if path:
            self.export_pdf(path if path.lower().endswith(".pdf") else path + ".pdf", plies, notation)

    def _directory(self) -> str:
        return self._settings.current.last_directory
