"""Drive any engine from Python, in the style of python-chess's ``chess.engine``::

    import xqdesk
    import xqdesk.engine

    board = xqdesk.Board()
    with xqdesk.engine.open("builtin") as engine:          # or "ucci:/usr/games/eleeye", "greedy" …
        info = engine.analyse(board, xqdesk.engine.Limit(depth=4))
        print(info.score.red(), [move.iccs() for move in info.pv])
        board.push(engine.play(board, xqdesk.engine.Limit(movetime=0.5)).move)

An engine is named by the same SPEC the command line takes (``builtin[:OPTIONS]``, ``random``,
``greedy``, ``uci:PATH[:OPTIONS]``, ``ucci:PATH[:OPTIONS]``, ``engine:PATH``, ``player:PATH``, a
name from the engines file …) and runs in its own process, opened through the same door as
everywhere else (:meth:`xqdesk.engines.spec.EngineSpec.open`). :func:`open_async` gives the same
engine to ``asyncio`` code (:class:`AsyncEngine`: ``await engine.analyse(…)``).

Errors are :class:`xqdesk.engines.errors.EngineError` subclasses: ``EngineStartError`` for an
engine that cannot start (the message says why), ``EngineCrashedError``, ``EngineTimeoutError``.
A position whose game is over is refused with :class:`ValueError`.
"""
from __future__ import annotations

import asyncio
import builtins
import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from os import PathLike
from types import TracebackType
from typing import Callable, Mapping, Optional, TypeVar

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.engine_player import course_limits
from xqdesk.engines.registry import engine_spec
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
from xqdesk.engines.transport.uci_engine import SearchResult, UciEngine
from xqdesk.move import Move
from xqdesk.score import PovScore

ResultT = TypeVar("ResultT")

DEADLINE_GRACE = 10.0
"""Seconds past a :attr:`Limit.movetime` after which an engine that has not answered is ended
(EngineTimeoutError); a search limited by depth or nodes alone waits as long as it takes."""


@dataclass(frozen=True)
class Limit:
    """When a search stops: after ``movetime`` seconds, at ``depth``, after ``nodes`` nodes
    (whichever comes first; at least one must be given)."""

    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def __post_init__(self) -> None:
        if self.movetime is None and self.depth is None and self.nodes is None:
            raise ValueError("a Limit needs movetime, depth or nodes")
        for name in ("movetime", "depth", "nodes"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"Limit {name} must be more than 0, got {value!r}")


@dataclass(frozen=True)
class Info:
    """What an engine reported about a position (its last report for the line): ``score`` knows
    whose view it is in (``info.score.red()``, ``.pov(color)``), ``pv`` the line it expects."""

    score: Optional[PovScore] = None
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time: Optional[float] = None
    """Seconds the engine said it searched."""
    pv: tuple[Move, ...] = ()
    multipv: int = 1

    @classmethod
    def from_report(cls, report: SearchInfo) -> Info:
        return cls(report.score, report.depth, report.seldepth, report.nodes, report.nps,
                   None if report.time_ms is None else report.time_ms / 1000.0, report.pv, report.multipv)

    def merged(self, report: SearchInfo) -> Info:
        """This info with what ``report`` adds (a report without a score keeps the score before)."""
        newer = Info.from_report(report)
        return Info(**{field.name: getattr(newer, field.name) if getattr(newer, field.name) not in (None, ())
                       else getattr(self, field.name) for field in dataclasses.fields(Info)})


@dataclass(frozen=True)
class PlayResult:
    """An engine's move (None when it gave none), what it said of the position (``info``), and
    its draw offer or resignation wish when it made one with the move (UCCI engines)."""

    move: Optional[Move]
    info: Info
    ponder: Optional[Move] = None
    draw_offered: bool = False
    resigned: bool = False


