"""Wall time of batch work on Ray with 1 and with 2 workers (``pip install 'xqdesk[cluster]'``).

Run: ``python bench/cluster.py [--games N] [--depth D]``. Starts a local Ray with ``num_cpus=1``,
reviews N master games (their first 16 plies) with the built-in engine at depth D as Ray tasks
(one task per game, each starting its own engine process), shuts Ray down, and does the same with
``num_cpus=2``; then prints both wall times and the speed-up. Ray's own start-up is timed apart.
On a machine with two cores shared with other work the speed-up stays under 2.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import ray

from xqdesk.engines.analysis.annotate import AnnotateJob, annotate_job
from xqdesk.engines.analysis.reviewer import review_limits
from xqdesk.engines.contests.cluster import run_tasks
from xqdesk.engines.spec import parse_spec
from xqdesk.formats import read_games
from xqdesk.formats.pgn import format_pgn
from xqdesk.game import Game

MASTER = Path(__file__).resolve().parent.parent / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def jobs(count: int, depth: int) -> list[AnnotateJob]:
    spec, limits = parse_spec("builtin"), review_limits(depth=depth)
    games = [Game.from_moves(game.mainline_moves()[:16], headers=dict(game.headers))
             for game in read_games(MASTER).games[:count]]
    return [AnnotateJob(index, Path("unused.pgn"), f"game {index + 1}", format_pgn(game), spec, limits)
            for index, game in enumerate(games)]


def timed_run(workers: int, work: list[AnnotateJob]) -> tuple[float, float]:
    """(Ray start-up seconds, wall seconds of the tasks) with ``workers`` CPUs."""
    started = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    ready = time.perf_counter()
    try:
        results = run_tasks(ray, annotate_job, work)
        finished = time.perf_counter()
    finally:
        ray.shutdown()
    failed = [result.error for result in results if result.error]
    if failed:
        raise SystemExit(f"reviews failed: {failed}")
    return ready - started, finished - ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    work = jobs(args.games, args.depth)
    times = {}
    for workers in (1, 2):
        startup, wall = timed_run(workers, work)
        times[workers] = wall
        print(f"{workers} worker(s): {len(work)} games x 17 positions at depth {args.depth}: "
              f"{wall:.1f} s wall ({startup:.1f} s Ray start-up apart)", flush=True)
    print(f"speed-up with 2 workers: {times[1] / times[2]:.2f}x")


if __name__ == "__main__":
    main()
