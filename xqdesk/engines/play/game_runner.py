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
the driver then ends the faulty seat's process, and the next game starts a fresh one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import SideClock, TimeControl

ENGINE_MARGIN_SHARE = 0.1
"""Of a move's allowance, the part an engine is not told about (process and pipe latency)..."""

ENGINE_MARGIN_MAX = 0.5
"""... at most this many seconds: under the course's 10 s an engine is told 9.5 s."""


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


def engine_budget(allowance: float) -> float:
    """The seconds an engine is told it has when a move must arrive within ``allowance``."""
    return max(0.01, allowance - min(ENGINE_MARGIN_MAX, ENGINE_MARGIN_SHARE * allowance))


class GameRunner:
    """Turns, clocks and verdicts of one game from ``board`` (its history included).

    ``time_controls`` gives each side's clock (missing sides have none). ``untimed_engine_time`` is
    what an engine is told when its side has no clock at all (engines need some limit).
    """

    def __init__(self, board: Board, time_controls: Mapping[Color, TimeControl] | None = None, *,
                 untimed_engine_time: Optional[float] = None) -> None:
        controls = dict(time_controls or {})
        self._board = board.copy()
        self.start_fen = self._board.root().fen()
        self.clocks = {color: SideClock(controls.get(color, TimeControl.unlimited())) for color in (RED, BLACK)}
        self.untimed_engine_time = (board.ruleset.move_time_limit if untimed_engine_time is None
                                    else untimed_engine_time)
        self.outcome: Optional[Outcome] = None
        self.move_times: list[float] = []
        self.remarks: list[tuple[int, str]] = []
        """(index of the move in :attr:`moves`, what its seat said besides the move)."""
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
    def moves(self) -> tuple[Move, ...]:
        """The moves played in this game, after the start position's own history."""
        return tuple(self._board.move_stack[len(self._board.move_stack) - len(self.move_times):])

    def time_left(self, color: Color, now: float) -> Optional[float]:
        """Seconds ``color`` has left for its running (or next) move (None: no clock)."""
        return self.clocks[color].time_left(now)

    # --- events ----------------------------------------------------------------------------------
    def start_turn(self, now: float) -> Optional[Turn]:
        """Ask the side to move for a move, its clock running from ``now``; None when the game is
        over (by the rules on the board, or already decided)."""
        if self.outcome is None:
            self.outcome = self._board.outcome()
        if self.outcome is not None:
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
            self.move_times.append(used)
            if reply.remark:
                self.remarks.append((len(self.move_times) - 1, reply.remark))
            outcome = self._board.outcome()
        self.outcome = outcome
        return outcome

    def check_time(self, now: float) -> Optional[Outcome]:
        """The outcome when the side to move has run out of time by ``now`` (None otherwise)."""
        turn = self._turn
        if turn is None or self.outcome is not None or not self.clocks[turn.color].has_flagged(now):
            return None
        self.clocks[turn.color].stop(now)
        self._turn = None
        self.outcome = Outcome.timeout(turn.color)
        return self.outcome

    def finish(self, outcome: Outcome, now: float) -> None:
        """End the game off the board (a resignation, an abort, a seat that could not start)."""
        if self._turn is not None:
            self.clocks[self._turn.color].stop(now)
            self._turn = None
        self.outcome = outcome

    def take_back(self, plies: int, now: float) -> None:
        """Undo the last ``plies`` moves of this game (the time already used stays spent)."""
        if self._turn is not None:
            self.clocks[self._turn.color].stop(now)
            self._turn = None
        plies = min(plies, len(self.move_times))
        for _ in range(plies):
            self._board.pop()
            self.move_times.pop()
        self.remarks = [(index, text) for index, text in self.remarks if index < len(self.move_times)]
        self.outcome = None

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
