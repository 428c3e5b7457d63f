"""The one object that owns and changes the window's game: the record on view, the live game that
writes it, hints and the replay's autoplay.

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

The controller is a shell over three rooms: the Qt-free :class:`~xqdesk.game_cursor.GameCursor`
(the viewed line of the record and the position on it, with every tree operation), the
:class:`~xqdesk.ui.game.live_game.LiveGame` (one seat per colour and the clock on the one game
runner, which writes the record of a game being played), and :class:`~xqdesk.ui.game.hints.Hints`. Play modes always
stay on the main line; in analysis a move that differs from the recorded one starts a new variation
instead of cutting the line.
"""
from __future__ import annotations

import enum
import threading
import weakref
from collections.abc import Mapping

from PySide6.QtCore import QObject, Signal

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.game_cursor import GameCursor
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.i18n import side_word, tr, tr_outcome
from xqdesk.ui.base.move_reasons import illegal_move_reason
from xqdesk.ui.base.settings import EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.autoplay import Autoplay
from xqdesk.ui.game.clock import GameClock
from xqdesk.ui.game.hints import Hints
from xqdesk.ui.game.live_game import LiveGame, LiveSettings
from xqdesk.ui.game.seats import WorkerFactory, start_engine_worker, window_seats


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


_checked_ends: dict[int, tuple["weakref.ref[Game]", Board]] = {}
_checked_lock = threading.Lock()


def check_game(game: Game) -> Board:
    """Check every move of ``game``'s tree (:meth:`Game.replay`, IllegalMoveError for a bad one)
    and remember the result for :meth:`GameController.load_game`: a loader's thread calls this so
    the window's thread need not (a 4,000-move tree takes 0.17 s to check). The game must not
    change between the two."""
    end = game.replay()
    key = id(game)

    def forget(_gone: object, key: int = key) -> None:
        with _checked_lock:
            _checked_ends.pop(key, None)

    with _checked_lock:
        _checked_ends[key] = (weakref.ref(game, forget), end)
    return end


