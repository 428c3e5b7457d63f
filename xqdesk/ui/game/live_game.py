"""The window's live game: one seat per colour and the clock, on the one game runner.

A live game runs on the Qt-free :class:`~xqdesk.engines.play.game_runner.GameRunner` the command
line uses too: it keeps the clocks, judges every move, whether an engine's reply or a person's click
brought it, times out the side to move and writes the record (:attr:`LiveGame.game`); this object
only forwards events to it. Every seat is the play layer's asynchronous
:class:`~xqdesk.engines.play.seat.Seat` (cutechess's ``ChessPlayer::go()`` / ``moveMade``): the live
game holds one per colour (:mod:`xqdesk.ui.game.seats` makes them: a person, or an engine behind
its worker thread; the fog-of-war window makes its own) and asks whoever is to move; the answer
comes back to the ``reply_to`` of that ask. Each ask carries a token, and an answer whose token is
no longer awaited (after a takeback, a new game, a timeout) is ignored, so a late move never lands
in the wrong position. A person's click answers the person's ask (:meth:`LiveGame.offer`).

An engine seat is charged the time it thought, as the command line's referee charges it: from its
``go`` to its ``bestmove``, measured in the seat's own thread (the reply's ``elapsed``), whose
deadline also kills an engine that overruns; the hand-offs between threads, the position and
``isready`` before the search and the time a reply waits for a busy GUI thread are not the
engine's. The window's clock only stands guard behind it (the seat's ``reply_grace``), for a seat
whose thread never answers. A person (``is_human``) is charged from the moment the turn began to
the click. A seat that loses by a fault (timeout, crash, no or illegal move) is killed at once; the
next game starts a fresh one.

A variant whose seats see less than the board gives an observation hook (``on_position``, as the
command line's referee takes it): it sees the position when the game begins and after every move,
before the move is shown, and tells the seats what they see.

The settings it plays under (:class:`LiveSettings`: the clock an engine gets when a game sets none,
the delay between an engine's moves) come in one way: the constructor, then :meth:`LiveGame.configure`.

It tells what happened through signals: ``move_played(ChildNode)`` (a move the runner recorded, to
show), ``finished(Outcome)``, and ``engine_thinking``, ``engine_scored``, ``status_message``,
``alert``, ``paused_changed``, ``seats_starting``. ``follows`` says whether the window shows the
end of the game (moves are only asked for and played there).
"""
from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import GameRunner, Turn, lost_by_fault
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.i18n import tr
from xqdesk.ui.base.settings import EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.clock import GameClock
from xqdesk.ui.game.seats import (
    ENGINE_REPLY_GRACE,
    LiveSeat,
    SeatFactory,
    WorkerFactory,
    engine_label,
    start_engine_worker,
    window_seats,
)

__all__ = ["ENGINE_REPLY_GRACE", "LiveGame", "LiveSettings", "WorkerFactory", "engine_label", "start_engine_worker",
           "window_seats"]


@dataclass(frozen=True)
class LiveSettings:
    """What a live game is played under, from the window's settings: the clock an engine seat gets
    when a game sets none for it (``engine_clock``), and the seconds an engine's move waits at
    least after the move before it (``engine_delay``, to watch a game)."""

    engine_clock: TimeControl = TimeControl.per_move(10.0)
    engine_delay: float = 0.0


class SeatStarts:
    """Starts the seats a live game has just made and says how far their start has come
    (``report(ready, seats, name of the one starting now)``, ``''`` once all are ready): all at
    once, or (``in_turn``) each once the one before it is ready, as the command line's referee
    starts them."""

    def __init__(self, start: Callable[[Color], None], report: Callable[[int, int, str], None], *,
                 in_turn: bool = False) -> None:
        self._start = start
        self._report = report
        self._in_turn = in_turn
        self._queued: list[Color] = []
        """Seats made but not yet started (``in_turn``), in the order they start."""
        self._announced: list[Color] = []
        """The seats whose start is reported (those not ready when made)."""

    def begin(self, seats: Mapping[Color, LiveSeat], fresh: list[Color]) -> None:
        """Start the ``fresh`` seats among ``seats`` (the others were started before)."""
        unready = [color for color in fresh if not seats[color].is_ready()]
        queued = [color for color in self._queued if color in seats and color not in fresh]
        self._queued = queued + unready if self._in_turn else []
        self._announced = list(self._queued) if self._in_turn else unready
        for color in fresh:
            if color not in self._queued:
                self._start(color)
        self.next(seats)

    def next(self, seats: Mapping[Color, LiveSeat]) -> None:
        """A seat became ready (or failed): report, and start the next one waiting its turn."""
        starting = [color for color in self._announced if color not in self._queued
                    and (seat := seats.get(color)) is not None and not seat.is_ready() and not seat.has_failed()]
        if self._announced:
            order = starting + self._queued
            self._report(len(self._announced) - len(order), len(self._announced), seats[order[0]].name if order else "")
            if not order:
                self._announced = []
        if self._queued and not starting:
            self._start(self._queued.pop(0))


