"""The referee: plays one game between two seats and judges it as the course referee does.

The loop asks each seat in turn; the turns, the clocks, the verdicts and the record are the
:class:`~xqdesk.engines.play.game_runner.GameRunner`'s, the same the window's games go through. The
game loop never asks what kind of seat it is talking to; a variant whose seats see less than the
board (fog of war) shows them what they see through ``on_position``.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.game_player import GamePlayer, MoveReply
from xqdesk.engines.play.game_runner import GameRunner
from xqdesk.fen import STARTING_FEN
from xqdesk.game import ChildNode, Game
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color, color_name
from xqdesk.ruleset import COURSE, Ruleset
from xqdesk.time_control import TimeControl


@dataclass(frozen=True)
class GameRecord:
    """A finished game: who played (``red``, ``black``) and the record its runner wrote
    (:attr:`game`: the moves with their times, what a seat said besides a move as that move's
    comment, the outcome). ``first_ply`` moves of the game are its start position's own history;
    the rest were played. The other attributes read the game."""

    red: str
    black: str
    game: Game
    first_ply: int = 0

    @classmethod
    def unplayed(cls, red: str, black: str, outcome: Outcome, start_fen: str = STARTING_FEN,
                 moves: Sequence[Move] = ()) -> GameRecord:
        """A game decided before its first move was asked for (a seat that could not start), from
        ``start_fen`` and the ``moves`` of its opening."""
        return cls(red, black, Game.from_moves(moves, start_fen, outcome=outcome))

    @property
    def start_fen(self) -> str:
        return self.game.start_fen

    @property
    def played(self) -> list[ChildNode]:
        """The record's nodes of the moves played (after the start position's own history)."""
        return self.game.mainline()[self.first_ply:]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(node.move for node in self.played)

    @property
    def history(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """The whole main line in the course's history format."""
        return tuple(self.game.course_history())

    @property
    def outcome(self) -> Outcome:
        return self.game.outcome if self.game.outcome is not None else Outcome.aborted("Game aborted")

    @property
    def move_times(self) -> tuple[float, ...]:
        return tuple(node.seconds or 0.0 for node in self.played)

    @property
    def remarks(self) -> tuple[tuple[int, str], ...]:
        """(index of a move, what its seat said besides it: a draw offer, a resignation wish …)."""
        return tuple((index, node.comment) for index, node in enumerate(self.played) if node.comment)

    @property
    def winner_side(self) -> str:
        """The course's winner word: ``"red"``, ``"black"`` or ``"draw"``."""
        return "draw" if self.outcome.winner is None else color_name(self.outcome.winner)


def play_game(red: GamePlayer, black: GamePlayer, *, ruleset: Ruleset = COURSE,
              move_time_limit: Optional[float] = None, board: Optional[Board] = None,
              on_move: Optional[Callable[[Board, Move, float], None]] = None,
              stop: Optional[threading.Event] = None,
              time_controls: Optional[Mapping[Color, TimeControl]] = None,
              on_position: Optional[Callable[[Board], None]] = None,
              judge_move: Optional[Callable[[Board, MoveReply], Optional[Outcome]]] = None,
              on_reply: Optional[Callable[[Board, MoveReply], None]] = None) -> GameRecord:
    """Play one game through a :class:`~xqdesk.engines.play.game_runner.GameRunner` and return its
    record. The seats must be started.

    ``time_controls`` gives each side's clock; without it every move must come within
    ``move_time_limit`` seconds (default: the ruleset's, 10 s for the course; None with no ruleset
    limit: no clock). ``board`` is the start position (and history) to play from;
    ``on_position(board)`` sees the position when the game begins and after every move (before
    ``on_move``); ``on_move(board_after, move, seconds)`` observes each move played, the last one
    too; setting ``stop`` aborts the game before the next move (a reply that comes after it is set
    is not played). ``judge_move(board_after, reply)`` sees each legal move that leaves the game
    going, with the seat's reply (its score included); an outcome it returns ends the game there
    (adjudication). ``on_reply(board_after, reply)`` sees every move played, the last one too, with
    the seat's reply (its score and depth: what a match writes in its record).
    """
    if time_controls is None:
        limit = ruleset.move_time_limit if move_time_limit is None else move_time_limit
        control = TimeControl.unlimited() if limit is None else TimeControl.per_move(limit)
        time_controls = {RED: control, BLACK: control}
    board = Board(ruleset=ruleset) if board is None else board.copy()
    runner = GameRunner(board, time_controls, headers={"Red": red.name, "Black": black.name})
    seats = {RED: red, BLACK: black}
    outcome = _start_seats(seats)
    if outcome is not None:
        runner.finish(outcome, 0.0)
    elif on_position is not None:
        on_position(runner.board())
    # The seats measure their own thinking time (from after the position is set up), so each move's
    # clock runs in that time base: it starts at 0 and the reply arrives at ``reply.elapsed``.
    while (turn := runner.start_turn(0.0)) is not None:
        if stop is not None and stop.is_set():
            runner.finish(Outcome.aborted("Game aborted"), 0.0)
            break
        reply = seats[turn.color].request_move(runner.board(), turn.time_limit, turn.limits)
        if stop is not None and stop.is_set():
            runner.finish(Outcome.aborted("Game aborted"), 0.0)
            break
        played = len(runner.played)
        runner.submit(reply, reply.elapsed)
        if len(runner.played) > played:
            after = runner.board()
            if on_position is not None:
                on_position(after)
            if on_move is not None:
                on_move(after, after.move_stack[-1], reply.elapsed)
            if on_reply is not None:
                on_reply(after, reply)
            verdict = judge_move(after, reply) if judge_move is not None and runner.outcome is None else None
            if verdict is not None:
                runner.finish(verdict, 0.0)
    if runner.outcome is None:
        runner.finish(Outcome.aborted("Game aborted"), 0.0)
    final = runner.outcome or Outcome.aborted("Game aborted")
    for seat in seats.values():
        seat.game_over(final)
    return GameRecord(red=red.name, black=black.name, game=runner.game, first_ply=runner.first_ply)


def _start_seats(seats: dict[Color, GamePlayer]) -> Optional[Outcome]:
    """Tell both seats a game starts; a seat that cannot even start loses at once."""
    for color, seat in seats.items():
        try:
            seat.new_game(color)
        except EngineError as error:
            return Outcome.illegal_move(color, f"could not start: {error}")
    return None
