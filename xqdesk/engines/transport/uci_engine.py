"""A UCI or UCCI engine in its own process: handshake, options, positions, searches, stop, quit, kill.

A thin device over :mod:`xqdesk.engines.transport.protocol` (the text of either protocol, as pure functions)
and :mod:`xqdesk.engines.transport.process` (the process). ``protocol="auto"`` tries UCI, then UCCI, and
:attr:`EngineIdentity.protocol` says which answered. Blocking calls take timeouts; a search given a
``deadline`` that it overruns kills the process and raises :class:`EngineTimeoutError`. Nothing the
engine writes is trusted.

UCCI specifics handled here: a UCCI engine answers ``stop`` while idle with a stray ``nobestmove``,
so ``stop`` is only sent during a search and, after a stopped search, an ``isready`` before the next
``go`` reads any stray answer away; an engine answering ``nobestmove`` to a search it was not told
to stop (ElephantEye does when it judges the position drawn by repetition, which the course does not)
is asked once more with the current position as a fresh FEN without its history.
"""
from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

from xqdesk.engines.errors import (
    EngineCrashedError,
    EngineError,
    EngineProtocolError,
    EngineStartError,
    EngineTimeoutError,
)
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB, LineObserver, LineProcess, LoggedLine
from xqdesk.engines.transport.protocol import EngineProtocol, ProtocolName, UcciProtocol, UciProtocol
from xqdesk.engines.transport.ucci import MILLISEC_OPTION, NO_BEST_MOVE
from xqdesk.engines.transport.uci import (
    BestMove,
    OptionValue,
    UciDialect,
    UciOption,
    detect_dialect,
    find_option,
    network_file_problem,
    parse_id,
)
from xqdesk.fen import parse_fen
from xqdesk.move import Move
from xqdesk.pieces import RED, Color

HANDSHAKE_TIMEOUT = 30.0
"""Seconds an engine gets to answer ``uci`` (course players load here) and later ``isready``s: a
guard against an engine that never answers, generous enough for a busy computer, where a Python
engine host that answers in a second on an idle one can take ten and more (its imports alone)."""

READY_TIMEOUT = 120.0
"""Seconds an engine gets to answer its first ``isready``: engines may load tables or compile
there (the built-in engine compiles its kernel on its first start after an install). No move
clock runs during it."""

DETECT_TIMEOUT = 3.0
"""Seconds each protocol gets to answer its greeting when the protocol is detected (``auto``)."""

ERROR_PREFIX = "error:"
"""``info string error: …`` lines carry why an engine gave no move (xqdesk's host writes them)."""


@dataclass(frozen=True)
class SearchResult:
    """What one ``go`` produced: the best move (None for a null move), the raw text, the last info
    lines, the error an engine explained with ``info string error: …`` (if any), and ``asked_again``
    when a UCCI engine's ``nobestmove`` was answered by asking again without the history."""

    best: BestMove
    infos: tuple[SearchInfo, ...] = ()
    error: Optional[str] = None
    elapsed: float = 0.0
    asked_again: bool = False

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
    protocol: EngineProtocol = field(default_factory=UciProtocol)

    @property
    def protocol_name(self) -> str:
        """``"UCI"`` or ``"UCCI"``."""
        return self.protocol.name.value.upper()


class _NoGreeting(EngineStartError):
    """While detecting the protocol: the engine did not answer this protocol's greeting."""


class _StartRefused(EngineStartError):
    """The engine said (``info string error: …`` before its first ``readyok``) that it cannot
    start as asked: an option value it could not use (a network file, a book), a failed start-up."""