class SimpleEngine:
    """One engine process, driven by blocking calls. Use it as a context manager (or call
    :meth:`quit`). Not for several threads at once; see :class:`AsyncEngine` for ``asyncio``."""

    def __init__(self, engine: UciEngine, name: str) -> None:
        self._engine = engine
        self.name = engine.identity.name or name
        """The name the engine gave in its handshake (else its spec's)."""
        self._multipv_option = next((option for option in engine.identity.options if option.lower() == "multipv"),
                                    None)
        self._multipv = 1

    @property
    def options(self) -> builtins.list[str]:
        """The names of the options the engine offers."""
        return builtins.list(self._engine.identity.options)

    @property
    def protocol(self) -> str:
        """``"UCI"`` or ``"UCCI"``."""
        return self._engine.identity.protocol_name

    def configure(self, options: Mapping[str, object]) -> None:
        """Set engine options (``{"Hash": 16}``); EngineOptionError for one the engine lacks."""
        for option, value in options.items():
            self._engine.set_option(option, None if value is None else str(value))

    def analyse(self, board: Board, limit: Limit, *, multipv: int = 1,
                on_info: Optional[Callable[[Info], None]] = None) -> Info:
        """The engine's verdict on ``board`` (its history is sent too) within ``limit``: the last
        report of its main line. ``on_info`` sees each report as it comes."""
        return self.analyse_lines(board, limit, multipv=multipv, on_info=on_info)[0]

    def analyse_lines(self, board: Board, limit: Limit, *, multipv: int = 1,
                      on_info: Optional[Callable[[Info], None]] = None) -> builtins.list[Info]:
        """The engine's ``multipv`` best lines for ``board``, best first (fewer when it has fewer
        moves or reports fewer lines; an engine without a MultiPV option gives one)."""
        if multipv < 1:
            raise ValueError(f"multipv must be at least 1, got {multipv!r}")
        result = self._search(board, limit, multipv, on_info)
        lines: dict[int, Info] = {}
        for report in result.infos:
            if report.depth is not None or report.score is not None or report.pv:
                lines[report.multipv] = lines.get(report.multipv, Info(multipv=report.multipv)).merged(report)
        ranked = [lines[number] for number in sorted(lines) if number <= multipv]
        if not ranked:
            ranked = [Info(pv=(result.move,) if result.move is not None else ())]
        return ranked

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` within ``limit`` (kept to moves the course's rules allow:
        a move its perpetual-check rule bans is never asked for)."""
        result = self._search(board, limit, 1, None)
        info = Info()
        for report in result.infos:
            if report.multipv == 1:
                info = info.merged(report)
        return PlayResult(result.move, info, result.best.ponder, result.best.offer == "draw",
                          result.best.offer == "resign")

    def _search(self, board: Board, limit: Limit, multipv: int,
                on_info: Optional[Callable[[Info], None]]) -> SearchResult:
        over = board.outcome()
        if over is not None:
            raise ValueError(f"the game is over in this position ({over.text}): {board.fen()}")
        if self._multipv_option is not None and multipv != self._multipv:
            self._engine.set_option(self._multipv_option, str(multipv))
            self._multipv = multipv
        limits = course_limits(board, SearchLimits(movetime=limit.movetime, depth=limit.depth, nodes=limit.nodes,
                                                   multipv=multipv))
        deadline = None if limit.movetime is None else time.monotonic() + limit.movetime + DEADLINE_GRACE
        report = None if on_info is None else (lambda info: on_info(Info.from_report(info)))
        return self._engine.search(board.start_fen, board.move_stack, limits, deadline, report)

    def stop(self) -> None:
        """Tell a search running (in another thread) to end now; it returns what it has."""
        self._engine.stop()

    def quit(self) -> None:
        """End the engine process (it is asked to quit, then killed)."""
        self._engine.quit()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, kind: Optional[type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} ({self.protocol})>"


def open(spec: str, *, engines_file: Optional[str | PathLike[str]] = None,  # noqa: A001 - python-chess's word
         options: Optional[Mapping[str, object]] = None,
         memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB) -> SimpleEngine:
    """Start the engine ``spec`` names (as ``xqdesk match`` names engines; a name is looked up in
    ``engines_file``, default the registry that ``xqdesk engines`` shows) with ``options`` set,
    its address space capped at ``memory_limit_mb`` MiB (None: no cap). EngineStartError says
    why it cannot start."""
    named = engine_spec(spec, engines_file)
    engine = SimpleEngine(named.open(memory_limit_mb=memory_limit_mb), named.name)
    try:
        if options:
            engine.configure(options)
    except EngineError:
        engine.quit()
        raise
    return engine


class AsyncEngine:
    """:class:`SimpleEngine` for ``asyncio``: the same calls, awaited (each runs on the engine's
    own thread, one at a time, so the event loop never blocks). Cancelling an ``analyse`` or
    ``play`` tells the engine to stop. Use ``async with`` (or ``await engine.quit()``)."""

    def __init__(self, engine: SimpleEngine) -> None:
        self.engine = engine
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xqdesk-engine")

    @property
    def name(self) -> str:
        return self.engine.name

    async def _run(self, call: Callable[[], ResultT]) -> ResultT:
        future = asyncio.get_running_loop().run_in_executor(self._thread, call)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            self.engine.stop()
            await asyncio.gather(future, return_exceptions=True)
            raise

    async def configure(self, options: Mapping[str, object]) -> None:
        await self._run(lambda: self.engine.configure(options))

    async def analyse(self, board: Board, limit: Limit, *, multipv: int = 1) -> Info:
        board = board.copy()
        return await self._run(lambda: self.engine.analyse(board, limit, multipv=multipv))

    async def analyse_lines(self, board: Board, limit: Limit, *, multipv: int = 1) -> builtins.list[Info]:
        board = board.copy()
        return await self._run(lambda: self.engine.analyse_lines(board, limit, multipv=multipv))

    async def play(self, board: Board, limit: Limit) -> PlayResult:
        board = board.copy()
        return await self._run(lambda: self.engine.play(board, limit))

    async def quit(self) -> None:
        await self._run(self.engine.quit)
        self._thread.shutdown(wait=False)

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, kind: Optional[type[BaseException]], error: Optional[BaseException],
                        trace: Optional[TracebackType]) -> None:
        await self.quit()


async def open_async(spec: str, *, engines_file: Optional[str | PathLike[str]] = None,
                     options: Optional[Mapping[str, object]] = None,
                     memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB) -> AsyncEngine:
    """:func:`open` for ``asyncio``: ``async with await xqdesk.engine.open_async("builtin") as engine``."""
    loop = asyncio.get_running_loop()
    engine = await loop.run_in_executor(None, lambda: open(spec, engines_file=engines_file, options=options,
                                                           memory_limit_mb=memory_limit_mb))
    return AsyncEngine(engine)


__all__ = ["AsyncEngine", "Info", "Limit", "PlayResult", "SimpleEngine", "open", "open_async"]
