"""A seat played by any engine process (built-in, random, greedy, course player, external UCI or UCCI).

This is the one corridor of an engine's move, whoever drives the game (the command line's referee
loop, or the window through its worker's thread): :meth:`EnginePlayer.think` keeps the search to
the legal moves where the course bans some (:func:`course_limits`), sends the position, waits for
the engine, starts its clock, reads its answer within the move's time limit and turns it into a
:class:`~xqdesk.engines.play.game_player.MoveReply` (:func:`reply_from_search`). The move clock is
enforced here, outside the engine: the reply must arrive within the limit or the process is
killed. A killed or crashed engine is started again for the next game.

Analysis goes through the same seat (:meth:`EnginePlayer.analyse`, beside ``think``): the window's
engine panel and hints search a position for as long as their limits say or until they are
stopped, and read the whole :class:`SearchResult`. So every route to an engine process, a move or
an analysis, goes through this module; the window's worker thread never speaks to the device.
"""
from __future__ import annotations

import dataclasses
import threading
import time
from typing import Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.errors import (
    EngineCrashedError,
    EnginePositionError,
    EngineProtocolError,
    EngineStartError,
    EngineTimeoutError,
)
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import lost_by_fault
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB, LineObserver
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT, EngineIdentity, SearchResult, UciEngine
from xqdesk.outcome import Outcome
from xqdesk.pieces import RED, Color
from xqdesk.score import PovScore

__all__ = ["EnginePlayer", "SearchResult", "course_limits", "final_depth", "final_score", "reply_from_search",
           "search_remark", "sends_line", "HANDSHAKE_TIMEOUT"]

PositionSender = Callable[[UciEngine], None]
"""Sends the position to search to a running engine (``position …``, or a variant's own line)."""

InfoObserver = Callable[[SearchInfo], None]


def sends_line(line: str) -> PositionSender:
    """A position sender that sends ``line`` as it is (a variant's own position: fog of war's
    ``position fog …``)."""
    return lambda engine: engine.send_line(line)


class _StopWhenAsked:
    """An info observer that stops the search once ``stop`` is set (looked at after ``go`` and
    at every info line, so a stop asked for before the engine began searching is not lost), then
    passes the line on."""

    def __init__(self, engine: UciEngine, stop: Optional[threading.Event], on_info: Optional[InfoObserver]) -> None:
        self.engine = engine
        self.stop = stop
        self.on_info = on_info
        self.sent = False

    def check(self) -> None:
        if self.stop is not None and self.stop.is_set() and not self.sent:
            self.engine.stop()
            self.sent = True

    def __call__(self, info: SearchInfo) -> None:
        self.check()
        if self.on_info is not None:
            self.on_info(info)


