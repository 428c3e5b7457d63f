"""Simulations per second of the ``zero`` engine at play time, per network: 800-simulation
searches (a fresh tree each) from positions of a master game, on this process's one core.

    python bench/zero_speed.py [--network FILE…] [--simulations 800] [--positions 8] [--mirror]

Prints, per network, simulations per CPU second (what one free core gives) and per wall second
(what this machine gave, busy or not), and the CPU seconds of one search: the course's 10 s clock
holds 800 simulations when that is well under 10 s on the slowest machine it is played on.
``--mirror`` measures the engine with ``Mirror=true`` (each leaf read both ways, see its option).
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.zero.engine import ZeroEngine  # noqa: E402
from xqdesk.engines.zero.network import Network  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402

GAME = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", nargs="+", default=[""], help="network files (default: the shipped one)")
    parser.add_argument("--simulations", type=int, default=800)
    parser.add_argument("--positions", type=int, default=8, help="positions: plies 0, 10, 20 … of the game")
    parser.add_argument("--mirror", action="store_true", help="read each leaf both ways (Mirror=true)")
    args = parser.parse_args()
    boards = list(read_games(GAME).games[3].boards())[0:10 * args.positions:10]
    for name in args.network:
        engine = ZeroEngine(Network.load(name) if name else None)
        engine.simulations = args.simulations
        engine.mirror = args.mirror
        engine.warm_up()
        cpu = wall = 0.0
        for board in boards:
            engine.new_game()
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            engine.search(board, SearchLimits(nodes=args.simulations), threading.Event(), lambda info: None)
            cpu += time.process_time() - cpu_start
            wall += time.perf_counter() - wall_start
        done = args.simulations * len(boards)
        print(f"{name or 'shipped'}: {done / cpu:.0f} simulations per CPU second, {done / wall:.0f} per wall "
              f"second here; {cpu / len(boards):.2f} CPU s per {args.simulations}-simulation search "
              f"({len(boards)} positions)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
