"""A UCI engine in its own process: handshake, options, positions, searches, stop, quit, kill.

A thin device over :mod:`xqdesk.engines.uci` (the text) and :mod:`xqdesk.engines.process` (the
process). Blocking calls take timeouts; a search given a ``deadline`` that it overruns kills the
process and raises :class:`EngineTimeoutError`. Nothing the engine writes is trusted.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

from xqdesk.engines.errors import (EngineCrashedError, EngineError, EngineProtocolError, EngineStartError,
                                   EngineTimeoutError)
from xqdesk.engines.process import DEFAULT_MEMORY_LIMIT_MB, LineObserver, LineProcess, LoggedLine
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.uci import (BestMove, OptionValue, UciDialect, UciOption, detect_dialect, find_option, format_go,
                                format_position, format_setoption, parse_bestmove, parse_id, parse_info,
                                parse_option)
from xqdesk.fen import parse_fen
from xqdesk.move import Move
from xqdesk.pieces import RED, Color

HANDSHAKE_TIMEOUT = 10.0
"""Seconds an engine gets to answer ``uci`` (course players load here) and later ``isready``s."""

READY_TIMEOUT = 120.0
"""Seconds an engine gets to answer its first ``isready``: engines may load tables or compile
there (the built-in engine compiles its kernel on its first start after an install). No move
clock runs during it."""

ERROR_PREFIX = "error:"
"""``info string error: …`` lines carry why an engine gave no move (xqdesk's host writes them)."""


@dataclass(frozen=True)
class SearchResult:
    """What one ``go`` produced: the best move (None for a null move), the raw text, the last info
    lines, and the error an engine explained with ``info string error: …`` (if any)."""

    best: BestMove
    infos: tuple[SearchInfo, ...] = ()
    error: Optional[str] = None
    elapsed: float = 0.0

    @property
    def move(self) -> Optional[Move]:
        return self.best.move


@dataclass
class EngineIdentity:
    """What the engine said about itself in the handshake."""

    name: str = ""
    author: str = ""
    options: dict[str, UciOption] = field(default_factory=dict)
    dialect: UciDialect = UciDialect.PIKAFISH


class UciEngine:
    """One engine process. Not thread-safe except :meth:`stop` (which only writes a line)."""

    def __init__(self, command: Sequence[str], *, cwd: Optional[str] = None,
                 options: Optional[Mapping[str, str]] = None,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 ready_timeout: float = READY_TIMEOUT,
                 env: Optional[Mapping[str, str]] = None,
                 on_line: Optional[LineObserver] = None) -> None:
        """``on_line`` sees every line exchanged with the process (see :meth:`log`)."""
        self.command = list(command)
        self.cwd = cwd
        self.env = env
        self.requested_options = dict(options or {})
        self.memory_limit_mb = memory_limit_mb
        self.handshake_timeout = handshake_timeout
        self.ready_timeout = max(ready_timeout, handshake_timeout)
        self.identity = EngineIdentity()
        self.on_line = on_line
        self._process: Optional[LineProcess] = None
        self._turn: Color = RED
        """The side to move in the last position sent (the view of the scores it reports)."""

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> EngineIdentity:
        """Start the process, do the UCI handshake, pick the dialect, apply the options.

        Raises EngineStartError with the engine's own stderr when anything fails.
        """
        self._process = LineProcess(self.command, cwd=self.cwd, env=self.env, memory_limit_mb=self.memory_limit_mb,
                                    on_line=self.on_line)
        try:
            self._handshake()
        except EngineError as error:
            detail = self._process.stderr_tail() if self._process else ""
            self.kill()
            message = str(error) if isinstance(error, (EngineCrashedError, EngineTimeoutError)) \
                else f"engine {self.command!r} failed to start: {error}"
            if detail:
                message += f"\n{detail}"
            raise EngineStartError(message) from None
        return self.identity

    def _handshake(self) -> None:
        self._send("uci")
        deadline = time.monotonic() + self.handshake_timeout
        identity = EngineIdentity()
        options: list[UciOption] = []
        while True:
            line = self._read(deadline, "uciok")
            if line.startswith("id "):
                key, value = parse_id(line)
                if key == "name":
                    identity.name = value
                elif key == "author":
                    identity.author = value
            elif line.startswith("option "):
                try:
                    options.append(parse_option(line))
                except EngineProtocolError:
                    continue
            elif line.strip() == "uciok":
                break
        dialect = detect_dialect(options)
        if dialect is None:
            raise EngineStartError(f"engine {identity.name or self.command!r} has a UCI_Variant option "
                                   "without 'xiangqi': it cannot play Xiangqi")
        identity.dialect = dialect
        identity.options = {option.name: option for option in options}
        self.identity = identity
        if dialect is UciDialect.FAIRY:
            self._send(format_setoption("UCI_Variant", "xiangqi"))
        for name, value in self.requested_options.items():
            self.set_option(name, value)
        self.wait_ready(self.ready_timeout)

    def verify_xiangqi(self, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """Ask for a move in the start position and check that it is a legal Xiangqi move, so a
        chess engine (which would happily answer ``e2e4``) is refused before any game."""
        from xqdesk.board import Board

        board = Board()
        self.new_game()
        try:
            result = self.search(board.start_fen, [], SearchLimits(depth=1), time.monotonic() + timeout)
        except EngineError as error:
            raise EngineStartError(f"engine {self.identity.name or self.command!r} could not move in the "
                                   f"Xiangqi start position: {error}") from None
        if result.move is None or not board.is_legal(result.move):
            self.kill()
            raise EngineStartError(f"engine {self.identity.name or self.command!r} answered "
                                   f"{result.best.text!r} in the Xiangqi start position: not a Xiangqi engine")
        self.new_game()

    def set_option(self, name: str, value: OptionValue = None) -> None:
        """Set an option the engine declared; EngineOptionError for an unknown option or a value
        its declaration does not allow (nothing is sent then)."""
        option = find_option(self.identity.options.values(), name, f"engine {self.identity.name or self.command!r}")
        text = option.validate(value)
        self._send(format_setoption(option.name, None if option.type == "button" else text))

    def wait_ready(self, timeout: float) -> None:
        """``isready`` … ``readyok``; raises EngineTimeoutError (process killed) or EngineCrashedError."""
        self._send("isready")
        deadline = time.monotonic() + timeout
        while self._read(deadline, "readyok").strip() != "readyok":
            pass

    def new_game(self) -> None:
        """``ucinewgame``, then wait until the engine is ready."""
        self._send("ucinewgame")
        self.wait_ready(self.handshake_timeout)

    def is_alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def log(self) -> list[LoggedLine]:
        """Every line sent to and read from the running process, with direction and time, as
        the transport recorded it (empty when no process runs)."""
        process = self._process
        return process.log() if process is not None else []

    @property
    def pid(self) -> Optional[int]:
        """The engine process's id while it runs (it leads its own process group)."""
        process = self._process
        return process.pid if process is not None else None

    def quit(self, grace: float = 1.0) -> None:
        """Ask the engine to quit; kill it if it has not gone within ``grace`` seconds."""
        if self._process is not None:
            self._process.send("quit")
            self._process.close(grace)
            self._process = None

    def kill(self) -> None:
        """Kill the process (and its group) now."""
        if self._process is not None:
            self._process.kill()
            self._process = None

    # -- searching ---------------------------------------------------------------------------
    def position(self, start_fen: str, moves: Sequence[Move]) -> None:
        """Send the game's start position and every move since."""
        line = format_position(start_fen, moves, self.identity.dialect)
        self._turn = side_to_move(start_fen, len(moves))
        self._send(line)

    def send_line(self, line: str) -> None:
        """Send one protocol line as it is (a variant's command, such as ``position fog …``)."""
        self._send(line)

    def go(self, limits: SearchLimits) -> None:
        """Start a search; read its output with :meth:`wait_bestmove`."""
        self._send(format_go(limits, self.identity.dialect))

    def stop(self) -> None:
        """Ask a running search to finish now (safe from any thread)."""
        process = self._process
        if process is not None:
            process.send("stop")

    def wait_bestmove(self, deadline: Optional[float] = None,
                      on_info: Optional[Callable[[SearchInfo], None]] = None) -> SearchResult:
        """Read ``info`` lines (passed to ``on_info``) until ``bestmove``.

        ``deadline`` is a :func:`time.monotonic` time; past it the process is killed and
        EngineTimeoutError raised. EngineCrashedError when the process ends first;
        EngineProtocolError (process left running) for a malformed ``bestmove``.
        """
        started = time.monotonic()
        infos: list[SearchInfo] = []
        error: Optional[str] = None
        dialect = self.identity.dialect
        while True:
            line = self._read(deadline, "bestmove")
            if line.startswith("info "):
                try:
                    info = parse_info(line, dialect, self._turn)
                except EngineProtocolError:
                    continue
                if info.string is not None and info.string.startswith(ERROR_PREFIX):
                    error = info.string[len(ERROR_PREFIX):].strip()
                infos.append(info)
                del infos[:-64]
                if on_info is not None:
                    on_info(info)
            elif line.startswith("bestmove"):
                best = parse_bestmove(line, dialect)
                return SearchResult(best, tuple(infos), error, time.monotonic() - started)

    def search(self, start_fen: str, moves: Sequence[Move], limits: SearchLimits,
               deadline: Optional[float] = None,
               on_info: Optional[Callable[[SearchInfo], None]] = None) -> SearchResult:
        """``position`` + ``go`` + :meth:`wait_bestmove`."""
        self.position(start_fen, moves)
        self.go(limits)
        return self.wait_bestmove(deadline, on_info)

    # -- plumbing ---------------------------------------------------------------------------
    def _send(self, line: str) -> None:
        if self._process is None or not self._process.send(line):
            raise self._crashed(f"while sending {line.split(' ', 1)[0]!r}")

    def _read(self, deadline: Optional[float], waiting_for: str) -> str:
        process = self._process
        if process is None:
            raise EngineCrashedError(f"engine {self.command!r} is not running")
        timeout = None if deadline is None else deadline - time.monotonic()
        try:
            line = process.read_line(timeout)
        except TimeoutError:
            self.kill()
            raise EngineTimeoutError(f"engine {self.identity.name or self.command!r} gave no "
                                     f"{waiting_for!r} in time; killed") from None
        if line is None:
            raise self._crashed(f"while waiting for {waiting_for!r}")
        return line

    def _crashed(self, when: str) -> EngineCrashedError:
        process = self._process
        code = process.wait(2.0) if process is not None else None
        tail = process.stderr_tail() if process is not None else ""
        self.kill()
        what = "ended" if code is None else (f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        message = f"engine {self.identity.name or self.command!r} {what} {when}"
        last = _last_meaningful_line(tail)
        if last:
            message += f": {last}"
        return EngineCrashedError(message)


def side_to_move(start_fen: str, plies: int) -> Color:
    """Who is to move ``plies`` moves after the position ``start_fen``."""
    turn = parse_fen(start_fen, check_position=False).turn
    return turn if plies % 2 == 0 else not turn


def _last_meaningful_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""
