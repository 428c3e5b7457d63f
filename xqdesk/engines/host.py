"""``python -m xqdesk.engines.host {player PATH | egtb DIR | builtin | random | greedy | mcts | zero | fog-…}``: a UCI engine
around an in-process engine, speaking the Pikafish dialect (ranks 0–9). Fog agents are sent
``position fog VIEW …`` (what their side has seen) instead of a position.

The protocol goes over a duplicate of the original stdout; file descriptor 1 is pointed at stderr
before any engine code is loaded, so a player's ``print`` can never corrupt the protocol. Searches
run in a worker thread so ``stop``, ``isready`` and ``quit`` are answered at once. End of input
ends the process at once, whatever the engine is doing (so a host never outlives its referee).
Why an engine gave no move is told as ``info string error: …`` before ``bestmove 0000``.
"""
from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
from typing import Callable, Optional, Sequence, TextIO

from xqdesk.board import Board
from xqdesk.engines.compile_state import locked_warm_up
from xqdesk.engines.errors import EngineProtocolError, EngineStartError
from xqdesk.engines.hosted.in_process import InProcessEngine, apply_option
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.spec import FOG_KINDS
from xqdesk.engines.transport.uci import UciDialect, format_info, format_move, format_option, parse_go, parse_position
from xqdesk.engines.transport.uci_engine import ERROR_PREFIX
from xqdesk.fen import STARTING_FEN

DIALECT = UciDialect.PIKAFISH
ENGINE_KINDS = ("player", "builtin", "random", "greedy", "egtb", "mcts", "zero") + FOG_KINDS


def make_engine(kind: str, path: Optional[str] = None) -> InProcessEngine:
    """The in-process engine of ``kind``; EngineStartError when it cannot be made."""
    if kind == "random":
        from xqdesk.engines.hosted.baselines import RandomEngine
        return RandomEngine()
    if kind == "greedy":
        from xqdesk.engines.hosted.baselines import GreedyEngine
        return GreedyEngine()
    if kind == "builtin":
        try:
            from xqdesk.engines.builtin import BuiltinEngine
        except ImportError as error:
            raise EngineStartError(f"the built-in engine is not available: {error}") from None
        return BuiltinEngine()
    if kind == "egtb":
        if not path:
            raise EngineStartError("'egtb' needs the directory of the tablebase files")
        from xqdesk.engines.errors import EngineOptionError
        from xqdesk.engines.hosted.tablebase import TablebaseEngine
        try:
            return TablebaseEngine(path)
        except EngineOptionError as error:
            raise EngineStartError(str(error)) from None
    if kind == "mcts":
        from xqdesk.engines.mcts.engine import MctsEngine
        return MctsEngine()
    if kind == "zero":
        from xqdesk.engines.zero.engine import ZeroEngine
        return ZeroEngine()
    if kind in FOG_KINDS:
        from xqdesk.engines.fog.hosted import HostedFogAgent
        return HostedFogAgent(kind)
    if kind == "player":
        if not path:
            raise EngineStartError("'player' needs the path of a course player folder or file")
        from xqdesk.engines.hosted.course_player import CoursePlayerEngine
        return CoursePlayerEngine(path)
    raise EngineStartError(f"unknown engine kind {kind!r} (expected one of {', '.join(ENGINE_KINDS)})")


