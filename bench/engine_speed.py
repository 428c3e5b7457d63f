"""Nodes per second and time to depth of the built-in engine beside other engines, in one run.

    python bench/engine_speed.py [--depth 8] [--movetime 1] [--engines builtin fsf eleeye] [--eleeye PATH] [--positions N]

Each engine runs as its own process on one thread (Fairy-Stockfish ``Threads=1``; ElephantEye has
one) over the 24 positions of ``bench/search.py``'s suite, told ``go depth D`` (seconds to reach
depth D, capped at 30 s) and then ``go movetime T`` (the depth reached and the nodes per second it
reports). Engines count nodes in their own ways (quiescence nodes, hash hits), so nodes per second
compare speed loosely; time to depth compares what the user gets. ElephantEye, which has no futility
or late-move pruning, counts every legal move it plays in the tree, the frontier's too (mostly
quiescence nodes that stand pat at once); the built-in engine prunes about as many moves as it
counts nodes (3.1 against 2.7 million over ``bench/search.py``'s suite to depth 8) after making them
and testing legality and check, and does not count those. Prints a row per position and engine,
and the medians.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search import SUITE  # noqa: E402

from xqdesk.engines.search_types import SearchInfo, SearchLimits  # noqa: E402
from xqdesk.engines.spec import EngineSpec, parse_spec  # noqa: E402

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
DEPTH_CAP_SECONDS = 30.0


def engine_spec(name: str, args: argparse.Namespace) -> EngineSpec:
    if name == "fsf":
        return parse_spec(f"uci:{args.fairy_stockfish}:Threads=1,Hash=64")
    if name == "eleeye":
        if not args.eleeye:
            raise SystemExit("eleeye: say where ElephantEye is, with --eleeye PATH or XQDESK_ELEEYE")
        return parse_spec(f"ucci:{args.eleeye}:hashsize=64")
    return parse_spec(name)


def measure(spec: EngineSpec, fen: str, depth: int, movetime: float) -> tuple[float | None, int, int]:
    """(seconds to complete ``depth`` or None past the cap, depth in ``movetime``, nodes/s)."""
    engine = spec.open()
    try:
        engine.new_game()
        reached: list[float] = []
        started = time.monotonic()

        def on_depth(info: SearchInfo) -> None:
            if info.depth is not None and info.depth >= depth and info.pv and not reached:
                reached.append(time.monotonic() - started)

        engine.search(fen, (), SearchLimits(depth=depth), deadline=started + DEPTH_CAP_SECONDS + 5, on_info=on_depth)
        to_depth = reached[0] if reached else None
        engine.new_game()
        infos: list[SearchInfo] = []
        begun = time.monotonic()
        engine.search(fen, (), SearchLimits(movetime=movetime), deadline=begun + movetime + 10, on_info=infos.append)
        elapsed = time.monotonic() - begun
        depths = [info.depth for info in infos if info.depth is not None and info.pv]
        nodes = max((info.nodes for info in infos if info.nodes is not None), default=0)
        return to_depth, max(depths, default=0), int(nodes / max(elapsed, 1e-6))
    finally:
        engine.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="the depth to time (default 8)")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds for the speed search (default 1)")
    parser.add_argument("--engines", nargs="+", default=["builtin", "fsf", "eleeye"])
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH)
    parser.add_argument("--eleeye", default=os.environ.get("XQDESK_ELEEYE"))
    parser.add_argument("--positions", type=int, default=len(SUITE), help="the first N positions only")
    args = parser.parse_args()
    specs = [(name, engine_spec(name, args)) for name in args.engines]
    results: dict[str, list[tuple[float | None, int, int]]] = {name: [] for name, _ in specs}
    print(f"{'#':>2} {'kind':<10} " + "  ".join(f"{name:>26}" for name, _ in specs))
    print(f"{'':>13}" + "  ".join(f"{f'to d{args.depth} s / depth / knps':>26}" for _ in specs))
    for number, (kind, fen) in enumerate(SUITE[:args.positions], 1):
        cells = []
        for name, spec in specs:
            row = measure(spec, fen, args.depth, args.movetime)
            results[name].append(row)
            to_depth, depth, nps = row
            cells.append(f"{'>' + str(int(DEPTH_CAP_SECONDS)) if to_depth is None else f'{to_depth:.2f}':>12} / "
                         f"{depth:>5} / {nps // 1000:>5}")
        print(f"{number:>2} {kind:<10} " + "  ".join(f"{cell:>26}" for cell in cells), flush=True)
    print("medians:")
    for name, rows in results.items():
        times = [row[0] if row[0] is not None else DEPTH_CAP_SECONDS for row in rows]
        print(f"  {name:<10} time to depth {args.depth}: {statistics.median(times):.2f} s, depth in "
              f"{args.movetime:g} s: {statistics.median(row[1] for row in rows):.0f}, "
              f"{statistics.median(row[2] for row in rows) / 1000:.0f} knps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
