"""The one object that owns and changes the window's game: its record, the viewed ply, the seats,
the clock and the engines that play.

Widgets never change the game; they call the controller's methods and watch its signals:

* ``game_changed`` — the move list changed (a new game, a record loaded, a move added, moves cut,
  a variation entered or left);
* ``comment_changed(int)`` — the comment after the move at that ply (0: the game's opening comment)
  was edited;
* ``position_changed`` — the viewed position changed (after a move, a step, a jump);
* ``move_made(Move)`` — a move was added at the end of the game;
* ``game_over(Outcome)`` — the live game ended (by the rules, a timeout, an engine fault, resignation);
* ``clock_ticked(ClockReading)``, ``status_message(str)``, ``hint_ready(Move)``, ``seats_changed``;
* ``alert(str)`` — a problem that must not be missed (an engine seat failed);
* ``paused_changed(bool)`` — an engine-vs-engine game was paused or resumed.

A live game runs on the Qt-free :class:`~xqdesk.engines.play.game_runner.GameRunner` the command line
uses too: it keeps the clocks and judges every move, whether an engine's reply or a person's click
brought it, and times out the side to move (the controller only forwards events to it). A person
is a seat like an engine: a click becomes a move offered by the colour's
:class:`~xqdesk.engines.play.person_seat.PersonSeat`, the same seat ``xqdesk play`` reads typed moves into. A seat
that loses by a fault (timeout, crash, no or illegal move) has its engine process killed at once;
the next game starts a fresh one.

Engines think in their own process behind an :class:`~xqdesk.ui.engine_worker.EngineWorker`;
every request carries an id, and a reply whose id is no longer awaited (after a takeback, a new game,
a timeout) is ignored, so a late move never lands in the wrong position.

The record is the core's game tree (:class:`~xqdesk.game.GameNode`); the controller keeps the viewed
line, the path from the root to the end of the main line or of a variation, and the viewed node on
it; stepping, jumping and the ply all refer to the viewed line, and every change to the record is a
tree operation (add, promote, remove a variation, cut). Play modes always stay on the main line; in analysis a move that differs
from the recorded one starts a new variation instead of cutting the line.
"""
from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import GameRunner
from xqdesk.engines.play.person_seat import PersonSeat
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.transport.uci_engine import SearchResult
from xqdesk.fen import STARTING_FEN
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.clock import GameClock
from xqdesk.ui.connections import SignalConnections
from xqdesk.ui.engine_worker import EngineWorker
from xqdesk.ui.i18n import tr, tr_outcome
from xqdesk.ui.move_reasons import illegal_move_reason
from xqdesk.ui.settings import EngineKind, EngineProfile

HINT_MOVE_TIME = 1.0
HINT_PROFILE = EngineProfile("Built-in (hint)", EngineKind.BUILTIN, level=3)


class Mode(enum.Enum):
    """What the window is doing with the game."""

    PERSON_VS_PERSON = "person-vs-person"
    PERSON_VS_ENGINE = "person-vs-engine"
    ENGINE_VS_ENGINE = "engine-vs-engine"
    ANALYSIS = "analysis"
    REPLAY = "replay"

    @property
    def is_play(self) -> bool:
        """Modes in which seats take turns under the clock."""
        return self in (Mode.PERSON_VS_PERSON, Mode.PERSON_VS_ENGINE, Mode.ENGINE_VS_ENGINE)


WorkerFactory = Callable[[EngineProfile], EngineWorker]


def start_engine_worker(profile: EngineProfile) -> EngineWorker:
    """The standard worker factory: the engine's process behind its own thread."""
    return EngineWorker(profile.to_spec())


