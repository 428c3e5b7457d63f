"""One engine seat of the window: a UCI or UCCI engine process driven from its own ``QThread``.

All blocking I/O (starting the process, the handshake, reading a search's output) happens in the
worker's thread; the GUI thread only queues requests and reads signals, so the window never waits
on an engine. The contract:

* :meth:`EngineWorker.search` queues an immutable :class:`SearchRequest` (an analysis, a hint) and
  returns its id; :meth:`EngineWorker.request_move` queues a :class:`MoveRequest`, a seat's move in
  a live game. A new request first cancels the one before it.
* Every request goes through the play layer: the worker's thread asks its
  :class:`~xqdesk.engines.play.engine_player.EnginePlayer` (the command line's engine seat) for a
  seat's move (``request_move``, carried back as a
  :class:`~xqdesk.engines.play.game_player.MoveReply` by ``move_reply``) or for an analysis
  (``analyse``, carried back by ``best_move``); it never speaks to the engine's device itself.
* Replies carry their request id. The worker forwards only replies to the *current* request;
  replies to a cancelled one (after a takeback, a new game, a new position) are dropped and
  announced by ``reply_dropped`` — so a late best move can never be played into the wrong position.
  A request cancelled before the engine began it is announced the same way: every request ends in
  exactly one of ``best_move`` (``move_reply`` for a seat's move), ``reply_dropped`` or
  ``engine_failed``.
* :meth:`stop` (finish now and report the best move) and :meth:`cancel` (finish now, drop the reply)
  set the request's ``threading.Event`` directly from the GUI thread and write ``stop`` to the
  engine; nothing waits for the worker's thread to get round to a queued slot.
* Search progress is throttled to one update per :data:`PROGRESS_INTERVAL` (about ten a second):
  the worker's thread keeps the newest info of every MultiPV row and only says "there is news"
  (one queued notice at a time); a GUI-thread timer collects the news at most that often, so the
  last lines of a search are shown even when the engine then falls silent.
* ``log_lines`` brings the engine log as the process transport recorded it (every line sent and
  read, with its time), in batches at most every :data:`PROGRESS_INTERVAL`.
* Where the course's perpetual-check rule bans moves, the search is kept to the legal ones.
* :meth:`shutdown` quits the engine and joins the thread; an engine that does not go is killed.
  An engine ended so (or by :meth:`kill`) has not failed: no ``engine_failed`` follows, a search
  then running gets ``reply_dropped``.
"""
from __future__ import annotations

import itertools
import queue
import threading
import time
import weakref
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal, SignalInstance

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.options import UciOption
from xqdesk.engines.play.engine_player import EnginePlayer, SearchResult, sends_line
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.move import Move
from xqdesk.ui.engines.engine_preparation import announce_engine

PROGRESS_INTERVAL = 0.1
"""Seconds between two progress signals of one engine (about 10 per second)."""

SHUTDOWN_GRACE = 2.0
"""Seconds :meth:`EngineWorker.shutdown` waits for the thread before killing the engine."""


@dataclass(frozen=True)
class EngineDescription:
    """What a started engine said about itself: its name, author and declared options, and the
    protocol it answered (``"UCI"`` or ``"UCCI"``)."""

    name: str
    author: str
    options: tuple[UciOption, ...]
    protocol: str = "UCI"


@dataclass(frozen=True)
class SearchRequest:
    """One search to run: the game's start FEN, the moves since, the limits, and its id."""

    request_id: int
    start_fen: str
    moves: tuple[Move, ...]
    limits: SearchLimits
    new_game: bool = False

    def board(self) -> Board:
        """The position to search, with its history."""
        return _board(self.start_fen, self.moves)


@dataclass(frozen=True)
class MoveRequest:
    """A seat's move in a live game: the game's start FEN and moves, the seconds the reply must
    come within (None: no limit), what the engine is told of its time, and its id."""

    request_id: int
    start_fen: str
    moves: tuple[Move, ...]
    time_limit: Optional[float]
    limits: SearchLimits
    new_game: bool = False
    position: Optional[str] = None
    """The line that sends the position, when a variant has its own (fog of war's ``position fog
    …``): the engine is then told ``limits`` as they are. None: the board's position."""

    def board(self) -> Board:
        """The position to move in, with its history."""
        return _board(self.start_fen, self.moves)