class UciHost:
    """Serves the UCI protocol for one in-process engine. ``write`` must be thread-safe."""

    def __init__(self, engine: InProcessEngine, write: Callable[[str], None]) -> None:
        self.engine = engine
        self.write = write
        self.board: Optional[Board] = Board()
        """None after a ``position`` that could not be set up (``go`` then reports why)."""
        self._position_error = ""
        self._fog_views: Optional[list] = None
        """The views of the last ``position fog`` (None after any other position)."""
        self._stop = threading.Event()
        self._search: Optional[threading.Thread] = None
        self._ready = threading.Event()
        self._ready.set()  # until start_warm_up() says otherwise
        self._warm_up_error = ""

    def start_warm_up(self, kind: str = "") -> None:
        """Run the engine's ``warm_up()`` (if it has one) in the background; ``isready`` and ``go``
        wait for it, while ``uci``, ``setoption`` and ``stop`` are answered at once. For a
        ``kind`` that runs compiled code, it waits for a compilation going on in another process
        (see :mod:`xqdesk.engines.compiled_code`)."""
        warm_up = getattr(self.engine, "warm_up", None)
        if warm_up is None:
            return
        self._ready.clear()

        def run() -> None:
            try:
                locked_warm_up(kind, warm_up)
            except Exception as error:  # noqa: BLE001 - reported on the protocol, the host goes on
                self._warm_up_error = f"{type(error).__name__}: {error}"
            finally:
                self._ready.set()

        threading.Thread(target=run, name="host-warm-up", daemon=True).start()

    def handle(self, line: str) -> bool:
        """Act on one command line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command = tokens[0]
        try:
            if command == "uci":
                self.write(f"id name {self.engine.name}")
                self.write("id author xqdesk")
                for option in self.engine.uci_options():
                    self.write(format_option(option))
                self.write("uciok")
            elif command == "isready":
                self._ready.wait()
                if self._warm_up_error:
                    self.write(f"info string {ERROR_PREFIX} start-up failed: {self._warm_up_error}")
                self.write("readyok")
            elif command == "setoption":
                self._set_option(line)
            elif command == "ucinewgame":
                self._finish_search()
                self.engine.new_game()
                self.board = Board()
                self._fog_views = None
            elif command == "position" and tokens[1:2] == ["fog"]:
                self._finish_search()
                self._set_fog_position(line)
            elif command == "position":
                self._finish_search()
                self._fog_views = None
                self._set_position(line)
            elif command == "go":
                self._ready.wait()
                self._finish_search()
                self._start_search(parse_go(line, DIALECT))
            elif command == "stop":
                self._stop.set()
            elif command == "quit":
                return False
        except (ValueError, EngineProtocolError) as error:
            self.write(f"info string {ERROR_PREFIX} {' '.join(str(error).split())}")
        return True

    def _set_option(self, line: str) -> None:
        body = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
        if not body.startswith("name "):
            raise ValueError(f"setoption without a name: {line!r}")
        name, _, value = body[len("name "):].partition(" value ")
        apply_option(self.engine, name.strip(), value.strip())

    def _set_position(self, line: str) -> None:
        previous, self.board = self.board, None
        try:
            fen, moves = parse_position(line, DIALECT)
            board = self._continued(previous, fen or STARTING_FEN, moves)
            for move in moves[len(board.move_stack):]:
                board.push_legal(move)
        except ValueError as error:
            self._position_error = f"bad position command: {error}"
            raise
        self.board = board
        prepare = getattr(self.engine, "prepare", None)
        if prepare is not None:  # course players are made here, before the clock starts
            prepare(board.copy())

    def _set_fog_position(self, line: str) -> None:
        """``position fog VIEW …``: what a fog agent's side has seen (no board is set up)."""
        from xqdesk.engines.fog.hosted import parse_fog_position

        self._fog_views, self.board = None, None
        try:
            self._fog_views = parse_fog_position(line)
        except ValueError as error:
            self._position_error = f"bad position command: {error}"
            raise

    @staticmethod
    def _continued(previous: Optional[Board], fen: str, moves: list) -> Board:
        """``previous`` when the new position only adds moves to it (a game in progress: no need
        to check its moves again), else a fresh board at ``fen``."""
        if previous is not None and previous.start_fen == Board(fen).fen():
            played = previous.move_stack
            if played == moves[:len(played)]:
                return previous
        return Board(fen)

    def _start_search(self, limits: SearchLimits) -> None:
        if self._fog_views is not None:
            self._stop = threading.Event()
            self._search = threading.Thread(target=self._run_fog_search, args=(list(self._fog_views), limits, self._stop),
                                            name="host-search", daemon=True)
            self._search.start()
            return
        if self.board is None:
            self.write(f"info string {ERROR_PREFIX} {' '.join(self._position_error.split())}")
            self.write("bestmove 0000")
            return
        self._stop = threading.Event()
        board, stop = self.board.copy(), self._stop
        self._search = threading.Thread(target=self._run_search, args=(board, limits, stop),
                                        name="host-search", daemon=True)
        self._search.start()

    def _run_search(self, board: Board, limits: SearchLimits, stop: threading.Event) -> None:
        def on_info(info: SearchInfo) -> None:
            self.write(format_info(info, DIALECT))

        try:
            move = self.engine.search(board, limits, stop, on_info)
        except BaseException as error:  # whatever the engine does, the referee gets an answer
            reason = str(error) or type(error).__name__
            self.write(f"info string {ERROR_PREFIX} {' '.join(reason.split())}")
            move = None
        self.write(f"bestmove {format_move(move, DIALECT) if move is not None else '0000'}")

    def _run_fog_search(self, views: list, limits: SearchLimits, stop: threading.Event) -> None:
        def on_info(info: SearchInfo) -> None:
            self.write(format_info(info, DIALECT))

        search_views = getattr(self.engine, "search_views", None)
        move = None
        try:
            if search_views is None:
                raise ValueError(f"{self.engine.name} does not play fog of war")
            move = search_views(views, limits, stop, on_info)
        except BaseException as error:  # whatever the agent does, the referee gets an answer
            reason = str(error) or type(error).__name__
            self.write(f"info string {ERROR_PREFIX} {' '.join(reason.split())}")
        self.write(f"bestmove {format_move(move, DIALECT) if move is not None else '0000'}")

    def _finish_search(self) -> None:
        """Stop a running search and wait for it (a search that ignores stop is waited for; the
        referee kills such an engine on its own clock)."""
        if self._search is not None and self._search.is_alive():
            self._stop.set()
            self._search.join()


