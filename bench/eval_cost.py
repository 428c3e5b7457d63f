"""The learned evaluation's cost per node against the hand-written one: prints figures only.

    python bench/eval_cost.py [--movetime 1] [--depth N] [--eval-file FILE] [--positions 24]

For each position of ``bench/search.py``'s fixed suite (openings, middlegames, endgames), one search
with ``Eval=classic`` and one with ``Eval=network`` (``EvalFile`` if given, else the shipped
network), one after the other in the same process so both see the same machine load. Printed per
position and as medians: the depth reached in ``--movetime`` seconds, nodes per second of wall
time, and nodes per second of the search thread's CPU time (which a busy machine disturbs less).
With ``--depth N`` each position is searched to depth N instead: nodes and CPU seconds to reach it.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search import SUITE  # noqa: E402

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.hosted.in_process import apply_option  # noqa: E402
from xqdesk.engines.search_types import SearchInfo, SearchLimits  # noqa: E402

EVALUATIONS = ("classic", "network")


def measure(engine: BuiltinEngine, fen: str, limits: SearchLimits) -> tuple[int, int, float, float]:
    """(depth, nodes, wall seconds, CPU seconds of this thread) of one search from a new game."""
    engine.new_game()
    infos: list[SearchInfo] = []
    wall, cpu = time.perf_counter(), time.thread_time()
    engine.search(Board(fen), limits, threading.Event(), infos.append)
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    return infos[-1].depth or 0, max(info.nodes or 0 for info in infos), wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per search (default 1)")
    parser.add_argument("--depth", type=int, default=None, help="search to this depth instead of a time")
    parser.add_argument("--eval-file", default="", help="the network file (default: the shipped one)")
    parser.add_argument("--positions", type=int, default=len(SUITE), help="the first N suite positions")
    args = parser.parse_args()
    engines = {}
    for evaluation in EVALUATIONS:
        engine = BuiltinEngine()
        apply_option(engine, "EvalFile", args.eval_file)
        apply_option(engine, "Eval", evaluation)
        engine.warm_up()
        engines[evaluation] = engine
    limits = SearchLimits(depth=args.depth) if args.depth else SearchLimits(movetime=args.movetime)
    print(f"{'depth ' + str(args.depth) if args.depth else f'{args.movetime:g} s'} per position, "
          f"classic | network")
    print(f"{'#':>2} {'kind':<10} {'depth':>11} {'nodes':>21} {'nodes/s wall':>19} {'nodes/s CPU':>19} {'CPU s':>13}")
    rows: dict[str, list[tuple[int, int, float, float]]] = {evaluation: [] for evaluation in EVALUATIONS}
    for number, (kind, fen) in enumerate(SUITE[:args.positions], start=1):
        for evaluation in EVALUATIONS:
            rows[evaluation].append(measure(engines[evaluation], fen, limits))
        c, n = rows["classic"][-1], rows["network"][-1]
        print(f"{number:>2} {kind:<10} {c[0]:>5} {n[0]:>5} {c[1]:>10,} {n[1]:>10,} {c[1] / c[2]:>9,.0f} "
              f"{n[1] / n[2]:>9,.0f} {c[1] / max(c[3], 1e-9):>9,.0f} {n[1] / max(n[3], 1e-9):>9,.0f} "
              f"{c[3]:>6.2f} {n[3]:>6.2f}", flush=True)
    for evaluation in EVALUATIONS:
        data = rows[evaluation]
        print(f"{evaluation:<8} median depth {statistics.median(r[0] for r in data):g}, "
              f"median nodes/s {statistics.median(r[1] / r[2] for r in data):,.0f} (wall) "
              f"{statistics.median(r[1] / max(r[3], 1e-9) for r in data):,.0f} (CPU), "
              f"total nodes {sum(r[1] for r in data):,}, total CPU {sum(r[3] for r in data):.1f} s")
    ratio = statistics.median((n[1] / max(n[3], 1e-9)) / (c[1] / max(c[3], 1e-9))
                              for c, n in zip(rows["classic"], rows["network"]))
    print(f"network / classic nodes per CPU second, median over positions: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
