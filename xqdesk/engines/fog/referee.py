"""Fog-of-war games: seats that see only their observations, played on the one game runner.

:func:`play_fog_game` runs the referee's loop (:func:`xqdesk.engines.play.referee.play_game`)
under the fog ruleset: the seat to move is asked, under its move clock, with its
:class:`~xqdesk.variants.fog.observation.Observation` instead of the board; the runner judges the
reply with the course's texts; its observation hook shows both seats what they see after every
ply. Seats are an in-process agent (:class:`AgentSeat`) or an agent in an engine process
(:class:`FogEnginePlayer`); the loop never asks which. The window plays fog games on its live
game instead (:mod:`xqdesk.ui.windows.fog_window`), with the same observation hook and the agents'
position line (:func:`format_fog_position`).
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional, Protocol

from xqdesk.board import Board
from xqdesk.engines.fog.agent import FogAgent
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.referee import play_game
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT, UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ruleset import FOG
from xqdesk.time_control import TimeControl
from xqdesk.variants.fog.game import FogGameRecord, start_board
from xqdesk.variants.fog.observation import Observation, observe
from xqdesk.variants.fog.text import format_view


class FogGamePlayer(Protocol):
    """A seat of a fog game. It learns about the game only through observations."""

    name: str

    def start(self) -> None:
        """Get ready (start a process …); EngineStartError with a clear message if it cannot."""
        ...

    def new_game(self, color: Color) -> None:
        ...

    def see(self, observation: Observation) -> None:
        """What the seat sees at the start and after every ply (its own and the opponent's)."""
        ...

    def request_move(self, observation: Observation, time_limit: Optional[float]) -> MoveReply:
        """The seat's move where ``observation`` (the view last shown) is its turn; never raises
        for the seat's own faults."""
        ...

    def game_over(self, outcome: Outcome) -> None:
        ...

    def close(self) -> None:
        ...


def format_fog_position(seen: list[Observation]) -> str:
    """``position fog VIEW …``: every view a side had since the game began."""
    return "position fog " + " ".join(format_view(view) for view in seen)


class AgentSeat:
    """An in-process :class:`FogAgent` as a seat (its time is measured, not limited)."""

    def __init__(self, agent: FogAgent) -> None:
        self.agent = agent
        self.name = agent.name

    def start(self) -> None:
        """Nothing to start."""

    def new_game(self, color: Color) -> None:
        self.agent.new_game(color)

    def see(self, observation: Observation) -> None:
        self.agent.see(observation)

    def request_move(self, observation: Observation, time_limit: Optional[float]) -> MoveReply:
        started = time.perf_counter()
        try:
            move = self.agent.choose_move(observation, time_limit)
        except Exception as error:  # noqa: BLE001 - the agent's fault comes back in the reply
            return MoveReply(error=f"{type(error).__name__}: {error}", elapsed=time.perf_counter() - started)
        elapsed = time.perf_counter() - started
        if time_limit is not None and elapsed > time_limit:
            return MoveReply(timed_out=True, elapsed=elapsed)
        return MoveReply(move=move, elapsed=elapsed)

    def game_over(self, outcome: Outcome) -> None:
        """Nothing to tell."""

    def close(self) -> None:
        """Nothing to release."""


class FogEnginePlayer:
    """A fog agent in its own engine process (``python -m xqdesk.engines.host fog-…``), sent every
    view of its side as ``position fog …``; its moves go through the engine seat's one corridor
    (:meth:`xqdesk.engines.play.engine_player.EnginePlayer.think`), the move clock enforced from
    outside."""

    def __init__(self, spec: EngineSpec, limits: SearchLimits = SearchLimits(movetime=1.0), *,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT) -> None:
        self.seat = EnginePlayer(spec, limits, memory_limit_mb=memory_limit_mb, handshake_timeout=handshake_timeout)
        self.name = spec.name
        self.limits = limits
        self._seen: list[Observation] = []

    @property
    def engine(self) -> Optional[UciEngine]:
        return self.seat.engine

    def start(self) -> None:
        self.seat.start()

    def new_game(self, color: Color) -> None:
        self._seen = []
        self.seat.new_game(color)

    def see(self, observation: Observation) -> None:
        self._seen.append(observation)

    def request_move(self, observation: Observation, time_limit: Optional[float]) -> MoveReply:
        seen = self._seen if self._seen and self._seen[-1] == observation else self._seen + [observation]
        return self.seat.think(lambda engine: engine.send_line(format_fog_position(seen)), self.limits, time_limit)

    def game_over(self, outcome: Outcome) -> None:
        self.seat.game_over(outcome)

    def close(self) -> None:
        self.seat.close()


class _ObservedSeat:
    """A fog seat as a :class:`~xqdesk.engines.play.game_player.GamePlayer`: asked with the view of
    its side instead of the board, under the fog game's own move clock (``time_limit``; the seat
    measures it and says when it ran out)."""

    def __init__(self, seat: FogGamePlayer, time_limit: Optional[float]) -> None:
        self.seat = seat
        self.name = seat.name
        self.time_limit = time_limit

    def start(self) -> None:
        self.seat.start()

    def new_game(self, color: Color) -> None:
        self.seat.new_game(color)

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None) -> MoveReply:
        return self.seat.request_move(observe(board, board.turn), self.time_limit)

    def game_over(self, outcome: Outcome) -> None:
        self.seat.game_over(outcome)

    def close(self) -> None:
        self.seat.close()


def play_fog_game(red: FogGamePlayer, black: FogGamePlayer, *, start_fen: str = STARTING_FEN,
                  move_time_limit: Optional[float] = None,
                  on_move: Optional[Callable[[Board, Move, float], None]] = None,
                  stop: Optional[threading.Event] = None) -> FogGameRecord:
    """Play one fog game between two started seats and return its record (the full board).

    The game runs on the one game runner (:func:`xqdesk.engines.play.referee.play_game`); its
    observation hook shows both seats what they see at the start and after every ply.
    ``move_time_limit``: seconds per move (None: no clock); ``on_move(board_after, move, seconds)``
    observes each move with the full board (for a watcher, never a seat); setting ``stop`` aborts
    the game before the next move.
    """
    seats: dict[Color, FogGamePlayer] = {RED: red, BLACK: black}

    def show(board: Board) -> None:
        for color, seat in seats.items():
            seat.see(observe(board, color))

    untimed = {RED: TimeControl.unlimited(), BLACK: TimeControl.unlimited()}  # each seat keeps its own clock
    record = play_game(_ObservedSeat(red, move_time_limit), _ObservedSeat(black, move_time_limit),
                       ruleset=FOG, board=start_board(start_fen), time_controls=untimed, on_position=show,
                       on_move=on_move, stop=stop)
    return FogGameRecord(red=red.name, black=black.name, game=record.game)
