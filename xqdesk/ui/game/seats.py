"""The window's seats: a person and an engine, both the play layer's asynchronous
:class:`~xqdesk.engines.play.seat.Seat`, so the live game asks whoever is to move the same way.

* A person is the play layer's :class:`~xqdesk.engines.play.seat.PersonAsker`: the board view's
  click answers the ask (:class:`PersonInWindow`).
* An engine seat (:class:`EngineSeat`) is a thin adaptor over an
  :class:`~xqdesk.ui.engines.engine_worker.EngineWorker`: the worker's thread asks the command
  line's engine seat for the move; this object only carries the reply onto the GUI thread, to the
  ``reply_to`` of the ask it belongs to. Every ask is a request with an id; a reply whose id is no
  longer the one asked for (after a cancel: a takeback, a new game, a pause) is dropped, so a late
  move never lands in the wrong position.

A variant's engine seat overrides :meth:`EngineSeat.position_line` (the fog of war's sends the
views its side had, see :mod:`xqdesk.ui.windows.fog_window`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Optional, Protocol

from PySide6.QtCore import QObject

from xqdesk.board import Board
from xqdesk.engines.play.engine_player import HANDSHAKE_TIMEOUT
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import Turn
from xqdesk.engines.play.seat import PersonAsker, ReplyTo, Seat
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.pieces import Color
from xqdesk.ui.base.connections import SignalConnections
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker

WorkerFactory = Callable[[EngineProfile], EngineWorker]

ENGINE_REPLY_GRACE = HANDSHAKE_TIMEOUT + 2.0
"""Seconds beyond its allowance the window's clock waits for an engine seat's reply before it
judges the seat out of time itself: the seat's thread judges first (its ``isready`` waits at most
the handshake timeout, its search at most the allowance), so this only ends a seat that hangs."""


class LiveSeat(Seat, Protocol):
    """A seat of the window's live game: the play layer's :class:`~xqdesk.engines.play.seat.Seat`,
    and the engine worker behind it, if any (the engine panel shows its log)."""

    @property
    def worker(self) -> Optional[EngineWorker]:
        ...


SeatFactory = Callable[[Color, Optional[EngineProfile]], LiveSeat]
"""Makes the seat of a colour: an engine (its profile) or a person (None)."""


def engine_label(profile: EngineProfile) -> str:
    """A seated engine's name in the interface language: the standard name of a built-in level
    (``Built-in level 3``) is translated; a name the user gave stays as it is."""
    if profile.kind is EngineKind.BUILTIN and profile.name == f"Built-in level {profile.level}":
        return tr("Built-in level {level}").format(level=profile.level)
    return profile.name


def start_engine_worker(profile: EngineProfile) -> EngineWorker:
    """The standard worker factory: the engine's process behind its own thread."""
    return EngineWorker(profile.to_spec())


class PersonInWindow(PersonAsker):
    """A person at the window's board (no engine behind it)."""

    @property
    def worker(self) -> Optional[EngineWorker]:
        return None


class EngineSeat(QObject):
    """An engine seat of the window behind ``worker`` (see the module docstring). ``limits`` and
    ``time_limit``, when given, are the seat's own (a fog agent's move time and move clock) in
    place of what the turn says."""

    is_human = False
    reply_grace = ENGINE_REPLY_GRACE

    def __init__(self, worker: EngineWorker, name: str, *, limits: Optional[SearchLimits] = None,
                 time_limit: Optional[float] = None, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.name = name
        self.limits = limits
        self.time_limit = time_limit
        self._worker = worker
        self._connections = SignalConnections()
        self._connections.connect(worker.move_reply, self._on_move_reply)
        self._request: Optional[int] = None
        self._reply_to: Optional[ReplyTo] = None
        self._fresh = True
        """Whether the next ask is the first of a game (the engine is told ``ucinewgame``)."""

    @property
    def worker(self) -> Optional[EngineWorker]:
        return self._worker

    def start(self, on_ready: Callable[[], None], on_failed: Callable[[str], None]) -> None:
        self._connections.connect(self._worker.engine_ready, lambda _description: on_ready())
        self._connections.connect(self._worker.engine_failed, self._failed(on_failed))
        self._worker.start()

    def _failed(self, on_failed: Callable[[str], None]) -> Callable[[str], None]:
        def failed(message: str) -> None:
            self._request, self._reply_to = None, None  # the worker is done: no reply will come
            on_failed(message)
        return failed

    def is_ready(self) -> bool:
        return self._worker.description is not None

    def has_failed(self) -> bool:
        return self._worker.has_failed()

    def new_game(self) -> None:
        self._fresh = True

    def ask(self, board: Board, turn: Turn, reply_to: ReplyTo) -> None:
        self._reply_to = reply_to
        time_limit = turn.time_limit if self.time_limit is None else self.time_limit
        self._request = self._worker.request_move(board.start_fen, board.move_stack, time_limit,
                                                  self.limits or turn.limits, new_game=self._fresh,
                                                  position=self.position_line(board))
        self._fresh = False

    def position_line(self, board: Board) -> Optional[str]:
        """The line that sends ``board`` to the engine when a variant has its own (None: the
        board's ``position``)."""
        return None

    def _on_move_reply(self, request_id: int, reply: MoveReply) -> None:
        if request_id != self._request:
            return  # a reply nobody waits for any more
        reply_to, self._request, self._reply_to = self._reply_to, None, None
        if reply_to is not None:
            reply_to(reply)

    def cancel(self) -> None:
        if self._request is not None:
            self._worker.cancel()
        self._request, self._reply_to = None, None

    def offer(self, move: Move) -> None:
        """An engine takes no move from outside."""

    def kill(self) -> None:
        """End the engine process at once (the seat lost by a fault); the thread ends by itself
        and is joined by :meth:`close` (the window keeps showing the engine's log until then)."""
        self._connections.disconnect_all()
        self._request, self._reply_to = None, None
        self._worker.kill()

    def close(self) -> None:
        self._connections.disconnect_all()
        self._request, self._reply_to = None, None
        self._worker.shutdown()
        self._worker.deleteLater()


def window_seats(worker_factory: WorkerFactory = start_engine_worker) -> SeatFactory:
    """The main window's seats: a person at the board, or an engine behind a worker thread."""
    def make(_color: Color, profile: Optional[EngineProfile]) -> LiveSeat:
        if profile is None:
            return PersonInWindow(tr("Person"))
        # seated to play: the built-in engine opens from its book
        return EngineSeat(worker_factory(profile.playing()), engine_label(profile))
    return make
