"""One game under the rules and the clocks: the one place where moves are asked for, timed and
judged, whatever sits in the seats (cutechess's ``ChessGame`` is the model).

A :class:`GameRunner` is a state machine over plain values, driven two ways with the same verdicts:

* :func:`xqdesk.engines.play.referee.play_game` (command line, matches, course functions) loops: it
  asks each :class:`~xqdesk.engines.play.game_player.GamePlayer` in turn for a move within
  :attr:`Turn.time_limit` and hands the reply to :meth:`GameRunner.submit`;
* the window feeds it events: :meth:`GameRunner.start_turn` when a seat is to move, ``submit`` when
  an engine's reply or a person's click arrives, :meth:`GameRunner.check_time` on a timer tick.

Time never comes from a clock read here: every call takes ``now`` (seconds, any monotonic source).
A timeout, a crash, a missing or an illegal move loses with the course's text (:func:`judge_reply`);
the driver then ends the faulty seat's process (:func:`lost_by_fault`), and the next game starts a
fresh one.

The runner writes the record itself (cutechess's ``ChessGame::addPgnMove``): :attr:`GameRunner.game`
is a :class:`~xqdesk.game.Game` whose main line gets each move as it is played, with its time
(``seconds``) and what its seat said besides it (its comment); the game's ``outcome`` is the one
place the result is kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.search_types import SearchLimits
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.move import Move
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import SideClock, TimeControl

ENGINE_MARGIN_SHARE = 0.1
"""Of a move's allowance, the part an engine is not told about (process and pipe latency)..."""

ENGINE_MARGIN_MAX = 0.5
"""... at most this many seconds: under the course's 10 s an engine is told 9.5 s ..."""

ENGINE_MARGIN_MIN = 0.05
"""... and at least this many (a tenth of 0.3 s is less than one time slice of a busy machine:
at 0.3 s an engine is told 0.25 s), but never more than half the allowance."""


@dataclass(frozen=True)
class Turn:
    """A move asked of ``color``: it must arrive within ``time_limit`` seconds (None: no limit);
    ``limits`` is what an engine is told of its time (``movetime``, or both clocks as UCI's
    ``wtime btime winc binc``)."""

    color: Color
    time_limit: Optional[float]
    limits: SearchLimits


def judge_reply(board: Board, reply: MoveReply) -> Optional[Outcome]:
    """The outcome a reply forces on the side to move (None when it is a legal move)."""
    mover = board.turn
    if reply.timed_out:
        return Outcome.timeout(mover)
    if reply.resigned:
        return Outcome.resignation(mover)
    if reply.move is None:
        return Outcome.illegal_move(mover, reply.error or "no move")
    if not board.is_legal(reply.move):
        action = reply.move.to_course()
        return Outcome.illegal_move(mover, f"{reply.move.iccs()} {action!r} in {board.fen()!r}: "
                                           f"{board.why_illegal(reply.move)}")
    return None


def lost_by_fault(outcome: Outcome, color: Color) -> bool:
    """Whether ``color`` lost ``outcome`` by a fault of its seat (a timeout, no move or an illegal
    one): its engine process is ended then, and the next game starts a fresh one."""
    return (outcome.termination in (Termination.TIMEOUT, Termination.ILLEGAL_MOVE)
            and outcome.winner is not None and outcome.winner != color)


def engine_budget(allowance: float) -> float:
    """The seconds an engine is told it has when a move must arrive within ``allowance``."""
    margin = min(max(ENGINE_MARGIN_MIN, ENGINE_MARGIN_SHARE * allowance), ENGINE_MARGIN_MAX, allowance / 2)
    return max(0.01, allowance - margin)


