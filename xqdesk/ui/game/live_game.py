"""The window's live game: its seats, its engines and its clock, on the one game runner.

A live game runs on the Qt-free :class:`~xqdesk.engines.play.game_runner.GameRunner` the command
line uses too: it keeps the clocks, judges every move, whether an engine's reply or a person's click
brought it, times out the side to move and writes the record (:attr:`LiveGame.game`); this object
only forwards events to it. A person is a seat like an engine: a click becomes a move offered by
the colour's :class:`~xqdesk.engines.play.person_seat.PersonSeat`, the same seat ``xqdesk play``
reads typed moves into. An engine seat thinks in its own process behind an
:class:`~xqdesk.ui.engines.engine_worker.EngineWorker`, whose thread asks the command line's engine seat for
the move and carries its :class:`~xqdesk.engines.play.game_player.MoveReply` here; every request
carries an id, and a reply whose id is no longer awaited (after a takeback, a new game, a timeout)
is ignored, so a late move never lands in the wrong position. An engine seat is charged the time
it thought, as the command line's referee charges it: from its ``go`` to its ``bestmove``, measured
in the seat's own thread (the reply's ``elapsed``), whose deadline also kills an engine that
overruns; the hand-offs between threads, the position and ``isready`` before the search and the
time a reply waits for a busy GUI thread are not the engine's. The window's clock only stands
guard behind it (:data:`ENGINE_REPLY_GRACE`), for a seat whose thread never answers. A person is
charged from the moment the turn began to the click. A seat that loses by a fault
(timeout, crash, no or illegal move) has its engine process killed at once; the next game starts a
fresh one.

It tells what happened through signals: ``move_played(ChildNode)`` (a move the runner recorded, to
show), ``finished(Outcome)``, and ``engine_thinking``, ``engine_scored``, ``status_message``,
``alert``, ``paused_changed``, ``seats_changed``. ``follows`` says whether the window shows the
end of the game (moves are only asked for and played there).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import GameRunner, lost_by_fault
from xqdesk.engines.play.person_seat import PersonSeat
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.connections import SignalConnections
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.clock import GameClock

WorkerFactory = Callable[[EngineProfile], EngineWorker]

ENGINE_REPLY_GRACE = HANDSHAKE_TIMEOUT + 2.0
"""Seconds beyond its allowance the window's clock waits for an engine seat's reply before it
judges the seat out of time itself: the seat's thread judges first (its ``isready`` waits at most
the handshake timeout, its search at most the allowance), so this only ends a seat that hangs."""


def engine_label(profile: EngineProfile) -> str:
    """A seated engine's name in the interface language: the standard name of a built-in level
    (``Built-in level 3``) is translated; a name the user gave stays as it is."""
    if profile.kind is EngineKind.BUILTIN and profile.name == f"Built-in level {profile.level}":
        return tr("Built-in level {level}").format(level=profile.level)
    return profile.name


def start_engine_worker(profile: EngineProfile) -> EngineWorker:
    """The standard worker factory: the engine's process behind its own thread."""
    return EngineWorker(profile.to_spec())


