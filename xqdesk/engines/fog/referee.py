"""The fog-of-war referee: plays one game between two seats that see only their observations.

Before each move the rules are asked whether the game is over; the seat to move is asked, under
the move clock, with its :class:`~xqdesk.variants.fog.observation.Observation`; a timeout, no move
or a move that is not legal loses with the course's texts. After every ply both seats are shown
what they now see. Seats are an in-process agent (:class:`AgentSeat`), an agent in an engine
process (:class:`FogEnginePlayer`) or a person (:class:`WaitingSeat`); the loop never asks which.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Callable, Optional, Protocol

from xqdesk.board import Board
from xqdesk.engines.errors import EngineCrashedError, EngineProtocolError, EngineStartError, EngineTimeoutError
from xqdesk.engines.fog.agent import FogAgent
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT, UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
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
    view of its side as ``position fog …``; the move clock is enforced from outside."""

    def __init__(self, spec: EngineSpec, limits: SearchLimits = SearchLimits(movetime=1.0), *,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT) -> None:
        self.spec = spec
        self.name = spec.name
        self.limits = limits
        self.memory_limit_mb = memory_limit_mb
        self.handshake_timeout = handshake_timeout
        self.engine: Optional[UciEngine] = None
        self._seen: list[Observation] = []

    def start(self) -> None:
        self.engine = self.spec.open(memory_limit_mb=self.memory_limit_mb, handshake_timeout=self.handshake_timeout)

    def _running_engine(self) -> UciEngine:
        if self.engine is None or not self.engine.is_alive():
            if self.engine is not None:
                self.engine.kill()
            self.start()
        if self.engine is None:
            raise EngineCrashedError(f"engine {self.spec.name!r} did not start")
        return self.engine

    def new_game(self, color: Color) -> None:
        self._seen = []
        self._running_engine().new_game()

    def see(self, observation: Observation) -> None:
        self._seen.append(observation)

    def request_move(self, observation: Observation, time_limit: Optional[float]) -> MoveReply:
        started = time.monotonic()
        seen = self._seen if self._seen and self._seen[-1] == observation else self._seen + [observation]
        try:
            engine = self._running_engine()
            engine.send_line(format_fog_position(seen))
            engine.wait_ready(self.handshake_timeout)
            started = time.monotonic()
            engine.go(self.limits)
            result = engine.wait_bestmove(None if time_limit is None else started + time_limit)
        except EngineTimeoutError:
            return MoveReply(timed_out=True, elapsed=time.monotonic() - started)
        except (EngineCrashedError, EngineProtocolError, EngineStartError) as error:
            if self.engine is not None and isinstance(error, EngineProtocolError):
                self.engine.kill()
            return MoveReply(error=str(error), elapsed=time.monotonic() - started)
        if result.move is None:
            return MoveReply(error=result.error or f"engine {self.name!r} gave no move", elapsed=result.elapsed)
        return MoveReply(move=result.move, elapsed=result.elapsed)

    def game_over(self, outcome: Outcome) -> None:
        """Nothing to tell; the next ``ucinewgame`` starts afresh."""

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit(grace=0.5)
            self.engine = None


class WaitingSeat:
    """A seat whose moves are handed in from outside (a person at the window's board): it waits for
    :meth:`give` until the game is stopped, with no move clock. ``on_turn`` is told the view when
    the move is awaited."""

    def __init__(self, name: str, stop: threading.Event,
                 on_turn: Optional[Callable[[Observation], None]] = None) -> None:
        self.name = name
        self.stop = stop
        self.on_turn = on_turn
        self._moves: queue.Queue[Move] = queue.Queue()

    def give(self, move: Move) -> None:
        """The move for the turn being waited for (safe from any thread)."""
        self._moves.put(move)

    def start(self) -> None:
        """Nothing to start."""

    def new_game(self, color: Color) -> None:
        while not self._moves.empty():
            self._moves.get_nowait()

    def see(self, observation: Observation) -> None:
        """A person sees the board view."""

    def request_move(self, observation: Observation, time_limit: Optional[float]) -> MoveReply:
        if self.on_turn is not None:
            self.on_turn(observation)
        started = time.monotonic()
        while not self.stop.is_set():
            try:
                move = self._moves.get(timeout=0.05)
            except queue.Empty:
                continue
            return MoveReply(move=move, elapsed=time.monotonic() - started)
        return MoveReply(error="the game was stopped", elapsed=time.monotonic() - started)

    def game_over(self, outcome: Outcome) -> None:
        """Nothing to tell."""

    def close(self) -> None:
        """Nothing to release."""


def judge_fog_reply(board: Board, reply: MoveReply) -> Optional[Outcome]:
    """The outcome a reply forces on the side to move (None when it is a legal move)."""
    mover = board.turn
    if reply.timed_out:
        return Outcome.timeout(mover)
    if reply.move is None:
        return Outcome.illegal_move(mover, reply.error or "no move")
    if not board.is_legal(reply.move):
        return Outcome.illegal_move(mover, f"{reply.move.iccs()} in {board.fen()!r}: {board.why_illegal(reply.move)}")
    return None


def play_fog_game(red: FogGamePlayer, black: FogGamePlayer, *, start_fen: str = STARTING_FEN,
                  move_time_limit: Optional[float] = None,
                  on_move: Optional[Callable[[Board, Move, float], None]] = None,
                  stop: Optional[threading.Event] = None) -> FogGameRecord:
    """Play one fog game between two started seats and return its record (the full board).

    ``move_time_limit``: seconds per move (None: no clock); ``on_move(board_after, move, seconds)``
    observes each move with the full board (for a watcher, never a seat); setting ``stop`` aborts
    the game before the next move.
    """
    board = start_board(start_fen)
    seats: dict[Color, FogGamePlayer] = {RED: red, BLACK: black}
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
        reply = seats[board.turn].request_move(observe(board, board.turn), move_time_limit)
        if stop is not None and stop.is_set():
            outcome = Outcome.aborted("Game aborted")
            break
        outcome = judge_fog_reply(board, reply)
        if outcome is not None:
            break
        if reply.move is None:  # judge_fog_reply has ruled this out; this keeps type checkers informed
            outcome = Outcome.illegal_move(board.turn, "no move")
            break
        board.push(reply.move)
        times.append(reply.elapsed)
        _show(board, seats)
        if on_move is not None:
            on_move(board.copy(), reply.move, reply.elapsed)
    if outcome is None:  # the loop only ends with an outcome; this keeps type checkers informed
        outcome = Outcome.aborted("Game aborted")
    for seat in seats.values():
        seat.game_over(outcome)
    return FogGameRecord(red=red.name, black=black.name, start_fen=board.start_fen,
                         moves=tuple(board.move_stack), outcome=outcome, move_times=tuple(times))


def _show(board: Board, seats: dict[Color, FogGamePlayer]) -> None:
    for color, seat in seats.items():
        seat.see(observe(board, color))
