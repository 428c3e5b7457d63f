"""The tactical and positional suite: how many of ``bench/tactics.epd``'s positions each engine
solves in a given time; prints figures only.

    python bench/tactics.py [--movetime 1 0.2] [--engines builtin eleeye fsf] [--suite bench/tactics.epd]
        [--limit N] [--verbose]

The positions are master-game positions where one move is at least 1.5 pawns better than every
other by Fairy-Stockfish at depth 16 (MultiPV 2) and a depth-7 search of the built-in engine plays
another move (``bench/select_tactics.py`` chose them; each line holds the position, the best move,
its margin and the game it comes from). Each engine runs as its own process on one thread and is
told ``go movetime T`` for each position from a new game (no history); it solves the position when
it plays the best move.

Engines: ``builtin`` (this checkout), ``rev:REV`` (the built-in engine of a git revision),
``eleeye`` (ElephantEye: ``--eleeye`` or ``XQDESK_ELEEYE``), ``fsf`` (Fairy-Stockfish at full
strength), ``fsf:N`` (at Skill Level N), or any engine SPEC. For every move time and engine it
prints the solved count and rate with a 95% interval, the mean depth reached and the seconds the
run took; ``--verbose`` lists the positions each engine missed.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from strength import FAIRY_STOCKFISH, opponent_spec  # noqa: E402

from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import EngineSpec, parse_spec  # noqa: E402
from xqdesk.engines.transport.uci_engine import UciEngine  # noqa: E402
from xqdesk.errors import XqdeskError  # noqa: E402
from xqdesk.move import Move  # noqa: E402

SUITE_FILE = Path(__file__).resolve().parent / "tactics.epd"
Z_95 = 1.959963984540054
SEARCH_GRACE = 10.0
"""Seconds past the move time before a silent engine is given up as hung."""


@dataclass(frozen=True)
class SuitePosition:
    fen: str
    best: Move
    margin: int
    source: str


def read_suite(path: Path) -> list[SuitePosition]:
    """The positions of an EPD-like suite file (see bench/select_tactics.py); XqdeskError naming the
    line for one that cannot be read."""
    positions: list[SuitePosition] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = [field.strip() for field in line.split(";")]
        values = {field.split(" ", 1)[0]: field.split(" ", 1)[1] for field in fields if " " in field}
        try:
            positions.append(SuitePosition(fen, Move.from_iccs(values["bm"]), int(values["margin"]),
                                           values.get("source", "").strip('"')))
        except (KeyError, ValueError) as error:
            raise XqdeskError(f"{path}:{number}: a suite line needs 'FEN; bm MOVE; margin CP', got {line!r} "
                              f"({error})") from None
    return positions


def engine_spec(name: str, args: argparse.Namespace) -> EngineSpec:
    if name == "fsf":
        return parse_spec(f"uci:{args.fairy_stockfish}:Threads=1,Hash=64")
    return opponent_spec(name, args)


@dataclass
class Run:
    """One engine's answers at one move time."""

    solved: int
    missed: list[tuple[SuitePosition, Optional[Move]]]
    depths: list[int]
    seconds: float


def run_engine(spec: EngineSpec, positions: list[SuitePosition], movetime: float) -> Run:
    engine = UciEngine(spec.command, cwd=spec.workdir, options=spec.options, env=spec.env, protocol=spec.protocol)
    engine.start()
    started = time.monotonic()
    solved = 0
    missed: list[tuple[SuitePosition, Optional[Move]]] = []
    depths: list[int] = []
    try:
        for position in positions:
            engine.new_game()
            result = engine.search(position.fen, [], SearchLimits(movetime=movetime),
                                   deadline=time.monotonic() + movetime + SEARCH_GRACE)
            depths.append(max((info.depth or 0 for info in result.infos if info.pv), default=0))
            if result.move == position.best:
                solved += 1
            else:
                missed.append((position, result.move))
    finally:
        engine.quit()
    return Run(solved, missed, depths, time.monotonic() - started)


def interval(solved: int, total: int) -> str:
    """The solve rate's 95% interval (Wilson score), in percent."""
    if total == 0:
        return "n/a"
    p = solved / total
    centre = (p + Z_95 ** 2 / (2 * total)) / (1 + Z_95 ** 2 / total)
    half = Z_95 * math.sqrt(p * (1 - p) / total + Z_95 ** 2 / (4 * total ** 2)) / (1 + Z_95 ** 2 / total)
    return f"{100 * (centre - half):.0f}-{100 * (centre + half):.0f}%"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, default=SUITE_FILE, help="the suite file (default bench/tactics.epd)")
    parser.add_argument("--movetime", type=float, nargs="+", default=[1.0, 0.2], help="seconds a position (default 1 0.2)")
    parser.add_argument("--engines", nargs="+", default=["builtin", "eleeye", "fsf"])
    parser.add_argument("--limit", type=int, default=None, help="the first N positions only")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH)
    parser.add_argument("--eleeye", default=os.environ.get("XQDESK_ELEEYE"), help="the ElephantEye executable")
    parser.add_argument("--verbose", action="store_true", help="list each engine's missed positions")
    args = parser.parse_args()
    positions = read_suite(args.suite)[:args.limit]
    specs = [(name, engine_spec(name, args)) for name in args.engines]
    for movetime in args.movetime:
        print(f"\n{len(positions)} positions of {args.suite.name}, {movetime:g} s a position")
        print(f"{'engine':<18} {'solved':>9} {'rate':>6} {'95% interval':>13} {'mean depth':>11} {'run':>7}")
        for name, spec in specs:
            run = run_engine(spec, positions, movetime)
            total = len(positions)
            print(f"{name:<18} {run.solved:>4}/{total:<4} {100 * run.solved / max(total, 1):>5.1f}% "
                  f"{interval(run.solved, total):>13} {statistics.mean(run.depths or [0]):>11.1f} "
                  f"{run.seconds:>6.0f}s", flush=True)
            if args.verbose:
                for position, played in run.missed:
                    print(f"    missed {position.best.iccs()} (margin {position.margin}), played "
                          f"{played.iccs() if played else '-'}: {position.fen}  [{position.source}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
