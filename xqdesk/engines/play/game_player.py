"""The one interface the referee plays through, whatever sits in the seat (engine, course player
or, in the window, a person). The referee never asks which kind it has."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import Color
from xqdesk.score import PovScore


@dataclass(frozen=True)
class MoveReply:
    """What a seat answered when asked for a move. Exactly one of these holds:

    - ``move`` is set: the move it chose (not yet judged — it may be illegal);
    - ``timed_out``: it did not answer within the move clock (it has been stopped);
    - ``resigned``: it gave up the game;
    - otherwise it gave no move, and ``error`` says why (exception, crash, garbage …).
    ``elapsed`` is the thinking time in seconds as measured by the asker. ``remark`` is what the
    seat said besides its move (a UCCI engine's draw offer or resignation wish), for the record;
    ``offer`` the same as a word (``"draw"`` or ``"resign"``), for a window to say in its language.
    ``score`` is the seat's own evaluation of its move when it gave one (an engine's last main-line
    score, from the mover's view): what adjudication and progress displays read.
    """

    move: Optional[Move] = None
    timed_out: bool = False
    resigned: bool = False
    error: Optional[str] = None
    elapsed: float = 0.0
    remark: Optional[str] = None
    offer: Optional[str] = None
    score: Optional[PovScore] = None
    depth: Optional[int] = None
    """The depth of the search that gave ``score`` (None when the seat reported none)."""


class GamePlayer(Protocol):
    """A seat at the board."""

    name: str

    def start(self) -> None:
        """Get ready to play (start processes …); EngineStartError with a clear message if it cannot."""
        ...

    def new_game(self, color: Color) -> None:
        """A game begins in which this seat plays ``color`` (restart what a previous game killed)."""
        ...

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None) -> MoveReply:
        """The seat's move in ``board`` (a copy it may keep) within ``time_limit`` seconds (None:
        no limit). ``limits`` is what an engine should be told of its time (its clock); a seat
        with limits of its own may keep them. Never raises for the seat's own faults: they come
        back in the reply."""
        ...

    def game_over(self, outcome: Outcome) -> None:
        """The game has ended."""
        ...

    def close(self) -> None:
        """Release everything (end processes). Safe to call twice."""
        ...