class EnginePlayer:
    """A :class:`~xqdesk.engines.play.game_player.GamePlayer` backed by one engine process.

    ``limits`` are the seat's own search limits (None: the game's clock decides); ``on_info`` sees
    every info line of its searches and ``on_line`` every protocol line, from the thread that asks.
    """

    def __init__(self, spec: EngineSpec, limits: Optional[SearchLimits] = SearchLimits(movetime=1.0), *,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 on_info: Optional[Callable[[SearchInfo], None]] = None,
                 on_line: Optional[LineObserver] = None) -> None:
        self.spec = spec
        self.name = spec.name
        self.limits = limits
        self.memory_limit_mb = memory_limit_mb
        self.handshake_timeout = handshake_timeout
        self.on_info = on_info
        self.on_line = on_line
        self.engine: Optional[UciEngine] = None
        self.color: Color = RED
        self.restarts = 0
        self._interrupted = False
        """Set by :meth:`interrupt` until the next game: every search is then cut short."""
        self._multipv = 1
        """The number of lines the engine was last told to report (``MultiPV``)."""

    def start(self) -> None:
        """Start the process and do the handshake (EngineStartError says why it failed). The engine
        is :attr:`engine` from before the handshake, so another thread can kill a slow starter."""
        engine = self.spec.engine(memory_limit_mb=self.memory_limit_mb, handshake_timeout=self.handshake_timeout,
                                  on_line=self.on_line)
        self.engine = engine
        self._multipv = 1
        try:
            engine.start()
        except EngineStartError:
            self.engine = None
            raise
        if engine.identity.name and self.spec.name.startswith(("player:", "uci:", "ucci:", "engine:")):
            self.name = f"{self.spec.name} ({engine.identity.name})"

    def running_engine(self) -> UciEngine:
        """The engine, started again first when it is not running (a game killed it)."""
        if self.engine is None or not self.engine.is_alive():
            if self.engine is not None:
                self.engine.kill()
                self.restarts += 1
            self.start()
        engine = self.engine
        if engine is None:
            raise EngineCrashedError(f"engine {self.spec.name!r} did not start")
        return engine

    def new_game(self, color: Color) -> None:
        self.color = color
        self._interrupted = False
        self.running_engine().new_game()

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None, *, stop: Optional[threading.Event] = None) -> MoveReply:
        """Search ``board`` with this seat's own limits, or when it has none with ``limits`` (its
        clock); the process is killed when no reply comes within ``time_limit``. Setting ``stop``
        (from any thread) cuts the search short; its move still comes back."""
        searched = course_limits(board, self.limits or limits or SearchLimits(movetime=1.0))
        return self.think(lambda engine: engine.position(board.start_fen, board.move_stack), searched, time_limit,
                          stop=stop)

    def think(self, send_position: PositionSender, limits: SearchLimits, time_limit: Optional[float], *,
              stop: Optional[threading.Event] = None) -> MoveReply:
        """One move: the position (``send_position``), an ``isready`` so the clock does not count
        the engine's setup, then ``go`` with ``limits``; the process is killed when no answer comes
        within ``time_limit`` seconds of it (a timeout). Setting ``stop`` cuts the search short.
        Never raises for the engine's faults."""
        started = time.monotonic()
        try:
            engine = self.running_engine()
            self._report_lines(engine, limits.multipv)
            send_position(engine)
            engine.wait_ready(self.handshake_timeout)
            started = time.monotonic()
            engine.go(limits)
            if self._interrupted:  # asked to stop before this search began: stop it now
                engine.stop()
            watch = _StopWhenAsked(engine, stop, self.on_info)
            watch.check()
            result = engine.wait_bestmove(None if time_limit is None else started + time_limit, watch)
        except EngineTimeoutError:
            return MoveReply(timed_out=True, elapsed=time.monotonic() - started)
        except (EngineCrashedError, EngineProtocolError, EngineStartError, EnginePositionError) as error:
            if self.engine is not None and isinstance(error, EngineProtocolError):
                self.engine.kill()
            return MoveReply(error=str(error), elapsed=time.monotonic() - started)
        return reply_from_search(self.name, result)

    def analyse(self, board: Board, limits: SearchLimits, on_info: Optional[InfoObserver] = None,
                stop: Optional[threading.Event] = None) -> SearchResult:
        """Search ``board`` (with its history) for as long as ``limits`` say, ``limits.multipv``
        lines at once where the engine can, kept to the legal moves where the course bans some;
        setting ``stop`` (from any thread) ends the search, whose best move still comes back.
        ``on_info`` sees every info line (default: the seat's own observer). Unlike a move, an
        analysis has no clock and raises the engine's faults (EngineError)."""
        engine = self.running_engine()
        self._report_lines(engine, limits.multipv)
        engine.position(board.start_fen, board.move_stack)
        engine.go(course_limits(board, limits))
        watch = _StopWhenAsked(engine, stop, self.on_info if on_info is None else on_info)
        watch.check()
        return engine.wait_bestmove(None, watch)

    def _report_lines(self, engine: UciEngine, lines: int) -> None:
        """Tell the engine to report ``lines`` main lines (``MultiPV``) when it can and was told
        otherwise before (an engine without the option searches its one line)."""
        wanted = max(1, lines)
        if wanted != self._multipv and any(name.lower() == "multipv" for name in engine.identity.options):
            engine.set_option("MultiPV", wanted)
            self._multipv = wanted

    @property
    def identity(self) -> EngineIdentity:
        """What the started engine said about itself (its name, author, options, protocol)."""
        return self.running_engine().identity

    def is_alive(self) -> bool:
        """Whether the engine's process runs."""
        return self.engine is not None and self.engine.is_alive()

    def stop_search(self) -> None:
        """Ask the search in progress (a move or an analysis) to finish now; its answer still
        comes back. Safe from any thread; nothing happens when none runs."""
        engine = self.engine
        if engine is not None:
            engine.stop()

    def kill(self) -> None:
        """End the engine's process now, whatever it is doing (safe from any thread); the next
        search starts a fresh one."""
        engine = self.engine
        if engine is not None:
            engine.kill()

    def interrupt(self) -> None:
        """Cut the search in progress short (its move still comes back), and every search until the
        next game; safe from any thread."""
        self._interrupted = True  # before the stop: a search that starts after it sees the flag
        engine = self.engine
        if engine is not None:
            engine.stop()

    def game_over(self, outcome: Outcome) -> None:
        """A seat that lost by a fault (a timeout, a crash, no or an illegal move) has its process
        ended now, as the window does; the next game starts a fresh one. Otherwise there is
        nothing to tell a UCI engine: the next ``ucinewgame`` starts afresh."""
        if lost_by_fault(outcome, self.color) and self.engine is not None:
            self.engine.kill()

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit(grace=0.5)
            self.engine = None