def _board(start_fen: str, moves: Sequence[Move]) -> Board:
    board = Board(start_fen)
    for move in moves:
        board.push(move)
    return board


@dataclass(frozen=True)
class SearchProgress:
    """The newest progress of a search: one row per MultiPV line (by ``multipv``), and the newest
    info line of any kind (``latest``: depth, nodes, nps, time even without a PV)."""

    request_id: int
    rows: tuple[SearchInfo, ...]
    latest: SearchInfo


@dataclass(frozen=True)
class _Quit:
    """The sentinel that ends the worker thread's request loop."""


class _ProgressThrottle:
    """The newest info lines of one search, filled by the worker's thread and taken by the GUI's."""

    def __init__(self, request_id: int) -> None:
        self.request_id = request_id
        self._lock = threading.Lock()
        self._rows: dict[int, SearchInfo] = {}
        self._latest: Optional[SearchInfo] = None
        self._news = False

    def add(self, info: SearchInfo) -> bool:
        """Record ``info``; True when it is the first news since the last :meth:`take`."""
        with self._lock:
            if info.pv and info.score is not None:
                self._rows[info.multipv] = info  # a line keeps its last report until replaced
            self._latest = _merge_latest(self._latest, info)
            first = not self._news
            self._news = True
            return first

    def take(self) -> Optional[SearchProgress]:
        """The progress not yet taken (None when there is no news)."""
        with self._lock:
            if not self._news or self._latest is None:
                return None
            self._news = False
            rows = tuple(self._rows[key] for key in sorted(self._rows))
            return SearchProgress(self.request_id, rows, self._latest)


