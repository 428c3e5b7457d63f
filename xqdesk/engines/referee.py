"""The referee: plays one game between two seats and judges it as the course referee does.

Before each move the game-end rules are asked of the board (capture-free draw, no legal move);
then the seat to move is asked under the move clock; a timeout, a missing or malformed move, a
crash or an illegal move loses with the course's text (plus the reason). The game loop never asks
what kind of seat it is talking to.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.game_player import GamePlayer, MoveReply
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color, color_name
from xqdesk.ruleset import COURSE, Ruleset


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

    @property
    def winner_side(self) -> str:
        """The course's winner word: ``"red"``, ``"black"`` or ``"draw"``."""
        return "draw" if self.outcome.winner is None else color_name(self.outcome.winner)


def judge_reply(board: Board, reply: MoveReply) -> Optional[Outcome]:
    """The outcome a reply forces on the side to move (None when it is a legal move)."""
    mover = board.turn
    if reply.timed_out:
        return Outcome.timeout(mover)
    if reply.move is None:
        return Outcome.illegal_move(mover, reply.error or "no move")
    if not board.is_legal(reply.move):
        action = reply.move.to_course()
        return Outcome.illegal_move(mover, f"{reply.move.iccs()} {action!r} in {board.fen()!r}: "
                                           f"{board.why_illegal(reply.move)}")
    return None


def play_game(red: GamePlayer, black: GamePlayer, *, ruleset: Ruleset = COURSE,
              move_time_limit: Optional[float] = None, board: Optional[Board] = None,
              on_move: Optional[Callable[[Board, Move, float], None]] = None,
              stop: Optional[threading.Event] = None) -> GameRecord:
    """Play one game and return its record. The seats must be started.

    ``move_time_limit`` defaults to the ruleset's (10 s for the course); ``board`` is the start
    position (and history) to play from; ``on_move(board_after, move, seconds)`` observes each move;
    setting ``stop`` aborts the game before the next move.
    """
    limit = ruleset.move_time_limit if move_time_limit is None else move_time_limit
    board = Board(ruleset=ruleset) if board is None else board.copy()
    start_fen = board.root().fen()
    seats = {RED: red, BLACK: black}
    times: list[float] = []
    outcome = _start_seats(seats) or _play_until_over(board, seats, limit, times, on_move, stop)
    for seat in seats.values():
        seat.game_over(outcome)
    moves = tuple(board.move_stack)
    return GameRecord(red=red.name, black=black.name, start_fen=start_fen, moves=moves,
                      history=tuple(board.course_history()), outcome=outcome, move_times=tuple(times))


def _play_until_over(board: Board, seats: dict[Color, GamePlayer], limit: Optional[float], times: list[float],
                     on_move: Optional[Callable[[Board, Move, float], None]],
                     stop: Optional[threading.Event]) -> Outcome:
    """Ask the seats for moves on ``board`` (pushing them, their times into ``times``) until the game ends."""
    while True:
        if stop is not None and stop.is_set():
            return Outcome.aborted("Game aborted")
        outcome = board.outcome()
        if outcome is not None:
            return outcome
        reply = seats[board.turn].request_move(board.copy(), limit)
        outcome = judge_reply(board, reply)
        if outcome is not None:
            return outcome
        move = reply.move
        if move is None:  # judge_reply has ruled this out; this keeps type checkers informed
            return Outcome.illegal_move(board.turn, reply.error or "no move")
        board.push(move)
        times.append(reply.elapsed)
        if on_move is not None:
            on_move(board.copy(), move, reply.elapsed)


def _start_seats(seats: dict[Color, GamePlayer]) -> Optional[Outcome]:
    """Tell both seats a game starts; a seat that cannot even start loses at once."""
    for color, seat in seats.items():
        try:
            seat.new_game(color)
        except EngineError as error:
            return Outcome.illegal_move(color, f"could not start: {error}")
    return None
