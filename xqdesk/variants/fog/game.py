"""Playing and replaying fog-of-war games: seats receive observations, never the board.

:func:`play_fog_game` is a plain loop: before each move the rules are asked whether the game is
over, the seat to move gets its :class:`~xqdesk.variants.fog.observation.Observation` and answers
with a move; a move that is not legal, or a seat that fails, loses. After every ply both seats are
shown what they now see. The record keeps the full board, and :meth:`FogGameRecord.view` gives
either side's view at any ply.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional, Protocol

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ruleset import FOG
from xqdesk.variants.fog.observation import Observation, observe


class FogSeat(Protocol):
    """A player of fog-of-war games. It learns about the game only through observations."""

    name: str

    def new_game(self, side: Color) -> None:
        """A game starts in which this seat plays ``side``."""
        ...

    def see(self, observation: Observation) -> None:
        """What the seat sees at the start and after every ply (its own and the opponent's)."""
        ...

    def choose_move(self, observation: Observation) -> Move:
        """The seat's move, given what it sees now (the observation it was last shown)."""
        ...


@dataclass(frozen=True)
class FogGameRecord:
    """A finished fog game with the full board: who played, from where, the moves, how it ended
    and how long each move took (seconds)."""

    red: str
    black: str
    start_fen: str
    moves: tuple[Move, ...]
    outcome: Outcome
    move_times: tuple[float, ...] = ()

    def board_at(self, ply: int) -> Board:
        """The full board after the first ``ply`` moves."""
        if not 0 <= ply <= len(self.moves):
            raise ValueError(f"ply {ply} is outside the game (0..{len(self.moves)})")
        board = Board(self.start_fen, ruleset=FOG)
        for move in self.moves[:ply]:
            board.push(move)
        return board

    def view(self, ply: int, side: Color) -> Observation:
        """What ``side`` saw after the first ``ply`` moves."""
        return observe(self.board_at(ply), side)


def start_board(start_fen: str = STARTING_FEN) -> Board:
    """A fog board at ``start_fen`` (raises InvalidFenError for an impossible position)."""
    return Board(start_fen, ruleset=FOG)


def play_fog_game(red: FogSeat, black: FogSeat, *, start_fen: str = STARTING_FEN,
                  on_move: Optional[Callable[[Board, Move, float], None]] = None,
                  stop: Optional[threading.Event] = None) -> FogGameRecord:
    """Play one fog game between two seats and return its record.

    ``on_move(board_after, move, seconds)`` observes each move with the full board (for a watcher,
    never for a seat); setting ``stop`` aborts the game before the next move.
    """
    board = start_board(start_fen)
    seats = {RED: red, BLACK: black}
    times: list[float] = []
    outcome: Optional[Outcome] = None
    for color, seat in seats.items():
        seat.new_game(color)
    _show(board, seats)
    while outcome is None:
        if stop is not None and stop.is_set():
            outcome = Outcome.aborted("Game aborted")
            break
        outcome = board.outcome()
        if outcome is not None:
            break
        mover = board.turn
        started = time.perf_counter()
        try:
            move = seats[mover].choose_move(observe(board, mover))
        except Exception as error:  # noqa: BLE001 - a failing seat loses, the game loop goes on
            outcome = Outcome.illegal_move(mover, f"{type(error).__name__}: {error}")
            break
        elapsed = time.perf_counter() - started
        if not isinstance(move, Move) or not board.is_legal(move):
            reason = board.why_illegal(move) if isinstance(move, Move) else f"not a move: {move!r}"
            outcome = Outcome.illegal_move(mover, f"{move} in {board.fen()!r}: {reason}")
            break
        board.push(move)
        times.append(elapsed)
        _show(board, seats)
        if on_move is not None:
            on_move(board.copy(), move, elapsed)
    return FogGameRecord(red=red.name, black=black.name, start_fen=board.start_fen,
                         moves=tuple(board.move_stack), outcome=outcome, move_times=tuple(times))


def _show(board: Board, seats: dict[Color, FogSeat]) -> None:
    for color, seat in seats.items():
        seat.see(observe(board, color))