class GameController(QObject):
    """Owns the current game; see the module docstring for the signals."""

    game_changed = Signal()
    position_changed = Signal()
    move_made = Signal(object)  # Move
    game_over = Signal(object)  # Outcome
    clock_ticked = Signal(object)  # ClockReading
    status_message = Signal(str)
    hint_ready = Signal(object)  # Move
    comment_changed = Signal(int)  # ply whose comment changed (0: the game's opening comment)
    seats_changed = Signal()
    engine_thinking = Signal(bool, bool)  # colour, thinking?
    engine_scored = Signal(int, object, bool)  # ply searched, Score (mover's view), mover
    alert = Signal(str)  # a problem the window shows until dismissed
    paused_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, move_limit: float | None = 10.0,
                 engine_delay: float = 0.0, worker_factory: WorkerFactory = start_engine_worker) -> None:
        """``move_limit``: the seconds per move an engine seat gets when a game sets no clock for
        it (the course's 10; None: no clock). A person has no clock unless the game sets one."""
        super().__init__(parent)
        self._worker_factory = worker_factory
        self._game = Game()
        self._board = self._game.start_board()
        self._ply = 0
        self._line: list[ChildNode] = []  # the viewed line: the path from the root to its last node
        self._outcome: Outcome | None = None
        self._mode = Mode.PERSON_VS_PERSON
        self._seats: dict[Color, EngineProfile | None] = {RED: None, BLACK: None}
        self._persons = {color: PersonSeat(listener=self._on_person_reply) for color in (RED, BLACK)}
        self._workers: dict[Color, EngineWorker] = {}
        self._pending: dict[Color, int] = {}
        self._fresh_workers: set[Color] = set()
        self._hint_worker: EngineWorker | None = None
        self._hint_request: int | None = None
        self.engine_clock = TimeControl.unlimited() if move_limit is None else TimeControl.per_move(move_limit)
        self.engine_delay = engine_delay
        self._runner: GameRunner | None = None
        self._retired_workers: list[EngineWorker] = []
        self._seat_connections = {RED: SignalConnections(), BLACK: SignalConnections()}
        self._last_move_at = time.monotonic()
        self._clock = GameClock(parent=self)
        self._clock.ticked.connect(self.clock_ticked)
        self._clock.expired.connect(self._on_clock_expired)
        self._delayed_engine_move: tuple[Color, int, Move] | None = None
        self._delay_timer = QTimer(self)
        self._delay_timer.setSingleShot(True)
        self._delay_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._delay_timer.timeout.connect(self._play_delayed_engine_move)
        self._replay_timer = QTimer(self)
        self._replay_timer.timeout.connect(self._replay_step)
        self._paused = False
        self.notation = Notation.ICCS
        """The notation refused moves are written in (the window keeps it the move list's)."""

    # --- reading the state -------------------------------------------------------------------
    def board(self) -> Board:
        """A copy of the viewed position."""
        return self._board.copy()

    def game(self) -> Game:
        """The game record (do not change it; use the controller's methods)."""
        return self._game

    def ply(self) -> int:
        """How many moves of the viewed line lead to the viewed position."""
        return self._ply

    def length(self) -> int:
        """The number of moves in the viewed line (the main line unless a variation is entered)."""
        return len(self._line)

    def at_end(self) -> bool:
        return self._ply == len(self._line)

    def last_move(self) -> Move | None:
        """The move that led to the viewed position."""
        return self._line[self._ply - 1].move if self._ply > 0 else None

    def line(self) -> list[ChildNode]:
        """The viewed line from the start: the main line, or the path through the tree to the end
        of a variation (a new list; its nodes are the game's)."""
        return list(self._line)

    def line_moves(self) -> list[Move]:
        """The moves of the viewed line."""
        return [node.move for node in self._line if node.move is not None]

    def node(self) -> GameNode:
        """The node of the viewed position (the game itself at the start)."""
        return self._line[self._ply - 1] if self._ply > 0 else self._game

    def variation_depth(self) -> int:
        """How many variations deep the viewed line is (0: the main line)."""
        return sum(1 for node in self._line if node.starts_variation())

    def _alternative_nodes(self) -> list[ChildNode]:
        """The recorded continuations of the viewed position, the viewed line's own first."""
        if self._ply >= len(self._line):
            return []
        ahead = self._line[self._ply]
        return [ahead] + [node for node in self.node().variations if node is not ahead]

    def alternatives(self) -> list[Move]:
        """The moves the record has from the viewed position: the viewed line's next move first,
        then the other recorded moves ([] at the end of the line)."""
        return [node.move for node in self._alternative_nodes() if node.move is not None]

    def comment(self) -> str:
        """The comment after the move that led to the viewed position (at the start: the game's
        opening comment)."""
        return self.node().comment

    def outcome(self) -> Outcome | None:
        """How the game ended (from play or from the record), None while it goes on."""
        return self._outcome

    def mode(self) -> Mode:
        return self._mode

    def seat(self, color: Color) -> EngineProfile | None:
        """The engine playing ``color`` (None: a person)."""
        return self._seats[color]

    def worker(self, color: Color) -> EngineWorker | None:
        return self._workers.get(color)

    def clock(self) -> GameClock:
        return self._clock

    def is_thinking(self, color: Color) -> bool:
        return color in self._pending or (self._delayed_engine_move is not None
                                          and self._delayed_engine_move[0] == color)

    def movable_colors(self) -> frozenset[Color]:
        """The colours a person may move on the board now."""
        if self._mode in (Mode.ANALYSIS, Mode.REPLAY):  # a move off the record starts a variation
            return frozenset((RED, BLACK))
        if self._outcome is not None or not self.at_end() or self._paused:
            return frozenset()
        return frozenset(color for color in (RED, BLACK) if self._seats[color] is None)

    def why_not_movable(self) -> str:
        """Why a person may not move the side to move now ('' when they may)."""
        turn = self._board.turn
        if turn in self.movable_colors():
            return ""
        if self._outcome is not None and self.at_end():
            return tr("Game over: {text}").format(text=tr_outcome(self._outcome.text))
        if not self.at_end():
            return tr("You are looking at an earlier position: go to the last move (End) to play")
        if self._paused:
            return tr("The game is paused")
        return tr("Not your move now: {side} is played by an engine").format(side=_side_text(turn))

    # --- starting games ------------------------------------------------------------------------
    def new_game(self, mode: Mode = Mode.PERSON_VS_PERSON, *, red: EngineProfile | None = None,
                 black: EngineProfile | None = None, start_fen: str = STARTING_FEN,
                 headers: dict[str, str] | None = None,
                 time_controls: Mapping[Color, TimeControl] | None = None) -> None:
        """Start a game from ``start_fen`` with ``red``/``black`` engines (None: a person).

        ``time_controls`` gives each side's clock; a side it leaves out gets, when an engine
        plays it, :attr:`engine_clock` (the course's 10 s a move), and when a person does, none.
        Raises InvalidFenError for a bad FEN (nothing changes then).
        """
        start = Board(start_fen)
        self._halt()
        self._set_seats(red if mode.is_play else None, black if mode.is_play else None)
        self._runner = None
        if mode.is_play:
            controls = dict(time_controls or {})
            for color in (RED, BLACK):
                if color not in controls:
                    controls[color] = self.engine_clock if self._seats[color] is not None else TimeControl.unlimited()
            self._runner = GameRunner(start, controls)
        self._clock.follow(self._runner)
        names = {"Red": self._seat_name(RED), "Black": self._seat_name(BLACK)}
        self._game = Game(headers={**names, **(headers or {})}, start_fen=start.fen())
        self._line = []
        self._board = start
        self._ply = 0
        self._outcome = None
        self._mode = mode
        self._fresh_workers = set(self._workers)
        self.game_changed.emit()
        self.position_changed.emit()
        self.seats_changed.emit()
        self._begin_turn()

    def load_game(self, game: Game, mode: Mode = Mode.REPLAY, ply: int | None = 0) -> None:
        """Show a game record (checked first: raises IllegalMoveError naming the bad move and
        changing nothing). ``ply`` is where to stand (None: at the end)."""
        end = game.replay()
        self._halt()
        self._set_seats(None, None)
        self._game = game
        self._line = game.mainline()
        self._mode = mode
        self._outcome = game.outcome if game.outcome is not None else end.outcome()
        self._ply = len(self._line)
        self._board = end
        self.game_changed.emit()
        self.seats_changed.emit()
        self.go_to(len(self._line) if ply is None else ply, force_signal=True)
        if self._outcome is not None and self.at_end():
            self.game_over.emit(self._outcome)

    def set_mode(self, mode: Mode) -> None:
        """Switch to analysis or replay keeping the game (play modes start with :meth:`new_game`)."""
        if mode.is_play:
            raise ValueError(f"start a {mode.value!r} game with new_game(), not set_mode()")
        self._halt()
        self._set_seats(None, None)
        self._mode = mode
        self.seats_changed.emit()
        self.position_changed.emit()

    # --- moves ---------------------------------------------------------------------------------
    def play_move(self, move: Move) -> bool:
        """A person's move on the viewed position. Refuses (status message, False) when it is not
        legal or not a person's turn. In analysis and replay, a move before the end of the viewed
        line that differs from the recorded one (and from its variations) becomes a new variation
        there."""
        if self._board.turn not in self.movable_colors():
            self.status_message.emit(tr("Illegal move: {reason}").format(reason=self.why_not_movable()))
            return False
        if not self._board.is_legal(move):
            self.status_message.emit(illegal_move_reason(self._board, move, self.notation))
            return False
        if self._mode in (Mode.ANALYSIS, Mode.REPLAY) and not self.at_end():
            recorded = self.alternatives()
            if move in recorded:
                self.choose_alternative(recorded.index(move))
                return True
            self._view(self.node().add_variation(move))
            self.move_made.emit(move)
            self._report_variation_end()
            return True
        self._append(move)
        return True

    def _append(self, move: Move) -> None:
        """A person's move at the end of the game: in a live game it goes through the person's
        seat to the runner, which judges and times it first."""
        if self._runner is not None:
            self._persons[self._board.turn].offer(move)
            return
        self._record(move)

    def _on_person_reply(self, reply: MoveReply) -> None:
        """A person's seat offers its move in the live game."""
        if self._hand_to_runner(reply) and reply.move is not None:
            self._record(reply.move)

    def _hand_to_runner(self, reply: MoveReply) -> bool:
        """Give the live game's runner the reply of the side to move. True when it played the move
        (the game may then be over by the rules, which :meth:`_record` says); False when the reply
        lost the game (a timeout, no move, an illegal one), which is then finished here."""
        runner = self._runner
        if runner is None:
            return False
        color = self._board.turn
        if runner.turn is None:
            runner.start_turn(self._clock.now())  # a seat that failed before its turn began
        played = len(runner.move_times)
        outcome = runner.submit(reply, self._clock.now())
        self._clock.refresh()
        if len(runner.move_times) > played:
            return True
        if outcome is not None:
            self._finish(outcome, faulty=color)
        return False

    def _record(self, move: Move) -> None:
        """Add ``move`` at the end of the viewed line and go on with the game."""
        self._line.append(self.node().add_variation(move))
        self._board.push(move)
        self._ply += 1
        self._last_move_at = time.monotonic()
        self.game_changed.emit()
        self.move_made.emit(move)
        self.position_changed.emit()
        if self.variation_depth():
            self._report_variation_end()
        elif self._mode.is_play or self._mode is Mode.ANALYSIS:
            outcome = self._board.outcome()
            if outcome is not None:
                self._finish(outcome)
                return
        self._begin_turn()

    # --- variations and comments -----------------------------------------------------------------
    def choose_alternative(self, index: int) -> None:
        """Play the recorded move ``alternatives()[index]``: 0 steps on along the viewed line, a
        higher index enters that variation (its first move played)."""
        recorded = self.alternatives()
        if not 0 <= index < len(recorded):
            raise IndexError(f"alternative {index!r} is not among the {len(recorded)} recorded at ply {self._ply}")
        if index == 0:
            self.forward()
        else:
            self._view(self._alternative_nodes()[index])

    def _branch(self) -> ChildNode | None:
        """The first node of the innermost variation the viewed line goes through (None: main line)."""
        return next((node for node in reversed(self._line) if node.starts_variation()), None)

    def view_node(self, node: GameNode) -> None:
        """Show the position at ``node`` of the game's tree (the variation tree's click): the
        viewed line becomes the one through it, to the end of its main continuation. Refused in
        a live game (its line is the game's)."""
        if self._mode.is_play and self._outcome is None:
            self.status_message.emit(tr("The game is on: only its own moves can be shown"))
            return
        self._view(node)

    def leave_variation(self) -> None:
        """Go back to the line the viewed variation branches from, at the branch point."""
        branch = self._branch()
        if branch is not None and branch.parent is not None:
            self._view(branch.parent)

    def delete_variation(self) -> None:
        """Remove the innermost variation the viewed line goes through, and stand where it began."""
        branch = self._branch()
        if branch is None or branch.parent is None or self._mode.is_play:
            return
        parent = branch.parent
        parent.remove_variation(branch)
        self._view(parent)

    def promote_variation(self) -> None:
        """Make the innermost variation the viewed line goes through the main continuation there
        (the view stays where it is; the old main continuation becomes a variation)."""
        branch = self._branch()
        if branch is None or branch.parent is None or self._mode.is_play:
            return
        branch.parent.promote_to_main(branch)
        self.game_changed.emit()
        self.position_changed.emit()

    def cut_from_here(self) -> None:
        """Remove every move recorded after the viewed position (not during a live game)."""
        node = self.node()
        if self._mode.is_play or not node.variations:
            return
        node.cut()
        self._view(node)

    def set_comment(self, text: str) -> None:
        """Write ``text`` as the comment after the viewed move (at the start: the game's comment)."""
        if text == self.comment():
            return
        self.node().comment = text
        self.comment_changed.emit(self._ply)

    def _view(self, node: GameNode) -> None:
        """Stand at ``node``, viewing the line through it to the end of its main continuation."""
        self._line = node.end().path()
        self._ply = node.ply()
        self._board = self._board_at(self._ply)
        self.game_changed.emit()
        self.position_changed.emit()

    def _report_variation_end(self) -> None:
        """Say so when the viewed variation ends the game by the rules (the game goes on)."""
        outcome = self._board.outcome()
        if outcome is not None:
            self.status_message.emit(tr("End of the variation: {text}").format(text=tr_outcome(outcome.text)))

    def _board_at(self, ply: int) -> Board:
        """The position after the first ``ply`` moves of the viewed line."""
        board = self._game.start_board()
        for move in self.line_moves()[:ply]:
            board.push(move)
        return board

    def take_back(self) -> None:
        """Undo the last move — or, against an engine, back to the person's previous turn. A
        search in progress is cancelled and its late reply will be ignored. In analysis the move
        that led to the viewed position goes, with every move after it."""
        if self._mode is Mode.REPLAY or not self._line:
            return
        if self._mode is Mode.ANALYSIS:
            if self._ply == 0:
                return
            node = self._line[self._ply - 1]
            parent = node.parent
            if node.starts_variation():  # the variation's first move goes: the whole variation goes
                parent.remove_variation(node)
            else:  # the move goes with every move after it, and the alternatives to it
                parent.cut()
            self._view(parent)
            return
        else:
            keep = len(self._line) - 1
            if self._mode is Mode.PERSON_VS_ENGINE:
                # Undo until a person's colour is to move again (at most two plies).
                board = self._game.end_board()
                board.pop()
                while keep > 0 and self._seats[board.turn] is not None:
                    board.pop()
                    keep -= 1
        self._cancel_searches()
        if self._runner is not None:
            self._runner.take_back(len(self._runner.move_times) - keep, self._clock.now())
            self._clock.refresh()
        (self._line[keep - 1] if keep > 0 else self._game).cut()
        del self._line[keep:]
        self._outcome = None
        self._game.outcome = None
        self._ply = keep
        self._board = self._board_at(keep)
        self.game_changed.emit()
        self.position_changed.emit()
        self._begin_turn()

    def resign(self) -> None:
        """The person to move (or the only person seated) resigns the live game."""
        if not self._mode.is_play or self._outcome is not None:
            return
        people = [color for color in (RED, BLACK) if self._seats[color] is None]
        if not people:
            return
        loser = self._board.turn if self._board.turn in people else people[0]
        self._finish(Outcome.resignation(loser))

    def hint(self) -> bool:
        """Ask the hint engine for a move in the viewed position; ``hint_ready`` brings it. Works
        whenever a person is to move (in any mode, a finished game's analysis too); refused, with
        the reason as a status message, when the position is over or an engine is to move in the
        live game. Returns whether a hint was asked for."""
        if self._board.outcome() is not None:
            self.status_message.emit(tr("No hint: the game is over in this position"))
            return False
        turn = self._board.turn
        if self._mode.is_play and self._outcome is None and self.at_end() and self._seats[turn] is not None:
            self.status_message.emit(
                tr("No hint now: {side} is to move and is played by an engine").format(side=_side_text(turn)))
            return False
        if self._hint_worker is None or self._hint_worker.has_failed():
            self._hint_worker = self._worker_factory(HINT_PROFILE)
            self._hint_worker.best_move.connect(self._on_hint)
            self._hint_worker.start()
        self._hint_request = self._hint_worker.search(
            self._game.start_fen, self.line_moves()[:self._ply], SearchLimits(movetime=HINT_MOVE_TIME))
        self.status_message.emit(tr("Thinking…"))
        return True

    def _on_hint(self, request_id: int, result: SearchResult) -> None:
        if request_id != self._hint_request:
            return
        self._hint_request = None
        move = result.move
        if move is not None and self._board.is_legal(move):
            self.hint_ready.emit(move)

    # --- pausing a live game ----------------------------------------------------------------------
    def is_paused(self) -> bool:
        return self._paused

    def pause(self) -> bool:
        """Pause the live game: the side to move stops thinking and its clock stops (the time it
        used stays spent; a per-move clock starts the move afresh on resume). False when there is
        no live game to pause."""
        if not self._mode.is_play or self._outcome is not None or self._paused or self._runner is None:
            return False
        self._paused = True
        self._cancel_searches()
        self._runner.take_back(0, self._clock.now())
        self._clock.refresh()
        self.paused_changed.emit(True)
        self.position_changed.emit()
        return True

    def resume(self) -> bool:
        """Go on with a paused game: the side to move gets its turn (and clock) again."""
        if not self._paused:
            return False
        self._paused = False
        self.paused_changed.emit(False)
        self.position_changed.emit()
        self._begin_turn()
        return True

    def stop_game(self) -> bool:
        """Stop the live game for good, keeping its moves (without a result) to replay or analyse."""
        if not self._mode.is_play:
            return False
        self.set_mode(Mode.REPLAY)
        self.status_message.emit(tr("Game stopped"))
        return True

    # --- navigation ----------------------------------------------------------------------------
    def go_to(self, ply: int, force_signal: bool = False) -> None:
        """Show the position after ``ply`` moves (clamped to the game). During a live game this
        only looks back; moves are made at the end."""
        ply = max(0, min(ply, len(self._line)))
        if ply == self._ply and not force_signal:
            return
        ahead = self._line[self._ply].move if ply == self._ply + 1 else None
        if ahead is not None:
            self._board.push(ahead)
        elif ply == self._ply - 1 and len(self._board.move_stack) > 0:
            self._board.pop()
        elif ply != self._ply:
            self._board = self._board_at(ply)
        self._ply = ply
        self.position_changed.emit()

    def forward(self) -> None:
        self.go_to(self._ply + 1)

    def back(self) -> None:
        self.go_to(self._ply - 1)

    def to_start(self) -> None:
        self.go_to(0)

    def to_end(self) -> None:
        self.go_to(len(self._line))

    def start_autoplay(self, delta_time: float) -> None:
        """Step forward every ``delta_time`` seconds until the end (replays)."""
        self._replay_timer.start(max(1, int(delta_time * 1000)))

    def stop_autoplay(self) -> None:
        self._replay_timer.stop()

    def is_autoplaying(self) -> bool:
        return self._replay_timer.isActive()

    def _replay_step(self) -> None:
        if self.at_end():
            self._replay_timer.stop()
            if self._outcome is not None:
                self.game_over.emit(self._outcome)
            return
        self.forward()
        if self.at_end():
            self._replay_timer.stop()
            if self._outcome is not None:
                self.game_over.emit(self._outcome)

    # --- turns, engines and the clock ------------------------------------------------------------
    def _seat_name(self, color: Color) -> str:
        profile = self._seats[color]
        return profile.name if profile is not None else tr("Person")

    def _set_seats(self, red: EngineProfile | None, black: EngineProfile | None) -> None:
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
                worker = self._worker_factory(profile)
                connect = self._seat_connections[color].connect
                connect(worker.best_move, lambda request_id, result, c=color: self._on_engine_move(c, request_id, result))
                connect(worker.engine_failed, lambda message, c=color: self._on_engine_failed(c, message))
                connect(worker.engine_ready, lambda _description, c=color: self._on_engine_ready(c))
                worker.start()
                self._workers[color] = worker
        self._seats = wanted

    def _retire_worker(self, color: Color) -> None:
        """End the engine process of a seat that lost by a fault at once; the next game starts a
        fresh one (the window keeps showing the retired engine's log until then)."""
        worker = self._workers.pop(color, None)
        if worker is None:
            return
        self._seat_connections[color].disconnect_all()
        worker.kill()
        self._retired_workers.append(worker)

    def _begin_turn(self) -> None:
        """Hand the move to whoever is to play at the end of the live game: the runner starts the
        side's clock and says what an engine is told of its time."""
        runner = self._runner
        if runner is None or not self._mode.is_play or self._outcome is not None or not self.at_end() \
                or self._paused:
            return
        color = self._board.turn
        worker = self._workers.get(color)
        if color in self._pending or (worker is not None and worker.description is None and not worker.has_failed()):
            return  # already asked, or an engine still starting: its turn and clock begin once it is ready
        turn = runner.start_turn(self._clock.now())
        self._clock.refresh()
        if turn is None:
            if runner.outcome is not None:
                self._finish(runner.outcome)
            return
        if worker is None:
            return
        new_game = color in self._fresh_workers
        self._fresh_workers.discard(color)
        self._pending[color] = worker.search(self._game.start_fen, self._game.mainline_moves(), turn.limits,
                                             new_game=new_game)
        self.engine_thinking.emit(color, True)

    def _on_engine_move(self, color: Color, request_id: int, result: SearchResult) -> None:
        if self._pending.get(color) != request_id:
            return  # a reply nobody waits for any more
        del self._pending[color]
        if self._outcome is not None or not self.at_end() or self._board.turn != color:
            return
        scored = [info for info in result.infos if info.score is not None and info.multipv in (None, 1)]
        if scored:
            self.engine_scored.emit(self._ply, scored[-1].score, color)
        self.engine_thinking.emit(color, False)
        move = result.move
        error = None if move is not None else (result.error or f"engine answered bestmove {result.best.text!r}")
        if result.best.offer is not None and move is not None:
            text = tr("The engine offers a draw") if result.best.offer == "draw" else tr("The engine would resign")
            self.status_message.emit(text)
        if not self._hand_to_runner(MoveReply(move=move, error=error)) or move is None:
            return
        wait = self.engine_delay - (time.monotonic() - self._last_move_at)
        if wait > 0.005:
            self.engine_thinking.emit(color, True)
            self._delayed_engine_move = (color, request_id, move)
            self._delay_timer.start(int(wait * 1000))
            return
        self._record(move)

    def _play_delayed_engine_move(self) -> None:
        if self._delayed_engine_move is None:
            return
        color, _request_id, move = self._delayed_engine_move
        self._delayed_engine_move = None
        self.engine_thinking.emit(color, False)
        if self._outcome is None and self.at_end() and self._board.turn == color and self._board.is_legal(move):
            self._record(move)

    def _on_engine_ready(self, color: Color) -> None:
        """A seat's engine finished starting: if it is to move, its turn (and clock) begins now."""
        if self._outcome is None and self._board.turn == color:
            self._begin_turn()

    def _on_engine_failed(self, color: Color, message: str) -> None:
        """A seat's engine failed. One that never finished starting has made no move to judge:
        the game is aborted, with no result; one that fails on its move loses by the fault."""
        worker = self._workers.get(color)
        waiting = color in self._pending or (self._board.turn == color and color in self._workers)
        self._pending.pop(color, None)
        self.status_message.emit(tr("Engine failed: {reason}").format(reason=message))
        self.alert.emit(tr("Engine failed: {reason}").format(reason=message))
        if worker is not None and worker.description is None and self._mode.is_play and self._outcome is None:
            self.engine_thinking.emit(color, False)
            reason = message.splitlines()[0] if message.strip() else "the engine could not start"
            self._finish(Outcome.aborted(f"Game aborted ({reason})"))
            return
        if waiting and self._mode.is_play and self._outcome is None and self.at_end():
            self.engine_thinking.emit(color, False)
            self._hand_to_runner(MoveReply(error=message))

    def _on_clock_expired(self, outcome: Outcome) -> None:
        if self._outcome is None and self._mode.is_play:
            self._finish(outcome, faulty=self._board.turn)

    def _finish(self, outcome: Outcome, faulty: Color | None = None) -> None:
        """End the live game with ``outcome``; ``faulty`` is the seat that lost by a fault (its
        engine is ended at once, as the command line's referee does)."""
        if self._runner is not None and self._runner.outcome is None:
            self._runner.finish(outcome, self._clock.now())
        self._clock.refresh()
        self._cancel_searches()
        if faulty is not None and outcome.termination in (Termination.TIMEOUT, Termination.ILLEGAL_MOVE):
            self._retire_worker(faulty)
        self._outcome = outcome
        self._game.outcome = outcome
        self._game.headers["Result"] = outcome.result()
        self.status_message.emit(tr("Game over: {text}").format(text=tr_outcome(outcome.text)))
        self.position_changed.emit()
        self.game_over.emit(outcome)

    def _cancel_searches(self) -> None:
        for color in list(self._pending):
            worker = self._workers.get(color)
            if worker is not None:
                worker.cancel()
            self.engine_thinking.emit(color, False)
        self._pending.clear()
        if self._delayed_engine_move is not None:
            self.engine_thinking.emit(self._delayed_engine_move[0], False)
        self._delayed_engine_move = None
        self._delay_timer.stop()

    def _halt(self) -> None:
        """Stop everything running for the current game (searches, clock, replay)."""
        if self._paused:
            self._paused = False
            self.paused_changed.emit(False)
        self._cancel_searches()
        self._runner = None
        self._clock.follow(None)
        self._replay_timer.stop()
        if self._hint_worker is not None:
            self._hint_worker.cancel()
            self._hint_request = None

    def shutdown(self) -> None:
        """Stop every engine process and thread (call before the window goes)."""
        self._halt()
        for worker in [*self._workers.values(), *self._retired_workers,
                       *([self._hint_worker] if self._hint_worker else [])]:
            worker.shutdown()
        self._workers.clear()
        self._retired_workers.clear()
        self._hint_worker = None


def _side_text(color: Color) -> str:
    return tr("Red") if color == RED else tr("Black")