class GameRunner:
    """Turns, clocks and verdicts of one game from ``board`` (its history included).

    ``time_controls`` gives each side's clock (missing sides have none). ``untimed_engine_time`` is
    what an engine is told when its side has no clock at all (engines need some limit). The record,
    :attr:`game`, starts with ``headers`` and the board's own history (moves without times).
    """

    def __init__(self, board: Board, time_controls: Mapping[Color, TimeControl] | None = None, *,
                 untimed_engine_time: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> None:
        controls = dict(time_controls or {})
        self._board = board.copy()
        self.game = Game(headers=dict(headers or {}), start_fen=self._board.root().fen(), ruleset=board.ruleset)
        """The record of the game, written by the runner (see the module docstring)."""
        start: GameNode = self.game
        for move in self._board.move_stack:
            start = start.add_variation(move)
        self._start = start
        self.first_ply = len(self._board.move_stack)
        """How many moves of :attr:`game` are the start position's own history."""
        self._played: list[ChildNode] = []
        self.clocks = {color: SideClock(controls.get(color, TimeControl.unlimited())) for color in (RED, BLACK)}
        self.untimed_engine_time = (board.ruleset.move_time_limit if untimed_engine_time is None
                                    else untimed_engine_time)
        self._turn: Optional[Turn] = None

    # --- reading ---------------------------------------------------------------------------------
    def board(self) -> Board:
        """A copy of the position (with its history)."""
        return self._board.copy()

    @property
    def turn(self) -> Optional[Turn]:
        """The move being waited for (None between moves and after the end)."""
        return self._turn

    @property
    def outcome(self) -> Optional[Outcome]:
        """How the game ended (the record's outcome); None while it goes on."""
        return self.game.outcome

    @property
    def start_fen(self) -> str:
        return self.game.start_fen

    @property
    def played(self) -> tuple[ChildNode, ...]:
        """The record's nodes of the moves played in this game (after the start's own history)."""
        return tuple(self._played)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played in this game, after the start position's own history."""
        return tuple(node.move for node in self._played)

    @property
    def move_times(self) -> tuple[float, ...]:
        """Seconds each move of :attr:`moves` took, as its clock charged it."""
        return tuple(node.seconds or 0.0 for node in self._played)

    @property
    def remarks(self) -> tuple[tuple[int, str], ...]:
        """(index of a move in :attr:`moves`, what its seat said besides the move)."""
        return tuple((index, node.comment) for index, node in enumerate(self._played) if node.comment)

    def time_left(self, color: Color, now: float) -> Optional[float]:
        """Seconds ``color`` has left for its running (or next) move (None: no clock)."""
        return self.clocks[color].time_left(now)

    # --- events ----------------------------------------------------------------------------------
    def start_turn(self, now: float) -> Optional[Turn]:
        """Ask the side to move for a move, its clock running from ``now``; None when the game is
        over (by the rules on the board, or already decided)."""
        if self.game.outcome is None:
            self.game.outcome = self._board.outcome()
        if self.game.outcome is not None:
            self._turn = None
            return None
        if self._turn is not None:
            return self._turn
        color = self._board.turn
        clock = self.clocks[color]
        limits = self._engine_limits(color)
        clock.start(now)
        self._turn = Turn(color, clock.allowance(), limits)
        return self._turn

    def submit(self, reply: MoveReply, now: float) -> Optional[Outcome]:
        """The reply to the current turn arrived at ``now``: charge the clock, judge it and play it.
        Returns the outcome when the game ended (by the reply or by the move's result)."""
        turn = self._turn
        if turn is None or self.outcome is not None:
            raise RuntimeError("a move was submitted while none was asked for")
        used = self.clocks[turn.color].stop(now)
        self._turn = None
        if turn.time_limit is not None and used > turn.time_limit:
            reply = MoveReply(timed_out=True, elapsed=used)
        outcome = judge_reply(self._board, reply)
        if outcome is None and reply.move is not None:
            self._board.push(reply.move)
            node = (self._played[-1] if self._played else self._start).add_variation(reply.move, reply.remark or "")
            node.seconds = used
            self._played.append(node)
            outcome = self._board.outcome()
        self.game.outcome = outcome
        return outcome

    def check_time(self, now: float) -> Optional[Outcome]:
        """The outcome when the side to move has run out of time by ``now`` (None otherwise)."""
        turn = self._turn
        if turn is None or self.outcome is not None or not self.clocks[turn.color].has_flagged(now):
            return None
        self.clocks[turn.color].stop(now)
        self._turn = None
        self.game.outcome = Outcome.timeout(turn.color)
        return self.game.outcome

    def finish(self, outcome: Outcome, now: float) -> None:
        """End the game off the board (a resignation, an abort, a seat that could not start)."""
        if self._turn is not None:
            self.clocks[self._turn.color].stop(now)
            self._turn = None
        self.game.outcome = outcome

    def take_back(self, plies: int, now: float) -> None:
        """Undo the last ``plies`` moves of this game (the time already used stays spent)."""
        if self._turn is not None:
            self.clocks[self._turn.color].stop(now)
            self._turn = None
        for _ in range(min(plies, len(self._played))):
            self._board.pop()
            self._played.pop()
        (self._played[-1] if self._played else self._start).cut()
        self.game.outcome = None

    # --- what engines are told -------------------------------------------------------------------
    def _engine_limits(self, color: Color) -> SearchLimits:
        clock = self.clocks[color]
        control = clock.control
        allowance = clock.allowance()
        if allowance is None:
            return SearchLimits(movetime=self.untimed_engine_time)
        in_main_time = clock.main_left is not None and clock.main_left > 0
        if not in_main_time:  # per move, or in byo-yomi: the whole allowance is this move's
            return SearchLimits(movetime=engine_budget(allowance))
        red, black = self.clocks[RED], self.clocks[BLACK]
        return SearchLimits(
            movetime=engine_budget(control.move_time) if control.move_time is not None else None,
            red_time=red.main_left, black_time=black.main_left,
            red_increment=_increment(red.control), black_increment=_increment(black.control))


def _increment(control: TimeControl) -> Optional[float]:
    """What a move adds to a side's time as an engine should see it: the increment, or under
    byo-yomi the period (a move may always use that much beyond the main time)."""
    if control.main_time is None:
        return None
    return control.byoyomi if control.byoyomi is not None else control.increment
