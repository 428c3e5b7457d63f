"""One asynchronous seat: how an event-driven game asks whoever is to move (cutechess's
``ChessPlayer::go()`` and ``moveMade`` are the model).

The command line's referee loop asks a blocking :class:`~xqdesk.engines.play.game_player.GamePlayer`
and waits. A game driven by events (the window's) cannot wait: it asks a :class:`Seat` with
:meth:`Seat.ask` and goes on; the seat answers later, once, by calling the ``reply_to`` it was
given with a :class:`~xqdesk.engines.play.game_player.MoveReply` — a person's click, an engine's
search carried back from its thread, a fog agent's move. The game never asks which kind of seat
it has to play a turn; it only reads what the protocol says:

* :meth:`Seat.start` gets the seat ready and says when it is (``on_ready``) or that it cannot be
  (``on_failed``, also later, when the seat breaks down);
* :meth:`Seat.new_game` says a game begins; :meth:`Seat.ask` asks for a move; :meth:`Seat.cancel`
  drops the answer to the ask in progress (a takeback, a pause, the end of the game): its
  ``reply_to`` is never called;
* :meth:`Seat.kill` ends a seat that lost by a fault at once (its engine process); :meth:`Seat.close`
  releases it for good;
* :attr:`Seat.is_human` (cutechess's ``isHuman()``): a person's time is the game's clock from the
  turn's start to the reply; an engine's is its own measure (``MoveReply.elapsed``), and while it
  is asked it is shown thinking; :attr:`Seat.reply_grace` is how long past its allowance the game's
  clock waits for the seat's reply before judging it out of time itself (an engine seat judges its
  own time first).

The seats here have no thread of their own: :class:`PersonAsker` answers when the person's move is
handed in (:meth:`PersonAsker.offer`, on the thread that drives the game). The window's engine seat,
which carries replies from an engine's thread, lives in the window.
"""
from __future__ import annotations

from typing import Callable, Optional, Protocol

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import Turn
from xqdesk.engines.play.person_seat import PersonSeat
from xqdesk.move import Move

ReplyTo = Callable[[MoveReply], None]
"""Where a seat's answer to one ask goes (called once, on the thread that drives the game)."""


class Seat(Protocol):
    """A seat asked asynchronously; see the module docstring."""

    name: str
    is_human: bool
    reply_grace: float

    def start(self, on_ready: Callable[[], None], on_failed: Callable[[str], None]) -> None:
        """Get ready to play; ``on_ready`` once ready, ``on_failed(message)`` when the seat cannot
        start or later breaks down (both on the thread that drives the game)."""
        ...

    def is_ready(self) -> bool:
        """Whether the seat has started (a person always has)."""
        ...

    def has_failed(self) -> bool:
        """Whether the seat broke down (it will never answer again)."""
        ...

    def new_game(self) -> None:
        """A game begins: the next ask is its first."""
        ...

    def ask(self, board: Board, turn: Turn, reply_to: ReplyTo) -> None:
        """Ask for the seat's move in ``board`` (a copy it may keep) under ``turn`` (its time);
        returns at once, the answer goes to ``reply_to`` later (never for a cancelled ask)."""
        ...

    def cancel(self) -> None:
        """Drop the ask in progress, if any: its answer never comes."""
        ...

    def offer(self, move: Move) -> None:
        """A move handed in from outside (a click on the board): a person's seat answers the ask
        in progress with it; any other seat ignores it."""
        ...

    def kill(self) -> None:
        """End the seat at once after it lost by a fault (its engine process); a later game needs
        a fresh seat."""
        ...

    def close(self) -> None:
        """Release everything (end processes and threads). Safe to call twice."""
        ...


class PersonAsker:
    """A person as an asynchronous :class:`Seat`: the move handed in with :meth:`offer` (a click,
    through the same :class:`~xqdesk.engines.play.person_seat.PersonSeat` ``xqdesk play`` reads
    typed moves into) answers the ask in progress. ``on_turn(board)`` is told each ask (a window
    lets the person move then)."""

    is_human = True
    reply_grace = 0.0

    def __init__(self, name: str = "Person", on_turn: Optional[Callable[[Board], None]] = None) -> None:
        self.name = name
        self.on_turn = on_turn
        self.person = PersonSeat(name, listener=self._on_person_reply)
        self._reply_to: Optional[ReplyTo] = None

    def start(self, on_ready: Callable[[], None], on_failed: Callable[[str], None]) -> None:
        """A person is always ready (``on_ready`` is not called: nothing was waited for)."""

    def is_ready(self) -> bool:
        return True

    def has_failed(self) -> bool:
        return False

    def new_game(self) -> None:
        self._reply_to = None

    def ask(self, board: Board, turn: Turn, reply_to: ReplyTo) -> None:
        self._reply_to = reply_to
        if self.on_turn is not None:
            self.on_turn(board)

    def is_asked(self) -> bool:
        """Whether the person's move is awaited now."""
        return self._reply_to is not None

    def cancel(self) -> None:
        self._reply_to = None

    def offer(self, move: Move) -> None:
        """The person plays ``move`` (ignored when no move is asked for)."""
        self.person.offer(move)

    def resign(self) -> None:
        """The person gives up the game (on their turn)."""
        self.person.resign()

    def _on_person_reply(self, reply: MoveReply) -> None:
        reply_to, self._reply_to = self._reply_to, None
        if reply_to is not None:
            reply_to(reply)

    def kill(self) -> None:
        """Nothing to end."""
        self._reply_to = None

    def close(self) -> None:
        self._reply_to = None
        self.person.close()
