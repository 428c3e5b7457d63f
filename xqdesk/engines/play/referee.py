"""The referee: plays one game between two seats and judges it as the course referee does.

The loop asks each seat in turn; the turns, the clocks and the verdicts are the
:class:`~xqdesk.engines.play.game_runner.GameRunner`'s, the same the window's games go through. The
game loop never asks what kind of seat it is talking to.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Mapping, Optional

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.game_player import GamePlayer, MoveReply
from xqdesk.engines.play.game_runner import GameRunner
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color, color_name
from xqdesk.ruleset import COURSE, Ruleset
from xqdesk.time_control import TimeControl


@dataclass(frozen=True)
class GameRecord:
    """A finished game: who played, from where, the moves, and how it ended."""

    red: str
    black: str
    start_fen: str
    moves: tuple[Move, ...]
    history: tuple[tuple[int, int, int, int, int], ...]
    outcome: Outcome
    move_times: tuple[float, ...] = ()
    remarks: tuple[tuple[int, str], ...] = ()
    """(index of a move, what its seat said besides it: a draw offer, a resignation wish …)."""

    @property
    def winner_side(self) -> str:
        """The course's winner word: ``"red"``, ``"black"`` or ``"draw"``."""
        return "draw" if self.outcome.winner is None else color_name(self.outcome.winner)


def play_game(red: GamePlayer, black: GamePlayer, *, ruleset: Ruleset = COURSE,
              move_time_limit: Optional[float] = None, board: Optional[Board] = None,
              on_move: Optional[Callable[[Board, Move, float], None]] = None,
              stop: Optional[threading.Event] = None,
              time_controls: Optional[Mapping[Color, TimeControl]] = None,
              judge_move: Optional[Callable[[Board, MoveReply], Optional[Outcome]]] = None) -> GameRecord:
    """Play one game through a :class:`~xqdesk.engines.play.game_runner.GameRunner` and return its
    record. The seats must be started.

    ``time_controls`` gives each side's clock; without it every move must come within
    ``move_time_limit`` seconds (default: the ruleset's, 10 s for the course; None with no ruleset
    limit: no clock). ``board`` is the start position (and history) to play from;
    ``on_move(board_after, move, seconds)`` observes each move; setting ``stop`` aborts the game
    before the next move. ``judge_move(board_after, reply)`` sees each legal move with the seat's
    reply (its score included); an outcome it returns ends the game there (adjudication).
    """
    if time_controls is None:
        limit = ruleset.move_time_limit if move_time_limit is None else move_time_limit
        control = TimeControl.unlimited() if limit is None else TimeControl.per_move(limit)
        time_controls = {RED: control, BLACK: control}
    board = Board(ruleset=ruleset) if board is None else board.copy()
    runner = GameRunner(board, time_controls)
    seats = {RED: red, BLACK: black}
    outcome = _start_seats(seats)
    if outcome is not None:
        runner.finish(outcome, 0.0)
    # The seats measure their own thinking time (from after the position is set up), so each move's
    # clock runs in that time base: it starts at 0 and the reply arrives at ``reply.elapsed``.
    while (turn := runner.start_turn(0.0)) is not None:
        if stop is not None and stop.is_set():
            runner.finish(Outcome.aborted("Game aborted"), 0.0)
            break
        reply = seats[turn.color].request_move(runner.board(), turn.time_limit, turn.limits)
        if runner.submit(reply, reply.elapsed) is None:
            after = runner.board()
            if on_move is not None:
                on_move(after, after.move_stack[-1], reply.elapsed)
            verdict = judge_move(after, reply) if judge_move is not None else None
            if verdict is not None:
                runner.finish(verdict, 0.0)
    final = runner.outcome or Outcome.aborted("Game aborted")
    for seat in seats.values():
        seat.game_over(final)
    end = runner.board()
    return GameRecord(red=red.name, black=black.name, start_fen=runner.start_fen, moves=runner.moves,
                      history=tuple(end.course_history()), outcome=final, move_times=tuple(runner.move_times),
                      remarks=tuple(runner.remarks))


def _start_seats(seats: dict[Color, GamePlayer]) -> Optional[Outcome]:
    """Tell both seats a game starts; a seat that cannot even start loses at once."""
    for color, seat in seats.items():
        try:
            seat.new_game(color)
        except EngineError as error:
            return Outcome.illegal_move(color, f"could not start: {error}")
    return None
