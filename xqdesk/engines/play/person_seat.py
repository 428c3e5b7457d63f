"""A person at the board: a seat like any other, under the same clock and the same verdicts.

The move comes from outside the game loop — a click on the window's board view, a line typed at a
terminal — through :meth:`PersonSeat.offer`. The loop that owns the game takes it either way:

* blocking (:func:`xqdesk.engines.play.referee.play_game`): :meth:`PersonSeat.request_move` waits for
  an offer until the seat's time runs out, and then answers ``timed_out`` as an engine would;
* event-driven (the window's game controller): a ``listener`` given at construction receives each
  offered move as a :class:`~xqdesk.engines.play.game_player.MoveReply` at once, to hand to the game
  runner.

A seat never judges a move: the runner does, for people and engines alike. What offers a move
should refuse an illegal one first (the board view and the terminal prompt both do, with the
board's reason), since the runner, like the course's referee, ends the game on an illegal move.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import replace
from typing import Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import Color


class PersonSeat:
    """A :class:`~xqdesk.engines.play.game_player.GamePlayer` whose moves are offered from outside.

    Thread-safe: :meth:`offer` may be called from any thread.
    """

    def __init__(self, name: str = "Person", listener: Optional[Callable[[MoveReply], None]] = None) -> None:
        self.name = name
        self.color: Optional[Color] = None
        self._listener = listener
        self._offers: "queue.Queue[MoveReply]" = queue.Queue()
        self._lock = threading.Lock()
        self._position: Optional[Board] = None
        self._asked = threading.Event()

    # --- GamePlayer ------------------------------------------------------------------------------
    def start(self) -> None:
        """Nothing to start: a person is always ready."""

    def new_game(self, color: Color) -> None:
        self.color = color
        self._drain()

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None) -> MoveReply:
        """Wait for the move offered for ``board``; ``timed_out`` when none comes within
        ``time_limit`` seconds (None: wait as long as it takes)."""
        started = time.monotonic()
        with self._lock:
            self._position = board.copy()
            self._asked.set()
        try:
            reply = self._offers.get(timeout=time_limit)
        except queue.Empty:
            reply = MoveReply(timed_out=True)
        finally:
            with self._lock:
                self._position = None
                self._asked.clear()
        return replace(reply, elapsed=time.monotonic() - started)

    def game_over(self, outcome: Outcome) -> None:
        self._drain()

    def close(self) -> None:
        self._drain()

    # --- the person's side -----------------------------------------------------------------------
    def offer(self, move: Move) -> None:
        """The person plays ``move``: to the listener at once, or to the waiting ``request_move``."""
        self._reply(MoveReply(move=move))

    def resign(self) -> None:
        """The person gives up the game (on their turn)."""
        self._reply(MoveReply(resigned=True))

    def _reply(self, reply: MoveReply) -> None:
        if self._listener is not None:
            self._listener(reply)
            return
        with self._lock:  # answered: the seat is no longer asking (until the next turn)
            self._position = None
            self._asked.clear()
        self._offers.put(reply)

    def position(self) -> Optional[Board]:
        """A copy of the position the seat is being asked to move in (None when it is not asked):
        what a prompt shows and checks a typed move against."""
        with self._lock:
            return None if self._position is None else self._position.copy()

    def wait_until_asked(self, timeout: Optional[float] = None) -> bool:
        """Block until the seat is asked for a move (True) or ``timeout`` passes (False)."""
        return self._asked.wait(timeout)

    def _drain(self) -> None:
        """Forget moves offered for a turn that is over."""
        while True:
            try:
                self._offers.get_nowait()
            except queue.Empty:
                return