def _protocol_writer() -> Callable[[str], None]:
    """Move the real stdout aside for the protocol and point fd 1 (and ``sys.stdout``) at stderr."""
    protocol: TextIO = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            protocol.write(line + "\n")
            protocol.flush()

    return write


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xqdesk.engines.host",
                                     description="Run an xqdesk engine or a course player as a UCI engine.")
    parser.add_argument("kind", choices=ENGINE_KINDS)
    parser.add_argument("path", nargs="?", help="for 'player': the course player folder or file")
    args = parser.parse_args(argv)
    write = _protocol_writer()
    try:
        engine = make_engine(args.kind, args.path)
    except EngineStartError as error:
        print(f"xqdesk host: {' '.join(str(error).split())}", file=sys.stderr, flush=True)
        return 2
    host = UciHost(engine, write)
    host.start_warm_up(args.kind)
    commands: queue.Queue[Optional[str]] = queue.Queue()
    threading.Thread(target=_read_commands, args=(host, commands), name="host-stdin", daemon=True).start()
    while True:
        line = commands.get()
        if line is None or not host.handle(line):
            break
    _leave()
    return 0


def _read_commands(host: UciHost, commands: queue.Queue[Optional[str]]) -> None:
    """Read stdin apart from the command loop, so ``stop`` acts during a search and end of input
    or ``quit`` end the process even when user code never returns."""
    for raw in sys.stdin:
        line = raw.strip()
        if line == "stop":
            host.handle(line)
        elif line == "quit":
            _leave()
        else:
            commands.put(line)
    _leave()


def _leave() -> None:
    """End the process now: a search thread may still be running user code."""
    try:
        sys.stderr.flush()
    finally:
        os._exit(0)

if __name__ == "__main__":
    sys.exit(main())