class _LogBuffer:
    """Log lines not yet shown, filled by the transport's threads and taken by the GUI's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: list[str] = []

    def add(self, text: str) -> bool:
        """Keep ``text``; True when it is the first line since the last :meth:`take`."""
        with self._lock:
            self._lines.append(text)
            return len(self._lines) == 1

    def take(self) -> tuple[str, ...]:
        """The lines kept since the last call, oldest first."""
        with self._lock:
            lines, self._lines = tuple(self._lines), []
            return lines


def _merge_latest(previous: Optional[SearchInfo], info: SearchInfo) -> SearchInfo:
    """``info`` with the fields it lacks taken from ``previous`` (engines send partial lines)."""
    if previous is None:
        return info
    nodes = info.nodes if info.nodes is not None else previous.nodes
    time_ms = info.time_ms if info.time_ms is not None else previous.time_ms
    nps = info.nps
    if nps is None:  # none sent: the nodes and time of the lines so far give it
        fresh = (info.nodes is not None or info.time_ms is not None) and nodes is not None and time_ms
        nps = nodes * 1000 // time_ms if fresh and nodes is not None and time_ms else previous.nps
    return replace(
        info,
        depth=info.depth if info.depth is not None else previous.depth,
        seldepth=info.seldepth if info.seldepth is not None else previous.seldepth,
        score=info.score if info.score is not None else previous.score,
        nodes=nodes,
        nps=nps,
        time_ms=time_ms,
        pv=info.pv or previous.pv,
        string=None,
    )


class _EngineThread(QThread):
    """Runs the engine seat: start and handshake, then one queued request after another."""

    engine_started = Signal(object)  # EngineDescription
    progress_pending = Signal(int)  # request id: its throttle has news
    search_done = Signal(int, object)  # request id, SearchResult
    move_replied = Signal(int, object)  # request id, MoveReply
    search_skipped = Signal(int)  # request id: cancelled before it started, never searched
    engine_failed = Signal(int, str)  # request id (0 outside a search), message
    log_pending = Signal()  # the log buffer has lines to show

    def __init__(self, spec: EngineSpec, requests: "queue.Queue[SearchRequest | MoveRequest | _Quit]",
                 stop_events: dict[int, threading.Event], throttles: dict[int, _ProgressThrottle],
                 log: _LogBuffer) -> None:
        super().__init__()
        self.spec = spec
        self.throttles = throttles
        self.log = log
        self.requests = requests
        self.stop_events = stop_events
        self.seat = EnginePlayer(spec, None, on_info=self._on_info, on_line=self._logged)
        self._throttle: Optional[_ProgressThrottle] = None
        """The progress of the request being searched (None between requests)."""
        self.setObjectName(f"engine-{spec.name}")

    @property
    def engine(self):  # the play layer's device, not named here: the worker never speaks to it
        """The engine process's device (set before its handshake, so a shutdown can kill it)."""
        return self.seat.engine

    def run(self) -> None:  # noqa: D102 - QThread entry point
        self._note("$ " + " ".join(self.spec.command))
        try:
            self.seat.start()
        except EngineError as error:
            self.engine_failed.emit(0, str(error))
            return
        identity = self.seat.identity
        self.engine_started.emit(EngineDescription(identity.name or self.spec.name, identity.author,
                                                   tuple(identity.options.values()), identity.protocol_name))
        while True:
            request = self.requests.get()
            if isinstance(request, _Quit):
                self.seat.close()
                return
            stop = self.stop_events.get(request.request_id)
            if stop is None or stop.is_set():
                self.stop_events.pop(request.request_id, None)
                self.search_skipped.emit(request.request_id)
                continue
            try:
                board = request.board()
                if request.new_game:
                    self.seat.new_game(board.turn)
                self._begin(request.request_id)
                if isinstance(request, MoveRequest):
                    reply = self._move(request, board, stop)
                    if reply.error is not None and not self.seat.is_alive():  # it died: this worker is done
                        self.engine_failed.emit(request.request_id, reply.error)
                        return
                    self.move_replied.emit(request.request_id, reply)
                    continue
                result = self.seat.analyse(board, request.limits, self._on_info, stop)
            except (EngineError, ValueError) as error:
                self.engine_failed.emit(request.request_id, str(error))
                self.seat.kill()
                return
            finally:
                self._throttle = None
            self.search_done.emit(request.request_id, result)

    def _move(self, request: MoveRequest, board: Board, stop: threading.Event) -> MoveReply:
        """A seat's move, asked of the engine seat: of the board, or of a variant's own position."""
        if request.position is not None:
            return self.seat.think(sends_line(request.position), request.limits, request.time_limit, stop=stop)
        return self.seat.request_move(board, request.time_limit, request.limits, stop=stop)

    def _logged(self, line: object) -> None:
        """A line the engine's transport wrote or read (called from the transport's threads)."""
        self._note(str(line))

    def _note(self, text: str) -> None:
        if self.log.add(text):
            self.log_pending.emit()

    def _begin(self, request_id: int) -> None:
        """Track the progress of the search of ``request_id``."""
        throttle = _ProgressThrottle(request_id)
        self.throttles[request_id] = throttle
        self._throttle = throttle

    def _on_info(self, info: SearchInfo) -> None:
        """An info line of the running search (the engine seat stops it when asked): keep its
        progress."""
        throttle = self._throttle
        if throttle is None or info.string is not None:
            return  # between searches, or a text line: the log shows it
        if throttle.add(info):
            self.progress_pending.emit(throttle.request_id)


_workers: "weakref.WeakSet[EngineWorker]" = weakref.WeakSet()
_retiring: "set[EngineWorker]" = set()
"""Workers shut down without waiting, kept alive until their thread has ended."""


_quit_hooked = False


def _join_retiring_at_quit() -> None:
    """Make the application wait for retiring workers before it quits (a QThread destroyed while
    running would abort the process)."""
    global _quit_hooked
    application = QCoreApplication.instance()
    if application is None or _quit_hooked:
        return
    application.aboutToQuit.connect(join_retiring_workers)
    _quit_hooked = True


def join_retiring_workers(grace: float = SHUTDOWN_GRACE) -> None:
    """Wait for every worker shut down without waiting to end (killing engines that do not)."""
    for worker in list(_retiring):
        worker.shutdown(grace, wait=True)
        _retiring.discard(worker)


def running_workers() -> list["EngineWorker"]:
    """Workers whose thread is still running (tests check that none is left behind)."""
    return [worker for worker in list(_workers) if worker.is_running()]