class LiveGame(QObject):
    """The seats, the engines and the clock of the window's game; see the module docstring."""

    move_played = Signal(object)  # ChildNode the runner recorded
    finished = Signal(object)  # Outcome
    engine_thinking = Signal(bool, bool)  # colour, thinking?
    engine_scored = Signal(int, object, bool)  # ply searched, Score, mover
    status_message = Signal(str)
    alert = Signal(str)
    paused_changed = Signal(bool)

    def __init__(self, follows: Callable[[], bool], worker_factory: WorkerFactory,
                 engine_clock: TimeControl, engine_delay: float, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._follows = follows
        self._worker_factory = worker_factory
        self.engine_clock = engine_clock
        """The clock an engine seat gets when a game sets none for it."""
        self.engine_delay = engine_delay
        """Seconds an engine's move waits at least after the move before it (to watch a game)."""
        self.runner: GameRunner | None = None
        self._seats: dict[Color, EngineProfile | None] = {RED: None, BLACK: None}
        self._persons = {color: PersonSeat(listener=self._on_person_reply) for color in (RED, BLACK)}
        self._workers: dict[Color, EngineWorker] = {}
        self._pending: dict[Color, int] = {}
        self._fresh_workers: set[Color] = set()
        self._retired_workers: list[EngineWorker] = []
        self._seat_connections = {RED: SignalConnections(), BLACK: SignalConnections()}
        self._last_move_at = time.monotonic()
        self.clock = GameClock(parent=self, grace=self._clock_grace)
        self.clock.expired.connect(self._on_clock_expired)
        self._delayed: tuple[Color, int] | None = None
        self._delay_timer = QTimer(self)
        self._delay_timer.setSingleShot(True)
        self._delay_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._delay_timer.timeout.connect(self._play_delayed_move)
        self._paused = False
        self._turn_started = 0.0
        """When the clock of the turn now running started (the window's clock's time)."""

    # --- reading ---------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The record the runner writes (None without a live game)."""
        return self.runner.game if self.runner is not None else None

    def is_on(self) -> bool:
        """Whether a live game goes on (not over, not stopped)."""
        return self.runner is not None and self.runner.outcome is None

    def seat(self, color: Color) -> EngineProfile | None:
        """The engine playing ``color`` (None: a person)."""
        return self._seats[color]

    def worker(self, color: Color) -> EngineWorker | None:
        return self._workers.get(color)

    def is_thinking(self, color: Color) -> bool:
        return color in self._pending or (self._delayed is not None and self._delayed[0] == color)

    def is_paused(self) -> bool:
        return self._paused

    def _clock_grace(self, color: Color) -> float:
        """How long past its allowance the window's clock lets ``color`` run before judging it out
        of time: an engine seat is judged by its own thread (see the module docstring)."""
        return ENGINE_REPLY_GRACE if color in self._workers else 0.0

    def _awaits_move(self) -> bool:
        """Whether the side to move at the end of the live game may move now."""
        return self.is_on() and self._follows() and not self._paused

    # --- starting and ending -----------------------------------------------------------------------
    def start(self, red: EngineProfile | None, black: EngineProfile | None, start: Board,
              headers: Mapping[str, str], time_controls: Mapping[Color, TimeControl] | None) -> Game:
        """Seat ``red``/``black`` (None: a person) and start a game from ``start``; the record
        the runner will write (with ``headers`` and the seats' names). A side ``time_controls``
        leaves out gets :attr:`engine_clock` when an engine plays it, and no clock for a person."""
        self.halt()
        self.set_seats(red, black)
        controls = dict(time_controls or {})
        for color in (RED, BLACK):
            if color not in controls:
                controls[color] = self.engine_clock if self._seats[color] is not None else TimeControl.unlimited()
        names = {"Red": self.seat_name(RED), "Black": self.seat_name(BLACK)}
        self.runner = GameRunner(start, controls, headers={**names, **headers})
        self.clock.follow(self.runner)
        self._fresh_workers = set(self._workers)
        return self.runner.game

    def seat_name(self, color: Color) -> str:
        profile = self._seats[color]
        return engine_label(profile) if profile is not None else tr("Person")

    def halt(self) -> None:
        """Stop the game for good (searches, clock, pause); the seats stay until replaced."""
        if self._paused:
            self._paused = False
            self.paused_changed.emit(False)
        self._cancel_searches()
        self.runner = None
        self.clock.follow(None)

    def set_seats(self, red: EngineProfile | None, black: EngineProfile | None) -> None:
        """Seat these engines (None: a person), keeping running engines that stay seated."""
        wanted = {RED: red, BLACK: black}
        for retired in self._retired_workers:
            retired.shutdown()  # killed already: this only joins its thread
            retired.deleteLater()
        self._retired_workers.clear()
        for color in (RED, BLACK):
            worker = self._workers.get(color)
            if worker is not None and (wanted[color] != self._seats[color] or worker.has_failed()):
                self._seat_connections[color].disconnect_all()
                worker.shutdown()
                worker.deleteLater()
                del self._workers[color]
            profile = wanted[color]
            if profile is not None and color not in self._workers:
                worker = self._worker_factory(profile.playing())  # a game: the built-in engine opens from its book
                connect = self._seat_connections[color].connect
                connect(worker.move_reply, lambda request_id, reply, c=color: self._on_engine_reply(c, request_id, reply))
                connect(worker.engine_failed, lambda message, c=color: self._on_engine_failed(c, message))
                connect(worker.engine_ready, lambda _description, c=color: self._on_engine_ready(c))
                worker.start()
                self._workers[color] = worker
        self._seats = wanted

    def shutdown(self) -> None:
        """Stop every engine process and thread (call before the window goes)."""
        self.halt()
        for worker in [*self._workers.values(), *self._retired_workers]:
            worker.shutdown()
        self._workers.clear()
        self._retired_workers.clear()

    # --- turns -----------------------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Hand the move to whoever is to play at the end of the live game: the runner starts the
        side's clock and says what an engine is told of its time."""
        runner = self.runner
        if runner is None or not self._awaits_move() or self._delayed is not None:
            return  # no game, looking back, paused, or a move played but not yet shown
        color = runner.board().turn
        worker = self._workers.get(color)
        if color in self._pending or self._engines_starting():
            return  # already asked, or an engine still starting: the turn and clock begin once all are ready
        started = self.clock.now()
        turn = runner.start_turn(started)
        self._turn_started = started
        self.clock.refresh()
        if turn is None:
            if runner.outcome is not None:
                self._finish(runner.outcome)
            return
        if worker is None:
            return
        new_game = color in self._fresh_workers
        self._fresh_workers.discard(color)
        board = runner.board()
        self._pending[color] = worker.request_move(board.start_fen, board.move_stack, turn.time_limit, turn.limits,
                                                   new_game=new_game)
        self.engine_thinking.emit(color, True)

    def offer(self, move: Move) -> None:
        """A person's move at the end of the live game (judged and timed by the runner first)."""
        if self.runner is not None:
            self._persons[self.runner.board().turn].offer(move)

    def _on_person_reply(self, reply: MoveReply) -> None:
        if self._submit(reply):
            self._played()

    def _on_engine_reply(self, color: Color, request_id: int, reply: MoveReply) -> None:
        runner = self.runner
        if self._pending.get(color) != request_id:
            return  # a reply nobody waits for any more
        del self._pending[color]
        if runner is None or not self._awaits_move() or runner.board().turn != color:
            return
        if reply.score is not None:
            self.engine_scored.emit(len(runner.board().move_stack), reply.score, color)
        self.engine_thinking.emit(color, False)
        if reply.offer is not None and reply.move is not None:
            self.status_message.emit(tr("The engine offers a draw") if reply.offer == "draw"
                                     else tr("The engine would resign"))
        if not self._submit(reply, thought=reply.elapsed):
            return
        wait = self.engine_delay - (time.monotonic() - self._last_move_at)
        if wait > 0.005:
            self.engine_thinking.emit(color, True)
            self._delayed = (color, len(runner.played))
            self._delay_timer.start(int(wait * 1000))
            return
        self._played()

    def _play_delayed_move(self) -> None:
        """An engine's move held back by :attr:`engine_delay` (the runner has played it) is shown."""
        delayed, self._delayed = self._delayed, None
        if delayed is None or self.runner is None:
            return
        color, played = delayed
        self.engine_thinking.emit(color, False)
        if len(self.runner.played) == played:
            self._played()

    def _played(self) -> None:
        """Show the move the runner has just recorded, then end the game or go on with it."""
        runner = self.runner
        if runner is None:
            return
        self._last_move_at = time.monotonic()
        self.move_played.emit(runner.played[-1])
        if runner.outcome is not None:
            self._finish(runner.outcome)
        else:
            self.begin_turn()

    def _submit(self, reply: MoveReply, thought: float | None = None) -> bool:
        """Give the runner the reply of the side to move, charging ``thought`` seconds (an engine
        seat's own measure of its search) or, when None, the time since the turn began. True when
        it played the move (the game may then be over by the rules); False when the reply lost
        the game (a timeout, no move, an illegal one), which is then finished here."""
        runner = self.runner
        if runner is None:
            return False
        color = runner.board().turn
        if runner.turn is None:
            self._turn_started = self.clock.now()
            runner.start_turn(self._turn_started)  # a seat that failed before its turn began
        played = len(runner.played)
        now = self.clock.now() if thought is None else self._turn_started + max(0.0, thought)
        outcome = runner.submit(reply, now)
        self.clock.refresh()
        if len(runner.played) > played:
            return True
        if outcome is not None:
            self._finish(outcome, faulty=color)
        return False

    def _engines_starting(self) -> bool:
        """Whether a seated engine is still starting. No clock runs until every seat is ready, as
        on the command line, whose referee starts both seats before the first move: an engine
        that loads (compiles, reads its networks) takes the processor from the one thinking."""
        return any(worker.description is None and not worker.has_failed() for worker in self._workers.values())

    def _on_engine_ready(self, _color: Color) -> None:
        """A seat's engine finished starting: once all are, the side to move's turn (and clock)
        begins."""
        if self.runner is not None:
            self.begin_turn()

    def _on_engine_failed(self, color: Color, message: str) -> None:
        """A seat's engine failed. One that never finished starting has made no move to judge:
        the game is aborted, with no result; one that fails on its move loses by the fault."""
        runner = self.runner
        worker = self._workers.get(color)
        waiting = color in self._pending or (runner is not None and runner.board().turn == color
                                             and color in self._workers)
        self._pending.pop(color, None)
        self.status_message.emit(tr("Engine failed: {reason}").format(reason=message))
        self.alert.emit(tr("Engine failed: {reason}").format(reason=message))
        if worker is not None and worker.description is None and self.is_on():
            self.engine_thinking.emit(color, False)
            reason = message.splitlines()[0] if message.strip() else "the engine could not start"
            self._finish(Outcome.aborted(f"Game aborted ({reason})"))
            return
        if waiting and self.is_on() and self._follows():
            self.engine_thinking.emit(color, False)
            self._submit(MoveReply(error=message))

    def _on_clock_expired(self, outcome: Outcome) -> None:
        """The runner has judged the side to move out of time (its outcome is recorded)."""
        if self.runner is not None:
            self._finish(outcome, faulty=self.runner.board().turn)

    def _finish(self, outcome: Outcome, faulty: Color | None = None) -> None:
        """End the live game with ``outcome``; ``faulty`` is the seat that lost by a fault (its
        engine is ended at once, as the command line's referee does)."""
        if self.runner is not None and self.runner.outcome is None:
            self.runner.finish(outcome, self.clock.now())
        self.clock.refresh()
        self._cancel_searches()
        if faulty is not None and lost_by_fault(outcome, faulty):
            self._retire_worker(faulty)
        self.finished.emit(outcome)

    def _retire_worker(self, color: Color) -> None:
        """End the engine process of a seat that lost by a fault at once; the next game starts a
        fresh one (the window keeps showing the retired engine's log until then)."""
        worker = self._workers.pop(color, None)
        if worker is None:
            return
        self._seat_connections[color].disconnect_all()
        worker.kill()
        self._retired_workers.append(worker)

    def _cancel_searches(self) -> None:
        for color in list(self._pending):
            worker = self._workers.get(color)
            if worker is not None:
                worker.cancel()
            self.engine_thinking.emit(color, False)
        self._pending.clear()
        if self._delayed is not None:
            self.engine_thinking.emit(self._delayed[0], False)
        self._delayed = None
        self._delay_timer.stop()

    # --- a person's commands ---------------------------------------------------------------------
    def resign(self) -> bool:
        """The person to move (or the only person seated) resigns; whether there was one."""
        if not self.is_on() or self.runner is None:
            return False
        people = [color for color in (RED, BLACK) if self._seats[color] is None]
        if not people:
            return False
        turn = self.runner.board().turn
        self._finish(Outcome.resignation(turn if turn in people else people[0]))
        return True

    def take_back(self, keep: int) -> None:
        """Undo the game's moves after the first ``keep`` (the time already used stays spent)."""
        runner = self.runner
        self._cancel_searches()
        if runner is not None:
            runner.take_back(len(runner.played) - keep, self.clock.now())
            self.clock.refresh()

    def moves_to_keep(self, shown: int) -> int:
        """How many moves a take-back keeps when the first ``shown`` moves are on view: the last
        shown one goes; against an engine, back until a person is to move again (at most two
        plies)."""
        runner = self.runner
        keep = shown - 1
        if runner is None or keep < 0:
            return 0
        board = runner.game.board_at(keep)
        if any(self._seats[color] is None for color in (RED, BLACK)):
            while keep > 0 and self._seats[board.turn] is not None:
                board.pop()
                keep -= 1
        return keep

    def pause(self) -> bool:
        """Pause the live game: the side to move stops thinking and its clock stops (the time it
        used stays spent; a per-move clock starts the move afresh on resume). False when there is
        no live game to pause."""
        if not self.is_on() or self._paused or self.runner is None:
            return False
        self._paused = True
        self._cancel_searches()
        self.runner.take_back(0, self.clock.now())
        self.clock.refresh()
        self.paused_changed.emit(True)
        return True

    def resume(self) -> bool:
        """Go on with a paused game: the side to move gets its turn (and clock) again."""
        if not self._paused:
            return False
        self._paused = False
        self.paused_changed.emit(False)
        self.begin_turn()
        return True