class LiveGame(QObject):
    """One seat per colour and the clock of the window's game; see the module docstring.

    ``seat_factory`` makes the seats (default: the main window's person and engine seats);
    ``on_position`` is a variant's observation hook; ``start_in_turn`` starts the seats one after
    another (each the moment the one before is ready) instead of all at once.
    """

    move_played = Signal(object)  # ChildNode the runner recorded
    finished = Signal(object)  # Outcome
    engine_thinking = Signal(bool, bool)  # colour, thinking?
    engine_scored = Signal(int, object, bool)  # ply searched, Score, mover
    status_message = Signal(str)
    alert = Signal(str)
    paused_changed = Signal(bool)
    seats_starting = Signal(int, int, str)  # seats ready, seats started, the one starting now ('': all ready)

    def __init__(self, follows: Callable[[], bool], seat_factory: SeatFactory | None = None,
                 settings: LiveSettings | None = None, parent: QObject | None = None, *,
                 on_position: Callable[[Board], None] | None = None, start_in_turn: bool = False) -> None:
        super().__init__(parent)
        self._follows = follows
        self._seat_factory = seat_factory if seat_factory is not None else window_seats()
        self._settings = settings if settings is not None else LiveSettings()
        self._on_position = on_position
        self.runner: GameRunner | None = None
        self._profiles: dict[Color, EngineProfile | None] = {RED: None, BLACK: None}
        self._players: dict[Color, LiveSeat] = {}
        """The seat of each colour (none for a colour whose seat lost by a fault: it is retired)."""
        self._retired: list[LiveSeat] = []
        self._starts = SeatStarts(self._start_seat, self.seats_starting.emit, in_turn=start_in_turn)
        self._asked: dict[Color, int] = {}
        """The token of the ask each colour's answer is awaited for."""
        self._tokens = itertools.count(1)
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

    # --- settings ------------------------------------------------------------------------------
    @property
    def settings(self) -> LiveSettings:
        return self._settings

    def configure(self, settings: LiveSettings) -> None:
        """Play under ``settings`` from now on (the engine clock applies from the next game)."""
        self._settings = settings

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
        return self._profiles[color]

    def player(self, color: Color) -> LiveSeat | None:
        """The seat object of ``color`` (None once it was retired after a fault)."""
        return self._players.get(color)

    def worker(self, color: Color) -> EngineWorker | None:
        seat = self._players.get(color)
        return seat.worker if seat is not None else None

    def is_thinking(self, color: Color) -> bool:
        seat = self._players.get(color)
        asked = color in self._asked and seat is not None and not seat.is_human
        return asked or (self._delayed is not None and self._delayed[0] == color)

    def is_paused(self) -> bool:
        return self._paused

    def _clock_grace(self, color: Color) -> float:
        """How long past its allowance the window's clock lets ``color`` run before judging it out
        of time: an engine seat is judged by its own thread (see the module docstring)."""
        seat = self._players.get(color)
        return seat.reply_grace if seat is not None else 0.0

    def _awaits_move(self) -> bool:
        """Whether the side to move at the end of the live game may move now."""
        return self.is_on() and self._follows() and not self._paused

    # --- starting and ending -----------------------------------------------------------------------
    def start(self, red: EngineProfile | None, black: EngineProfile | None, start: Board,
              headers: Mapping[str, str], time_controls: Mapping[Color, TimeControl] | None) -> Game:
        """Seat ``red``/``black`` (None: a person) and start a game from ``start``; the record
        the runner will write (with ``headers`` and the seats' names). A side ``time_controls``
        leaves out gets the settings' engine clock when an engine plays it, and no clock for a
        person."""
        self.halt()
        self.set_seats(red, black)
        controls = dict(time_controls or {})
        for color in (RED, BLACK):
            if color not in controls:
                controls[color] = self._settings.engine_clock if self._profiles[color] is not None else TimeControl.unlimited()
        names = {"Red": self.seat_name(RED), "Black": self.seat_name(BLACK)}
        self.runner = GameRunner(start, controls, headers={**names, **headers})
        self.clock.follow(self.runner)
        for seat in self._players.values():
            seat.new_game()
        if self._on_position is not None:
            self._on_position(self.runner.board())
        return self.runner.game

    def seat_name(self, color: Color) -> str:
        profile = self._profiles[color]
        return engine_label(profile) if profile is not None else tr("Person")

    def halt(self) -> None:
        """Stop the game for good (asks, clock, pause); the seats stay until replaced."""
        if self._paused:
            self._paused = False
            self.paused_changed.emit(False)
        self._cancel_asks()
        self.runner = None
        self.clock.follow(None)

    def set_seats(self, red: EngineProfile | None, black: EngineProfile | None) -> None:
        """Seat these engines (None: a person), keeping seats that stay seated and still work."""
        wanted = {RED: red, BLACK: black}
        for retired in self._retired:
            retired.close()  # killed already: this only joins its thread
        self._retired.clear()
        fresh: list[Color] = []
        for color in (RED, BLACK):
            seat = self._players.get(color)
            if seat is not None and (wanted[color] != self._profiles[color] or seat.has_failed()):
                seat.close()
                del self._players[color]
            if color not in self._players:
                self._players[color] = self._seat_factory(color, wanted[color])
                fresh.append(color)
        self._profiles = wanted
        self._starts.begin(self._players, fresh)

    def _start_seat(self, color: Color) -> None:
        seat = self._players[color]
        seat.start(functools.partial(self._on_seat_ready, color, seat),
                   functools.partial(self._on_seat_failed, color, seat))

    def shutdown(self) -> None:
        """Stop every seat (engine processes and threads; call before the window goes)."""
        self.halt()
        for seat in [*self._players.values(), *self._retired]:
            seat.close()
        self._players.clear()
        self._retired.clear()
        self._starts.begin({}, [])

    # --- turns -----------------------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Hand the move to whoever is to play at the end of the live game: the runner starts the
        side's clock and says what an engine is told of its time; the side's seat is asked."""
        runner = self.runner
        if runner is None or not self._awaits_move() or self._delayed is not None:
            return  # no game, looking back, paused, or a move played but not yet shown
        color = runner.board().turn
        if color in self._asked or self._seats_starting():
            return  # already asked, or a seat still starting: the turn and clock begin once all are ready
        started = self.clock.now()
        turn = runner.start_turn(started)
        self._turn_started = started
        self.clock.refresh()
        if turn is None:
            if runner.outcome is not None:
                self._finish(runner.outcome)
            return
        self._ask(color, turn)

    def _ask(self, color: Color, turn: Turn) -> None:
        """Ask ``color``'s seat for its move; its answer comes to :meth:`_on_reply`."""
        runner = self.runner
        seat = self._players.get(color)
        if runner is None or seat is None:
            return
        token = next(self._tokens)
        self._asked[color] = token
        seat.ask(runner.board(), turn, functools.partial(self._on_reply, color, token))
        if not seat.is_human and self._asked.get(color) == token:  # an engine thinks until it answers
            self.engine_thinking.emit(color, True)

    def offer(self, move: Move) -> None:
        """A person's move at the end of the live game (judged and timed by the runner first). A
        person may move while an engine seat still starts: the turn then begins with the move."""
        runner = self.runner
        if runner is None:
            return
        color = runner.board().turn
        seat = self._players.get(color)
        if seat is None or not seat.is_human:
            return
        if color not in self._asked:
            if runner.turn is None:
                self._turn_started = self.clock.now()
                runner.start_turn(self._turn_started)
            turn = runner.turn
            if turn is None:
                return
            self._ask(color, turn)
        seat.offer(move)

    def _on_reply(self, color: Color, token: int, reply: MoveReply) -> None:
        """The answer of ``color``'s seat to the ask ``token``."""
        runner = self.runner
        if self._asked.get(color) != token:
            return  # a reply nobody waits for any more
        del self._asked[color]
        seat = self._players.get(color)
        if runner is None or seat is None or not self._awaits_move() or runner.board().turn != color:
            return
        if seat.is_human:  # a person's time is the window's clock's, from the turn's start to now
            if self._submit(reply):
                self._played()
            return
        if reply.score is not None:
            self.engine_scored.emit(len(runner.board().move_stack), reply.score, color)
        self.engine_thinking.emit(color, False)
        if reply.offer is not None and reply.move is not None:
            self.status_message.emit(tr("The engine offers a draw") if reply.offer == "draw"
                                     else tr("The engine would resign"))
        if not self._submit(reply, thought=reply.elapsed):
            return
        wait = self._settings.engine_delay - (time.monotonic() - self._last_move_at)
        if wait > 0.005:
            self.engine_thinking.emit(color, True)
            self._delayed = (color, len(runner.played))
            self._delay_timer.start(int(wait * 1000))
            return
        self._played()

    def _play_delayed_move(self) -> None:
        """An engine's move held back by the settings' delay (the runner has played it) is shown."""
        delayed, self._delayed = self._delayed, None
        if delayed is None or self.runner is None:
            return
        color, played = delayed
        self.engine_thinking.emit(color, False)
        if len(self.runner.played) == played:
            self._played()

    def _played(self) -> None:
        """Show the move the runner has just recorded (the observation hook sees the position
        first), then end the game or go on with it."""
        runner = self.runner
        if runner is None:
            return
        self._last_move_at = time.monotonic()
        if self._on_position is not None:
            self._on_position(runner.board())
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

    def _seats_starting(self) -> bool:
        """Whether a seat is still starting. No clock runs until every seat is ready, as on the
        command line, whose referee starts both seats before the first move: an engine that loads
        (compiles, reads its networks) takes the processor from the one thinking."""
        return any(not seat.is_ready() and not seat.has_failed() for seat in self._players.values())

    def _on_seat_ready(self, color: Color, seat: LiveSeat) -> None:
        """A seat finished starting: once all are, the side to move's turn (and clock) begins."""
        if self._players.get(color) is not seat:
            return
        self._starts.next(self._players)
        if self.runner is not None:
            self.begin_turn()

    def _on_seat_failed(self, color: Color, seat: LiveSeat, message: str) -> None:
        """A seat failed. One that never finished starting has made no move to judge: the game is
        aborted, with no result; one that fails on its move loses by the fault."""
        if self._players.get(color) is not seat:
            return
        runner = self.runner
        waiting = color in self._asked or (runner is not None and runner.board().turn == color)
        self._asked.pop(color, None)
        self._starts.next(self._players)
        self.status_message.emit(tr("Engine failed: {reason}").format(reason=message))
        self.alert.emit(tr("Engine failed: {reason}").format(reason=message))
        if not seat.is_ready() and self.is_on():
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
        """End the live game with ``outcome``; ``faulty`` is the seat that lost by a fault (it is
        ended at once, as the command line's referee does)."""
        if self.runner is not None and self.runner.outcome is None:
            self.runner.finish(outcome, self.clock.now())
        self.clock.refresh()
        self._cancel_asks()
        if faulty is not None and lost_by_fault(outcome, faulty):
            self._retire(faulty)
        self.finished.emit(outcome)

    def _retire(self, color: Color) -> None:
        """End the seat that lost by a fault at once; the next game seats a fresh one (the window
        keeps showing a retired engine's log until then)."""
        seat = self._players.pop(color, None)
        if seat is None:
            return
        seat.kill()
        self._retired.append(seat)

    def _cancel_asks(self) -> None:
        for color in list(self._asked):
            seat = self._players.get(color)
            if seat is not None:
                seat.cancel()
                if not seat.is_human:
                    self.engine_thinking.emit(color, False)
        self._asked.clear()
        if self._delayed is not None:
            self.engine_thinking.emit(self._delayed[0], False)
        self._delayed = None
        self._delay_timer.stop()

    # --- a person's commands ---------------------------------------------------------------------
    def resign(self) -> bool:
        """The person to move (or the only person seated) resigns; whether there was one."""
        if not self.is_on() or self.runner is None:
            return False
        people = [color for color in (RED, BLACK) if self._profiles[color] is None]
        if not people:
            return False
        turn = self.runner.board().turn
        self._finish(Outcome.resignation(turn if turn in people else people[0]))
        return True

    def take_back(self, keep: int) -> None:
        """Undo the game's moves after the first ``keep`` (the time already used stays spent)."""
        runner = self.runner
        self._cancel_asks()
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
        if any(self._profiles[color] is None for color in (RED, BLACK)):
            while keep > 0 and self._profiles[board.turn] is not None:
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
        self._cancel_asks()
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
