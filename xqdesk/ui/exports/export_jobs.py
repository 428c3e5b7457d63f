"""The game exported as an animated GIF or a PDF, in the background: a progress bar and a *Cancel*
button in the status bar, the window usable meanwhile (a 110-ply GIF is several seconds of
drawing). One export at a time; a cancelled export leaves no file behind.

:class:`PdfDialog` chooses what the PDF shows: the notation of its moves and the moves after
which a diagram is drawn.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from xqdesk.errors import XqdeskError
from xqdesk.game import Game
from xqdesk.notation import Notation, format_move
from xqdesk.ui.base.background import BackgroundJob, JobProgress, JobProgressBar
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.reasons import tr_reason
from xqdesk.ui.board.board_render import BoardScene
from xqdesk.ui.exports.game_pdf import game_sheet, write_game_pdf
from xqdesk.ui.exports.pictures import save_gif

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar

NOTATION_NAMES = {Notation.CHINESE: "Chinese", Notation.WXF: "WXF", Notation.ICCS: "ICCS"}


def _reporter(progress: JobProgress) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        progress.check()
        progress.report(done, total)
    return report


class GameExports(QObject):
    """Runs exports for a window whose status bar shows their progress. ``finished(path)`` when a
    file has been written, ``problem(text)`` when it could not be (or was cancelled)."""

    finished = Signal(str)
    problem = Signal(str)

    def __init__(self, status_bar: QStatusBar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._status_bar = status_bar
        self.job: BackgroundJob[Path] | None = None
        self.progress_bar: JobProgressBar | None = None

    def is_busy(self) -> bool:
        return self.job is not None

    def export_gif(self, scenes: Sequence[BoardScene], path: str | Path, width: int, delay: float) -> bool:
        """Draw ``scenes`` into an animated GIF at ``path`` in the background (False: another
        export is running)."""
        frames = tuple(scenes)
        return self._start(tr("Writing {name}…").format(name=Path(path).name), Path(path),
                           lambda progress: save_gif(frames, path, width, delay, _reporter(progress)))

    def export_pdf(self, game: Game, path: str | Path, notation: Notation, diagram_plies: Sequence[int], *,
                   flipped: bool = False, coordinates: bool = True) -> bool:
        """Print ``game``'s main line to a PDF at ``path`` in the background (False: another export
        is running). What is printed is taken now: later changes to the game do not reach it."""
        sheet = game_sheet(game, notation, diagram_plies, flipped=flipped, coordinates=coordinates)
        return self._start(tr("Writing {name}…").format(name=Path(path).name), Path(path),
                           lambda progress: write_game_pdf(sheet, path, _reporter(progress)))

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def shutdown(self) -> None:
        """Stop an export in progress (its file is removed) and wait for its thread."""
        job = self.job
        if job is not None:
            job.cancel()
            job.wait()
            self._end(job)

    def _start(self, description: str, path: Path, work: Callable[[JobProgress], Path]) -> bool:
        if self.job is not None:
            self.problem.emit(tr("An export is running already"))
            return False
        job: BackgroundJob[Path] = BackgroundJob(description, work, (OSError, XqdeskError), self)
        self.job = job
        self.progress_bar = JobProgressBar(job)
        self._status_bar.addPermanentWidget(self.progress_bar)
        job.finished.connect(lambda written, j=job: self._on_finished(j, written))
        job.failed.connect(lambda reason, j=job: self._on_failed(j, path, reason))
        job.cancelled.connect(lambda j=job: self._on_cancelled(j, path))
        job.start()
        return True

    def _end(self, job: BackgroundJob[Path]) -> bool:
        """Take ``job`` off the status bar; False when it is no longer the running export."""
        if job is not self.job:
            return False
        job.wait()
        job.deleteLater()
        self.job = None
        if self.progress_bar is not None:
            self._status_bar.removeWidget(self.progress_bar)
            self.progress_bar.deleteLater()
            self.progress_bar = None
        return True

    def _on_finished(self, job: BackgroundJob[Path], written: Path) -> None:
        if self._end(job):
            self.finished.emit(str(written))

    def _on_failed(self, job: BackgroundJob[Path], path: Path, reason: str) -> None:
        if self._end(job):
            path.unlink(missing_ok=True)
            self.problem.emit(tr("Could not save {path}: {reason}").format(path=path.name, reason=tr_reason(reason)))

    def _on_cancelled(self, job: BackgroundJob[Path], path: Path) -> None:
        if self._end(job):
            path.unlink(missing_ok=True)
            self.problem.emit(tr("Stopped writing {name}").format(name=path.name))


class PdfDialog(QDialog):
    """Before a PDF is written: the notation of its moves, and the moves after which a diagram is
    drawn (the position on show is ticked to begin with)."""

    def __init__(self, game: Game, ply: int, notation: Notation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Export game as PDF…"))
        self.notation_box = QComboBox()
        for choice, name in NOTATION_NAMES.items():
            self.notation_box.addItem(name, choice)
        self.notation_box.setCurrentIndex(self.notation_box.findData(notation))
        self.moves = QListWidget()
        self.moves.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        board = game.start_board()
        start = QListWidgetItem(tr("Start position"))
        start.setData(Qt.ItemDataRole.UserRole, 0)
        self.moves.addItem(start)
        first = board.fullmove_number
        black_first = not board.turn
        for number, move in enumerate(game.mainline_moves(), start=1):
            slot = number + black_first
            move_number = first + (slot - 1) // 2
            text = f"{move_number}. {'… ' if slot % 2 == 0 else ''}{format_move(board, move, notation)}"
            board.push(move)
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, number)
            self.moves.addItem(item)
        for row in range(self.moves.count()):
            item = self.moves.item(row)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if row == ply else Qt.CheckState.Unchecked)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(tr("Notation"), self.notation_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(tr("Diagrams after the moves ticked:")))
        layout.addWidget(self.moves, 1)
        layout.addWidget(buttons)
        self.resize(360, 520)

    def diagram_plies(self) -> list[int]:
        """The plies ticked (0: the start position)."""
        return [int(self.moves.item(row).data(Qt.ItemDataRole.UserRole)) for row in range(self.moves.count())
                if self.moves.item(row).checkState() == Qt.CheckState.Checked]

    def set_diagram_plies(self, plies: Sequence[int]) -> None:
        wanted = set(plies)
        for row in range(self.moves.count()):
            item = self.moves.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole) in wanted
                               else Qt.CheckState.Unchecked)

    def notation(self) -> Notation:
        return Notation(self.notation_box.currentData())
