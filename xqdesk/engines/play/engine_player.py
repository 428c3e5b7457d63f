"""A seat played by any engine process (built-in, random, greedy, course player, external UCI or UCCI).

The move clock is enforced here, outside the engine: the reply must arrive within the limit or the
process is killed. A killed or crashed engine is started again for the next game.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.errors import (EngineCrashedError, EnginePositionError, EngineProtocolError, EngineStartError,
                                   EngineTimeoutError)
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT, SearchResult, UciEngine
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import RED, Color
from xqdesk.score import PovScore


class EnginePlayer:
    """A :class:`~xqdesk.engines.play.game_player.GamePlayer` backed by one engine process."""

    def __init__(self, spec: EngineSpec, limits: Optional[SearchLimits] = SearchLimits(movetime=1.0), *,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 on_info: Optional[Callable[[SearchInfo], None]] = None) -> None:
        self.spec = spec
        self.name = spec.name
        self.limits = limits
        self.memory_limit_mb = memory_limit_mb
        self.handshake_timeout = handshake_timeout
        self.on_info = on_info
        self.engine: Optional[UciEngine] = None
        self.color: Color = RED
        self.restarts = 0
        self._interrupted = False
        """Set by :meth:`interrupt` until the next game: every search is then cut short."""

    def start(self) -> None:
        """Start the process and do the handshake (EngineStartError says why it failed)."""
        engine = self.spec.open(memory_limit_mb=self.memory_limit_mb, handshake_timeout=self.handshake_timeout)
        self.engine = engine
        if engine.identity.name and self.spec.name.startswith(("player:", "uci:", "ucci:", "engine:")):
            self.name = f"{self.spec.name} ({engine.identity.name})"

    def _running_engine(self) -> UciEngine:
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
        self._running_engine().new_game()

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None) -> MoveReply:
        """Search ``board`` with this seat's own limits, or when it has none with ``limits`` (its
        clock); the process is killed when no reply comes within ``time_limit``."""
        limits = self.limits or limits or SearchLimits(movetime=1.0)
        if board.banned_moves():  # the course forbids some moves: search only the legal ones
            limits = dataclasses.replace(limits, searchmoves=tuple(board.legal_moves))
        started = time.monotonic()
        try:
            engine = self._running_engine()
            engine.position(board.start_fen, board.move_stack)
            engine.wait_ready(self.handshake_timeout)
            started = time.monotonic()
            engine.go(limits)
            if self._interrupted:  # asked to stop before this search began: stop it now
                engine.stop()
            result = engine.wait_bestmove(None if time_limit is None else started + time_limit, self.on_info)
        except EngineTimeoutError:
            return MoveReply(timed_out=True, elapsed=time.monotonic() - started)
        except (EngineCrashedError, EngineProtocolError, EngineStartError, EnginePositionError) as error:
            if self.engine is not None and isinstance(error, EngineProtocolError):
                self.engine.kill()
            return MoveReply(error=str(error), elapsed=time.monotonic() - started)
        if result.move is None:
            answer = "nobestmove" if result.best.text == "nobestmove" else f"bestmove {result.best.text!r}"
            reason = result.error or f"engine {self.name!r} answered {answer}" + (
                " (also when asked again without the history)" if result.asked_again else "")
            return MoveReply(error=reason, elapsed=result.elapsed)
        return MoveReply(move=result.move, elapsed=result.elapsed, remark=search_remark(self.name, result),
                         score=final_score(result))

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
        faulted = outcome.termination in (Termination.TIMEOUT, Termination.ILLEGAL_MOVE)
        if faulted and outcome.winner is not None and outcome.winner != self.color and self.engine is not None:
            self.engine.kill()

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit(grace=0.5)
            self.engine = None


def final_score(result: SearchResult) -> Optional[PovScore]:
    """The last main-line score a search reported (None when it reported none)."""
    for info in reversed(result.infos):
        if info.score is not None and info.multipv == 1:
            return info.score
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