class EngineWorker(QObject):
    """The GUI thread's handle on one engine seat. Create it, :meth:`start` it, and
    :meth:`shutdown` it before it goes; every signal arrives in the GUI thread."""

    engine_ready = Signal(object)  # EngineDescription
    progress = Signal(object)  # SearchProgress of the current request
    best_move = Signal(int, object)  # request id, SearchResult (move None: the engine had none)
    move_reply = Signal(int, object)  # request id, MoveReply: a seat's move (see request_move)
    engine_failed = Signal(str)  # why the engine stopped working; the worker is finished
    log_lines = Signal(object)  # tuple of str: "12:03:04.567 > sent" / "< read" / "! stderr" lines
    reply_dropped = Signal(int)  # a cancelled request's id: its reply was thrown away, or it never ran

    def __init__(self, spec: EngineSpec, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.description: Optional[EngineDescription] = None
        self._requests: "queue.Queue[SearchRequest | MoveRequest | _Quit]" = queue.Queue()
        self._stop_events: dict[int, threading.Event] = {}
        self._ids = itertools.count(1)
        self._current: Optional[int] = None
        self._failed = False
        self._ending = False  # shutdown or kill was asked for: the engine's end is ours, not a failure
        self._throttles: dict[int, _ProgressThrottle] = {}
        self._last_progress = float("-inf")
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.timeout.connect(self._send_progress)
        self._log = _LogBuffer()
        self._log_timer = QTimer(self)
        self._log_timer.setSingleShot(True)
        self._log_timer.timeout.connect(self._send_log)
        self._thread = _EngineThread(spec, self._requests, self._stop_events, self._throttles, self._log)
        self._thread.engine_started.connect(self._on_started)
        self._thread.progress_pending.connect(self._on_progress_pending)
        self._thread.search_done.connect(self._on_search_done)
        self._thread.move_replied.connect(self._on_move_replied)
        self._thread.search_skipped.connect(self.reply_dropped)
        self._thread.engine_failed.connect(self._on_failed)
        self._thread.log_pending.connect(self._on_log_pending)
        _workers.add(self)

    # -- requests (GUI thread) --------------------------------------------------------------
    def start(self) -> None:
        """Start the engine's thread; ``engine_ready`` or ``engine_failed`` follows."""
        if not self._thread.isRunning() and not self._thread.isFinished():
            announce_engine(self.spec)  # its compiled code, if not ready, is prepared in view
            self._thread.start()

    def search(self, start_fen: str, moves: Sequence[Move], limits: SearchLimits,
               new_game: bool = False) -> int:
        """Queue a search of the position after ``moves`` from ``start_fen``; returns its id.

        The search before it, if any, is cancelled (its reply will be dropped).
        """
        request_id = self._next_request()
        self._requests.put(SearchRequest(request_id, start_fen, tuple(moves), limits, new_game))
        return request_id

    def request_move(self, start_fen: str, moves: Sequence[Move], time_limit: Optional[float],
                     limits: SearchLimits, new_game: bool = False, position: Optional[str] = None) -> int:
        """Queue a seat's move in the position after ``moves`` from ``start_fen``: the engine seat
        (the command line's) searches with ``limits`` and must answer within ``time_limit``
        seconds; ``move_reply`` brings its :class:`~xqdesk.engines.play.game_player.MoveReply`.
        ``position``: a variant's own position line to send instead (see :class:`MoveRequest`).
        Returns the request's id; the request before it, if any, is cancelled."""
        request_id = self._next_request()
        self._requests.put(MoveRequest(request_id, start_fen, tuple(moves), time_limit, limits, new_game, position))
        return request_id

    def _next_request(self) -> int:
        """A new current request's id (the one before it cancelled)."""
        self.cancel()
        request_id = next(self._ids)
        self._stop_events[request_id] = threading.Event()
        self._current = request_id
        return request_id

    def stop(self) -> None:
        """Ask the current search to finish now; its best move still arrives."""
        if self._current is not None:
            self._stop(self._current)

    def cancel(self) -> None:
        """Finish the current search now and drop its reply (after a takeback or a new game)."""
        if self._current is not None:
            self._stop(self._current)
            self._current = None

    def _stop(self, request_id: int) -> None:
        event = self._stop_events.get(request_id)
        if event is not None:
            event.set()
        self._thread.seat.stop_search()

    @property
    def current_request(self) -> Optional[int]:
        """The id of the search whose replies are forwarded (None when idle or cancelled)."""
        return self._current

    def is_running(self) -> bool:
        """Whether the worker's thread is running."""
        return self._thread.isRunning()

    def has_failed(self) -> bool:
        return self._failed

    def shutdown(self, grace: float = SHUTDOWN_GRACE, wait: bool = True) -> None:
        """Cancel any search, quit the engine and end the thread; an engine still running after
        ``grace`` seconds is killed.

        ``wait=True`` joins the thread before returning (tens of milliseconds: the engine has to
        stop and exit). ``wait=False`` returns at once and lets the thread finish on its own — for
        a window switching games — while a timer enforces the grace period; the worker stays
        alive until its thread has ended.
        """
        self._ending = True
        self.cancel()
        for event in self._stop_events.values():
            event.set()
        self._requests.put(_Quit())
        if not self._thread.isRunning():
            return
        if wait:
            if not self._thread.wait(int(grace * 1000)):
                self._kill_engine()
                self._thread.wait()
            return
        _retiring.add(self)
        self._thread.finished.connect(lambda: _retiring.discard(self))
        QTimer.singleShot(int(grace * 1000), self, self._kill_engine)
        _join_retiring_at_quit()

    def kill(self) -> None:
        """End the engine now, whatever it is doing (a seat that lost by a fault): its process
        group is killed at once and the thread ends by itself; the worker is done."""
        self.shutdown(grace=0.0, wait=False)
        self._kill_engine()

    def _kill_engine(self) -> None:
        """Kill the engine process if the thread is still running (its read then ends at once)."""
        if self._thread.isRunning():
            self._thread.seat.kill()

    # -- replies (arrive queued in the GUI thread) -----------------------------------------------
    def _on_started(self, description: EngineDescription) -> None:
        self.description = description
        self.engine_ready.emit(description)

    def _on_progress_pending(self, request_id: int) -> None:
        if request_id != self._current or self._progress_timer.isActive():
            return
        wait = min(max(PROGRESS_INTERVAL - (time.monotonic() - self._last_progress), 0.0), PROGRESS_INTERVAL)
        self._progress_timer.start(int(wait * 1000))

    def _send_progress(self) -> None:
        throttle = self._throttles.get(self._current) if self._current is not None else None
        progress = throttle.take() if throttle is not None else None
        if progress is not None:
            self._last_progress = time.monotonic()
            self.progress.emit(progress)

    def _on_log_pending(self) -> None:
        if not self._log_timer.isActive():
            self._log_timer.start(int(PROGRESS_INTERVAL * 1000))

    def _send_log(self) -> None:
        lines = self._log.take()
        if lines:
            self.log_lines.emit(lines)

    def _on_search_done(self, request_id: int, result: SearchResult) -> None:
        self._on_done(request_id, result, self.best_move)

    def _on_move_replied(self, request_id: int, reply: MoveReply) -> None:
        self._on_done(request_id, reply, self.move_reply)

    def _on_done(self, request_id: int, answer: object, signal: SignalInstance) -> None:
        """A request's answer (a SearchResult or a MoveReply): forwarded by ``signal`` when the
        request is the current one, else announced as dropped."""
        self._stop_events.pop(request_id, None)
        throttle = self._throttles.pop(request_id, None)
        if request_id != self._current:
            self.reply_dropped.emit(request_id)
            return
        self._progress_timer.stop()
        final = throttle.take() if throttle is not None else None
        if final is not None:
            self.progress.emit(final)
        self._current = None
        signal.emit(request_id, answer)

    def _on_failed(self, request_id: int, message: str) -> None:
        self._failed = True
        self._current = None
        self._send_log()
        if not self._ending:
            self.engine_failed.emit(message)
        elif request_id:  # an engine ended on purpose (shut down, or killed after its fault) did not
            self.reply_dropped.emit(request_id)  # fail: its search's reply is only thrown away