class UciEngine:
    """One engine process speaking UCI or UCCI. Not thread-safe except :meth:`stop` (which only
    writes a line)."""

    def __init__(self, command: Sequence[str], *, cwd: Optional[str] = None,
                 options: Optional[Mapping[str, str]] = None,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 ready_timeout: float = READY_TIMEOUT,
                 env: Optional[Mapping[str, str]] = None,
                 on_line: Optional[LineObserver] = None,
                 protocol: ProtocolName | str = ProtocolName.UCI,
                 verify: bool = False, name: Optional[str] = None) -> None:
        """``on_line`` sees every line exchanged with the process (see :meth:`log`); ``protocol``
        is ``uci``, ``ucci`` or ``auto`` (UCI, then UCCI); ``verify``: :meth:`start` also checks
        that the engine plays Xiangqi (:meth:`verify_xiangqi`); ``name`` labels the process in the
        protocol trace (:data:`xqdesk.engines.transport.process.TRACE`)."""
        self.requested_protocol = ProtocolName(protocol)
        self.verify = verify
        self.name = name
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
        self._position: tuple[str, tuple[Move, ...]] = ("", ())
        self._limits = SearchLimits()
        self._search_lock = threading.Lock()
        self._searching = False
        self._stop_sent = False
        self._sync_before_go = False
        self._recent: collections.deque[str] = collections.deque(maxlen=12)
        """The last lines read (an engine that dies often says why on stdout)."""

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> EngineIdentity:
        """Start the process, do the handshake (UCI, UCCI, or detect which), pick the dialect,
        apply the options, and when asked (``verify``) check that the engine plays Xiangqi.

        Raises EngineStartError with the engine's own words when anything fails (the process is
        killed then); under ``auto`` one that answers neither protocol is told so within twice
        :data:`DETECT_TIMEOUT`.
        """
        identity = self._handshake()
        if self.verify:
            try:
                self.verify_xiangqi(self.handshake_timeout)
            except EngineError:
                self.kill()
                raise
        return identity

    def _handshake(self) -> EngineIdentity:
        """Start the process and greet it in the requested protocol (or detect which it speaks)."""
        if self.requested_protocol is not ProtocolName.AUTO:
            return self._start_as(self.requested_protocol, self.handshake_timeout)
        failures = []
        for name in (ProtocolName.UCI, ProtocolName.UCCI):
            try:
                return self._start_as(name, min(DETECT_TIMEOUT, self.handshake_timeout), detecting=True)
            except _NoGreeting as error:
                failures.append(f"to {name.value!r}: {error}")
        raise EngineStartError(f"engine {self.command!r} speaks neither UCI nor UCCI ("
                               + "; ".join(failures) + ")")

    def _start_as(self, name: ProtocolName, timeout: float, detecting: bool = False) -> EngineIdentity:
        """Start the process and greet it in protocol ``name``; when ``detecting``, an engine that
        does not answer the greeting raises :class:`_NoGreeting` (the next protocol is tried)."""
        self._process = LineProcess(self.command, cwd=self.cwd, env=self.env, memory_limit_mb=self.memory_limit_mb,
                                    on_line=self.on_line, name=self.name)
        greeted = False
        try:
            self._greet(name, timeout)
            greeted = True
            self._configure()
        except EngineError as error:
            detail = self._process.stderr_tail() if self._process else ""
            self.kill()
            if detecting and not greeted and isinstance(error, (EngineCrashedError, EngineTimeoutError)):
                raise _NoGreeting(_first_line(str(error))) from None
            message = str(error) if isinstance(error, (EngineCrashedError, EngineTimeoutError, _StartRefused)) \
                else f"engine {self.command!r} failed to start: {error}"
            if detail and detail not in message:
                message += f"\n{detail}"
            raise EngineStartError(message) from None
        return self.identity

    def _greet(self, name: ProtocolName, timeout: float) -> None:
        """Send the greeting of protocol ``name`` and read the engine's id and option lines."""
        hello, ok = ("ucci", "ucciok") if name is ProtocolName.UCCI else ("uci", "uciok")
        self._send(hello)
        deadline = time.monotonic() + timeout
        identity = EngineIdentity()
        options: list[UciOption] = []
        parse = UcciProtocol.parse_option if name is ProtocolName.UCCI else UciProtocol.parse_option
        while True:
            line = self._read(deadline, ok)
            if line.startswith("id "):
                try:
                    key, value = parse_id(line)
                except EngineProtocolError:
                    continue
                if key == "name":
                    identity.name = value
                elif key == "author":
                    identity.author = value
            elif line.startswith("option "):
                try:
                    options.append(parse(line))
                except EngineProtocolError:
                    continue
            elif line.strip() == ok:
                break
        protocol: EngineProtocol
        if name is ProtocolName.UCCI:
            protocol = UcciProtocol(millisec=any(option.name.lower() == MILLISEC_OPTION for option in options))
        else:
            dialect = detect_dialect(options)
            if dialect is None:
                raise EngineStartError(f"engine {identity.name or self.command!r} has a UCI_Variant option "
                                       "without 'xiangqi': it cannot play Xiangqi")
            identity.dialect = dialect
            protocol = UciProtocol(dialect)
        identity.protocol = protocol
        identity.options = {option.name: option for option in options}
        self.identity = identity

    def _configure(self) -> None:
        """The protocol's own setup, the requested options, and the first ``isready``. An engine
        that explains before its ``readyok`` that it cannot start as asked (``info string error:
        …``: a network file it cannot use, a failed start-up) is refused with its words
        (:class:`EngineStartError`), rather than left to play on some other way."""
        for line in self.identity.protocol.setup_lines(self.identity.options.values()):
            self._send(line)
        for name, value in self.requested_options.items():
            self.set_option(name, value)
        self._send("isready")
        deadline = time.monotonic() + self.ready_timeout
        refusals: list[str] = []
        while (line := self._read(deadline, "readyok").strip()) != "readyok":
            said = line.split(None, 2)
            if said[:2] == ["info", "string"] and len(said) == 3 and said[2].startswith(ERROR_PREFIX):
                refusals.append(said[2][len(ERROR_PREFIX):].strip())
        if refusals:
            raise _StartRefused(f"engine {self.identity.name or self.command!r} cannot start as asked: "
                                + "; ".join(refusals))

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
        self._send(self.identity.protocol.setoption_line(option, value))

    def wait_ready(self, timeout: float) -> None:
        """``isready`` … ``readyok``; raises EngineTimeoutError (process killed) or EngineCrashedError."""
        self._send("isready")
        deadline = time.monotonic() + timeout
        while self._read(deadline, "readyok").strip() != "readyok":
            pass

    def new_game(self) -> None:
        """``ucinewgame`` (UCCI: ``setoption newgame`` when declared), then wait until the engine
        is ready."""
        for line in self.identity.protocol.new_game_lines(self.identity.options.values()):
            self._send(line)
        self.wait_ready(self.handshake_timeout)
        self._sync_before_go = False

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
        """Send the game's start position and every move since (UCCI: the position after the last
        capture, the moves since, and the moves the course bans). EnginePositionError, with
        nothing sent, for a position the engine's dialect cannot take."""
        lines = self.identity.protocol.position_lines(start_fen, moves)
        self._turn = side_to_move(start_fen, len(moves))
        self._position = (start_fen, tuple(moves))
        for line in lines:
            self._send(line)

    def send_line(self, line: str) -> None:
        """Send one protocol line as it is (a variant's command, such as ``position fog …``)."""
        self._send(line)

    def go(self, limits: SearchLimits) -> None:
        """Start a search of the last position sent; read its output with :meth:`wait_bestmove`."""
        protocol = self.identity.protocol
        lines = protocol.go_lines(limits, *self._position, self._turn)
        if self._sync_before_go:  # a stopped UCCI search may leave a stray answer: read it away
            self.wait_ready(self.handshake_timeout)
            self._sync_before_go = False
        self._limits = limits
        with self._search_lock:
            for line in lines:
                self._send(line)
            self._searching = True
            self._stop_sent = False

    def stop(self) -> None:
        """Ask a running search to finish now (safe from any thread). A UCCI engine is only sent
        ``stop`` while a search runs (it answers one sent while idle)."""
        process = self._process
        if process is None:
            return
        with self._search_lock:
            if isinstance(self.identity.protocol, UcciProtocol) and not self._searching:
                return
            self._stop_sent = True
            process.send("stop")

    def wait_bestmove(self, deadline: Optional[float] = None,
                      on_info: Optional[Callable[[SearchInfo], None]] = None) -> SearchResult:
        """Read ``info`` lines (passed to ``on_info``) until ``bestmove`` (UCCI: or ``nobestmove``).

        ``deadline`` is a :func:`time.monotonic` time; past it the process is killed and
        EngineTimeoutError raised. EngineCrashedError when the process ends first;
        EngineProtocolError (process left running) for a malformed ``bestmove``.
        """
        started = time.monotonic()
        infos: list[SearchInfo] = []
        error: Optional[str] = None
        protocol = self.identity.protocol
        asked_again = False
        while True:
            line = self._read(deadline, "bestmove")
            if line.startswith("info "):
                try:
                    info = protocol.parse_info(line, self._turn)
                except EngineProtocolError:
                    continue
                if info.string is not None and info.string.startswith(ERROR_PREFIX):
                    error = info.string[len(ERROR_PREFIX):].strip()
                infos.append(info)
                del infos[:-64]
                if on_info is not None:
                    on_info(info)
            elif protocol.is_final(line):
                with self._search_lock:
                    self._searching = False
                    stopped = self._stop_sent
                    if stopped and isinstance(protocol, UcciProtocol):
                        self._sync_before_go = True
                best = protocol.parse_bestmove(line)
                retry = None if (best.text != NO_BEST_MOVE or stopped or asked_again) else \
                    protocol.retry_lines(self._limits, *self._position, self._turn)
                if retry:
                    asked_again = True
                    with self._search_lock:
                        for retry_line in retry:
                            self._send(retry_line)
                        self._searching = True
                    continue
                return SearchResult(best, tuple(infos), error, time.monotonic() - started, asked_again)

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
            if timeout is not None and timeout <= 0:  # checked before every line: a flood of lines
                raise TimeoutError                    # waiting to be read does not hold the deadline off
            line = process.read_line(timeout)
        except TimeoutError:
            self.kill()
            raise EngineTimeoutError(f"engine {self.identity.name or self.command!r} gave no "
                                     f"{waiting_for!r} in time; killed") from None
        if line is None:
            raise self._crashed(f"while waiting for {waiting_for!r}")
        self._recent.append(line)
        return line

    def _crashed(self, when: str) -> EngineCrashedError:
        process = self._process
        code = process.wait(2.0) if process is not None else None
        tail = process.stderr_tail(wait=1.0 if code is not None else 0.0) if process is not None else ""
        self.kill()
        what = "ended" if code is None else (f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        message = f"engine {self.identity.name or self.command!r} {what} {when}"
        network = network_file_problem(list(self._recent) + tail.splitlines(), self.identity.options or ("EvalFile",))
        said = [line for line in self._recent if "error" in line.lower()]  # e.g. Pikafish's CRITICAL ERROR
        last = _last_meaningful_line(tail)
        if network:
            message += f": {network}"
        elif said:
            message += f": {said[-1]}"
        elif last:
            message += f": {last}"
        return EngineCrashedError(message)


def side_to_move(start_fen: str, plies: int) -> Color:
    """Who is to move ``plies`` moves after the position ``start_fen``."""
    turn = parse_fen(start_fen, check_position=False).turn
    return turn if plies % 2 == 0 else not turn


def _last_meaningful_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else text