def _checked_end(game: Game) -> Board:
    """The end of ``game``'s main line, its tree checked (by :func:`check_game` beforehand, or now)."""
    with _checked_lock:
        known = _checked_ends.pop(id(game), None)
    if known is not None and known[0]() is game:
        return known[1]
    return game.replay()


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

    def __init__(self, parent: QObject | None = None, *, settings: LiveSettings | None = None,
                 worker_factory: WorkerFactory = start_engine_worker) -> None:
        """``settings``: what the live game plays under (the clock an engine seat gets when a game
        sets none for it, by default the course's 10 s a move; a person has no clock unless the
        game sets one); later changes go to :meth:`LiveGame.configure`."""
        super().__init__(parent)
        self._cursor = GameCursor()
        self._end_verdict: Outcome | None = None
        """How a record loaded without a result ends on the board (the record is not changed)."""
        self._mode = Mode.PERSON_VS_PERSON
        self.live = LiveGame(self._cursor.at_end, window_seats(worker_factory), settings or LiveSettings(),
                             parent=self)
        """The live game: its seats and clock (its settings change through ``live.configure``)."""
        self.live.clock.ticked.connect(self.clock_ticked)
        self.live.move_played.connect(self._on_move_played)
        self.live.finished.connect(self._on_finished)
        for signal in ("engine_thinking", "engine_scored", "status_message", "alert"):
            getattr(self.live, signal).connect(getattr(self, signal))
        self.live.paused_changed.connect(self._on_paused_changed)
        self._hints = Hints(worker_factory, parent=self)
        self._hints.hint_ready.connect(self.hint_ready)
        self._autoplay = Autoplay(self._replay_step, parent=self)
        self.notation = Notation.ICCS
        """The notation refused moves are written in (the window keeps it the move list's)."""
        self._revision = 0
        # first connected, so every other slot of these signals sees the revision already bumped
        self.game_changed.connect(self._bump_revision)
        self.comment_changed.connect(self._bump_revision)
        self.game_over.connect(self._bump_revision)

    @property
    def revision(self) -> int:
        """A count of the changes to the game on show (moves, variations, comments, results, a
        new game), bumped before ``game_changed``, ``comment_changed`` and ``game_over`` reach
        anyone: whether a game changed since a moment is told by comparing two revisions (with
        the game's identity), never by writing it out. Safe to read from another thread."""
        return self._revision

    def _bump_revision(self, *_args: object) -> None:
        self._revision += 1

    # --- reading the state (the cursor's: see xqdesk.game_cursor) ----------------------------------
    def board(self) -> Board:
        """A copy of the viewed position."""
        return self._cursor.board.copy()

    def game(self) -> Game:
        """The game record (do not change it; use the controller's methods)."""
        return self._cursor.game

    def ply(self) -> int:
        return self._cursor.ply

    def length(self) -> int:
        return self._cursor.length()

    def at_end(self) -> bool:
        return self._cursor.at_end()

    def last_move(self) -> Move | None:
        return self._cursor.last_move()

    def line(self) -> list[ChildNode]:
        return self._cursor.line()

    def line_moves(self) -> list[Move]:
        return self._cursor.line_moves()

    def node(self) -> GameNode:
        return self._cursor.node()

    def variation_depth(self) -> int:
        return self._cursor.variation_depth()

    def alternatives(self) -> list[Move]:
        return self._cursor.alternatives()

    def comment(self) -> str:
        """The comment after the viewed move (at the start: the game's opening comment)."""
        return self._cursor.node().comment

    def outcome(self) -> Outcome | None:
        """How the game ended (from play or from the record), None while it goes on."""
        outcome = self._cursor.game.outcome
        return outcome if outcome is not None else self._end_verdict

    def is_live(self) -> bool:
        """Whether a game is being played now (a play mode, not yet over): what a person may
        resign, pause or stop."""
        return self._mode.is_play and self.outcome() is None

    def can_take_back(self) -> bool:
        """Whether :meth:`take_back` would undo a move (never while replaying a record)."""
        return self._mode is not Mode.REPLAY and self.length() > 0

    def mode(self) -> Mode:
        return self._mode

    def seat(self, color: Color) -> EngineProfile | None:
        """The engine playing ``color`` (None: a person)."""
        return self.live.seat(color)

    def worker(self, color: Color) -> EngineWorker | None:
        return self.live.worker(color)

    def clock(self) -> GameClock:
        return self.live.clock

    def is_thinking(self, color: Color) -> bool:
        return self.live.is_thinking(color)

    def is_paused(self) -> bool:
        return self.live.is_paused()

    def movable_colors(self) -> frozenset[Color]:
        """The colours a person may move on the board now."""
        if self._mode in (Mode.ANALYSIS, Mode.REPLAY):  # a move off the record starts a variation
            return frozenset((RED, BLACK))
        if self.outcome() is not None or not self.at_end() or self.is_paused():
            return frozenset()
        return frozenset(color for color in (RED, BLACK) if self.seat(color) is None)

    def why_not_movable(self) -> str:
        """Why a person may not move the side to move now ('' when they may)."""
        turn = self._cursor.board.turn
        outcome = self.outcome()
        if turn in self.movable_colors():
            return ""
        if outcome is not None and self.at_end():
            return tr("Game over: {text}").format(text=tr_outcome(outcome.text))
        if not self.at_end():
            return tr("You are looking at an earlier position: go to the last move (End) to play")
        if self.is_paused():
            return tr("The game is paused")
        return tr("Not your move now: {side} is played by an engine").format(side=side_word(turn))

    # --- starting games ------------------------------------------------------------------------
    def new_game(self, mode: Mode = Mode.PERSON_VS_PERSON, *, red: EngineProfile | None = None,
                 black: EngineProfile | None = None, start_fen: str = STARTING_FEN,
                 headers: dict[str, str] | None = None,
                 time_controls: Mapping[Color, TimeControl] | None = None) -> None:
        """Start a game from ``start_fen`` with ``red``/``black`` engines (None: a person), each
        side's clock from ``time_controls`` (see :meth:`LiveGame.start`). Raises InvalidFenError
        for a bad FEN (nothing changes then)."""
        start = Board(start_fen)
        self._halt()
        if mode.is_play:
            game = self.live.start(red, black, start, headers or {}, time_controls)
        else:
            self.live.set_seats(None, None)
            names = {"Red": self.live.seat_name(RED), "Black": self.live.seat_name(BLACK)}
            game = Game(headers={**names, **(headers or {})}, start_fen=start.fen())
        self._cursor.reset(game, start)
        self._end_verdict = None
        self._mode = mode
        self.game_changed.emit()
        self.position_changed.emit()
        self.seats_changed.emit()
        self.live.begin_turn()

    def load_game(self, game: Game, mode: Mode = Mode.REPLAY, ply: int | None = 0) -> None:
        """Show a game record at ``ply`` (None: the end); IllegalMoveError, nothing changed, for a bad one."""
        end = _checked_end(game)
        self._halt()
        self.live.set_seats(None, None)
        self._cursor.reset(game, end)
        self._mode = mode
        self._end_verdict = end.outcome() if game.outcome is None else None
        self.game_changed.emit()
        self.seats_changed.emit()
        self.go_to(self.length() if ply is None else ply, force_signal=True)
        outcome = self.outcome()
        if outcome is not None and self.at_end():
            self.game_over.emit(outcome)

    def set_mode(self, mode: Mode) -> None:
        """Switch to analysis or replay keeping the game (play modes start with :meth:`new_game`)."""
        if mode.is_play:
            raise ValueError(f"start a {mode.value!r} game with new_game(), not set_mode()")
        self._halt()
        self.live.set_seats(None, None)
        self._mode = mode
        self.seats_changed.emit()
        self.position_changed.emit()

    # --- moves ---------------------------------------------------------------------------------
    def play_move(self, move: Move) -> bool:
        """A person's move on the viewed position; refused (status message, False) when it is not
        legal or not a person's turn. In analysis and replay a move off the record before the end
        of the viewed line starts a variation there."""
        board = self._cursor.board
        if board.turn not in self.movable_colors():
            self.status_message.emit(tr("Illegal move: {reason}").format(reason=self.why_not_movable()))
            return False
        if not board.is_legal(move):
            self.status_message.emit(illegal_move_reason(board, move, self.notation))
            return False
        if self._mode in (Mode.ANALYSIS, Mode.REPLAY) and not self.at_end():
            recorded = self.alternatives()
            if move in recorded:
                self.choose_alternative(recorded.index(move))
                return True
            self._cursor.add_move(move)
            self._changed()
            self.move_made.emit(move)
            self._report_variation_end()
            return True
        if self.live.runner is not None:  # the live game's runner judges and records it
            self.live.offer(move)
            return True
        self._cursor.add_move(move)
        self._show_added(move)
        return True

    def _on_move_played(self, node: ChildNode) -> None:
        """The live game's runner recorded ``node``: the viewed line takes it (and the view follows
        when it shows the end)."""
        if self.at_end():
            self._cursor.step_onto(node)
        else:
            self._cursor.extend(node)
        self._show_added(node.move)

    def _show_added(self, move: Move) -> None:
        """Tell the widgets about a move added at the end of the viewed line; in analysis, a move
        that ends the game by the rules ends it."""
        self.game_changed.emit()
        self.move_made.emit(move)
        self.position_changed.emit()
        if self.variation_depth():
            self._report_variation_end()
        elif self._mode is Mode.ANALYSIS:
            outcome = self._cursor.board.outcome()
            if outcome is not None:
                self._on_finished(outcome)

    def _on_finished(self, outcome: Outcome) -> None:
        """The game ended with ``outcome`` (the live game's runner has recorded it, or the rules
        ended an analysed line)."""
        game = self._cursor.game
        game.outcome = outcome
        game.headers["Result"] = outcome.result()
        self.status_message.emit(tr("Game over: {text}").format(text=tr_outcome(outcome.text)))
        self.position_changed.emit()
        self.game_over.emit(outcome)

    def _on_paused_changed(self, paused: bool) -> None:
        self.paused_changed.emit(paused)
        self.position_changed.emit()

    # --- variations and comments -----------------------------------------------------------------
    def choose_alternative(self, index: int) -> None:
        """Play the recorded move ``alternatives()[index]`` (see :meth:`GameCursor.choose_alternative`)."""
        if index == 0 and self.alternatives():
            self.forward()
            return
        self._cursor.choose_alternative(index)
        self._changed()

    def view_node(self, node: GameNode) -> None:
        """Show the position at ``node`` (the variation tree's click; the viewed line becomes the
        one through it). Refused in a live game (its line is the game's)."""
        if self._mode.is_play and self.outcome() is None:
            self.status_message.emit(tr("The game is on: only its own moves can be shown"))
            return
        self._cursor.view(node)
        self._changed()

    def leave_variation(self) -> None:
        """Go back to the line the viewed variation branches from, at the branch point."""
        if self._cursor.leave_variation():
            self._changed()

    def delete_variation(self) -> None:
        """Remove the innermost variation the viewed line goes through, and stand where it began."""
        if not self._mode.is_play and self._cursor.delete_variation():
            self._changed()

    def promote_variation(self) -> None:
        """Make the innermost variation the viewed line goes through the main continuation there
        (the view stays where it is; the old main continuation becomes a variation)."""
        if not self._mode.is_play and self._cursor.promote_variation():
            self._changed()

    def cut_from_here(self) -> None:
        """Remove every move recorded after the viewed position (not during a live game)."""
        if not self._mode.is_play and self._cursor.cut_from_here():
            self._changed()

    def set_comment(self, text: str) -> None:
        """Write ``text`` as the comment after the viewed move (at the start: the game's comment)."""
        if text == self.comment():
            return
        self._cursor.node().comment = text
        self.comment_changed.emit(self.ply())

    def _changed(self) -> None:
        """The viewed line changed (and with it, maybe, the position)."""
        self.game_changed.emit()
        self.position_changed.emit()

    def _report_variation_end(self) -> None:
        """Say so when the viewed variation ends the game by the rules (the game goes on)."""
        outcome = self._cursor.board.outcome()
        if outcome is not None:
            self.status_message.emit(tr("End of the variation: {text}").format(text=tr_outcome(outcome.text)))

    def take_back(self) -> None:
        """Undo the last move (against an engine, back to the person's previous turn; a search in
        progress is cancelled). In analysis the viewed move goes, with every move after it."""
        if not self.can_take_back():
            return
        if self._mode is Mode.ANALYSIS:
            if self._cursor.take_back_move():
                self._changed()
            return
        keep = self.live.moves_to_keep(self.length())
        self.live.take_back(keep)
        self._cursor.cut_line(keep)
        self._cursor.game.outcome = None
        self._end_verdict = None
        self._changed()
        self.live.begin_turn()

    def resign(self) -> None:
        """The person to move (or the only person seated) resigns the live game."""
        if self._mode.is_play:
            self.live.resign()

    def hint(self) -> bool:
        """Ask the hint engine for a move in the viewed position (``hint_ready`` brings it);
        whether it was asked (else the status message says why: see :meth:`Hints.ask`)."""
        board = self._cursor.board
        engine_to_move = (self._mode.is_play and self.outcome() is None and self.at_end()
                          and self.seat(board.turn) is not None)
        refusal = self._hints.ask(board, engine_to_move)
        self.status_message.emit(refusal or tr("Thinking…"))
        return refusal is None

    # --- pausing a live game ----------------------------------------------------------------------
    def pause(self) -> bool:
        """Pause the live game (see :meth:`LiveGame.pause`); False when there is none to pause."""
        return self._mode.is_play and self.live.pause()

    def resume(self) -> bool:
        """Go on with a paused game (see :meth:`LiveGame.resume`)."""
        return self.live.resume()

    def stop_game(self) -> bool:
        """Stop the live game for good, keeping its moves (without a result) to replay or analyse."""
        if not self._mode.is_play:
            return False
        self.set_mode(Mode.REPLAY)
        self.status_message.emit(tr("Game stopped"))
        return True

    # --- navigation ----------------------------------------------------------------------------
    def go_to(self, ply: int, force_signal: bool = False) -> None:
        """Show the position after ``ply`` moves of the viewed line (clamped to it)."""
        if self._cursor.go_to(ply) or force_signal:
            self.position_changed.emit()
        if self.at_end():
            self.live.begin_turn()  # a live game waits at its end while someone looks back

    def forward(self) -> None:
        self.go_to(self.ply() + 1)

    def back(self) -> None:
        self.go_to(self.ply() - 1)

    def to_start(self) -> None:
        self.go_to(0)

    def to_end(self) -> None:
        self.go_to(self.length())

    def start_autoplay(self, delta_time: float) -> None:
        """Step forward every ``delta_time`` seconds until the end (replays)."""
        self._autoplay.start(delta_time)

    def stop_autoplay(self) -> None:
        self._autoplay.stop()

    def is_autoplaying(self) -> bool:
        return self._autoplay.is_running()

    def _replay_step(self) -> bool:
        """One step of the autoplay; False at the end (where a finished game's result is told)."""
        self.forward()
        if not self.at_end():
            return True
        outcome = self.outcome()
        if outcome is not None:
            self.game_over.emit(outcome)
        return False

    # --- ending --------------------------------------------------------------------------------
    def _halt(self) -> None:
        """Stop everything running for the current game (searches, clock, replay, hint)."""
        self.live.halt()
        self._autoplay.stop()
        self._hints.cancel()

    def shutdown(self) -> None:
        """Stop every engine process and thread (call before the window goes)."""
        self._halt()
        self.live.shutdown()
        self._hints.shutdown()
