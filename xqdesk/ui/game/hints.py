"""Hints: a built-in engine suggests a move in the viewed position, whatever the mode."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from xqdesk.board import Board
from xqdesk.engines.play.engine_player import SearchResult
from xqdesk.engines.search_types import SearchLimits
from xqdesk.ui.base.i18n import side_word, tr
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.seats import WorkerFactory

HINT_MOVE_TIME = 1.0
HINT_PROFILE = EngineProfile("Built-in (hint)", EngineKind.BUILTIN, level=3)


class Hints(QObject):
    """The hint engine (started on the first hint) and the one hint it is asked for at a time;
    ``hint_ready(Move)`` brings a hint that is legal in the position it was asked for."""

    hint_ready = Signal(object)  # Move

    def __init__(self, worker_factory: WorkerFactory, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker_factory = worker_factory
        self._worker: EngineWorker | None = None
        self._request: int | None = None
        self._board: Board | None = None

    def ask(self, board: Board, engine_to_move: bool = False) -> str | None:
        """Ask for a move in ``board`` (its history included; a hint asked before is dropped), or
        say why not: the game is over there, or (``engine_to_move``) an engine of the live game
        is to move."""
        if board.outcome() is not None:
            return tr("No hint: the game is over in this position")
        if engine_to_move:
            return tr("No hint now: {side} is to move and is played by an engine").format(side=side_word(board.turn))
        if self._worker is None or self._worker.has_failed():
            self._worker = self._worker_factory(HINT_PROFILE)
            self._worker.best_move.connect(self._on_best_move)
            self._worker.start()
        self._board = board.copy()
        self._request = self._worker.search(board.start_fen, board.move_stack, SearchLimits(movetime=HINT_MOVE_TIME))
        return None

    def cancel(self) -> None:
        """Drop the hint being searched for, if any."""
        if self._worker is not None:
            self._worker.cancel()
        self._request = None

    def shutdown(self) -> None:
        """End the hint engine."""
        if self._worker is not None:
            self._worker.shutdown()
        self._worker = None
        self._request = None

    def _on_best_move(self, request_id: int, result: SearchResult) -> None:
        if request_id != self._request or self._board is None:
            return
        self._request = None
        if result.move is not None and self._board.is_legal(result.move):
            self.hint_ready.emit(result.move)
