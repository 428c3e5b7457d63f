"""Reading speed of the PGN reader: games per second on the 1,391-game master file (ICCS moves,
every move checked for legality), and on the Chinese-notation file of the notation_15 set.

    python bench/read_pgn.py [--repeat N] [PGN ...]

Target: 1,000 games in well under two seconds. On a busy machine the CPU time is the steadier
figure.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from xqdesk.formats.pgn import read_pgn

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "games"
DEFAULT_FILES = (DATA / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn", DATA / "notation_15" / "chinese.pgn")


def measure(path: Path, repeat: int) -> None:
    timings, cpu_timings = [], []
    game_file = None
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        game_file = read_pgn(path)
        timings.append(time.perf_counter() - started)
        cpu_timings.append(time.process_time() - cpu_started)
    games = len(game_file.games)
    plies = sum(len(game) for game in game_file.games)
    best, median = min(timings), statistics.median(timings)
    print(f"{path.name}: {games} games, {plies} plies, {len(game_file.errors)} errors")
    print(f"  best {best:.3f} s, median {median:.3f} s over {repeat} runs "
          f"(CPU time: best {min(cpu_timings):.3f} s, median {statistics.median(cpu_timings):.3f} s)")
    print(f"  {games / median:,.0f} games/s, {plies / median:,.0f} plies/s, "
          f"{1000 * median / max(games, 1):.3f} s per 1,000 games (median)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=list(DEFAULT_FILES))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for path in args.files:
        if path.is_file():
            measure(path, args.repeat)
        else:
            print(f"{path}: not found")


if __name__ == "__main__":
    main()