def course_limits(board: Board, limits: SearchLimits) -> SearchLimits:
    """``limits`` kept to the legal moves where the course's perpetual-check rule bans some moves
    of ``board`` (an engine that does not know the rule would otherwise be forfeited for one).
    Limits that already name their ``searchmoves`` are left alone."""
    if limits.searchmoves is not None or not board.banned_moves():
        return limits
    return dataclasses.replace(limits, searchmoves=tuple(board.legal_moves))


def reply_from_search(name: str, result: SearchResult) -> MoveReply:
    """What engine ``name``'s search answered, as a seat's reply: its move (and what it said
    besides: a draw offer, a resignation wish, as text and as a word), or why it gave none; with
    its last main-line score."""
    score = final_score(result)
    depth = final_depth(result)
    if result.move is None:
        answer = "nobestmove" if result.best.text == "nobestmove" else f"bestmove {result.best.text!r}"
        reason = result.error or f"engine {name!r} answered {answer}" + (
            " (also when asked again without the history)" if result.asked_again else "")
        return MoveReply(error=reason, elapsed=result.elapsed, score=score, depth=depth)
    return MoveReply(move=result.move, elapsed=result.elapsed, remark=search_remark(name, result),
                     offer=result.best.offer, score=score, depth=depth)


def final_score(result: SearchResult) -> Optional[PovScore]:
    """The last main-line score a search reported (None when it reported none)."""
    for info in reversed(result.infos):
        if info.score is not None and info.multipv == 1:
            return info.score
    return None


def final_depth(result: SearchResult) -> Optional[int]:
    """The depth of the last main-line report that gave a depth (None when none did)."""
    for info in reversed(result.infos):
        if info.depth is not None and info.multipv == 1:
            return info.depth
    return None


def search_remark(name: str, result: SearchResult) -> Optional[str]:
    """What to report about a search besides its move: a UCCI engine's draw offer or resignation
    wish (never taken as the move), and a ``nobestmove`` answered by asking again."""
    notes = []
    if result.asked_again:
        notes.append(f"{name} answered nobestmove (it judged the position drawn); asked again without the history")
    if result.best.offer == "draw":
        notes.append(f"{name} offers a draw")
    elif result.best.offer == "resign":
        notes.append(f"{name} would resign")
    return "; ".join(notes) or None
