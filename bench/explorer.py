"""Position index speed: build rate (games per second) and look-up time, on the master games.

    python bench/explorer.py [--positions N] [RECORD ...]

Builds a fresh index in a temporary folder from the records (default: the 1,391 master games of
``tests/data``), timing the reading of the files alone and the whole build; then asks the index
for N positions (default 2,000) taken from the indexed games themselves — the moves played there
and the games that reached them, what the explorer pane asks per position — and prints the
median, 95th percentile and worst look-up time, and the index's size on disk.
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from xqdesk.board import Board
from xqdesk.formats import read_games
from xqdesk.position_index import PositionIndex, record_paths

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "games"
DEFAULT_RECORDS = (DATA / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn",)


def sample_positions(records: list[Path], count: int, seed: int = 1) -> list[Board]:
    """``count`` positions of the records' games, drawn at random (repeatably)."""
    games = [game for record in records for path in record_paths(record) for game in read_games(path).games]
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        game = rng.choice(games)
        boards.append(game.board_at(rng.randint(0, min(len(game), 40))))  # the opening, where explorers are used
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", type=Path, default=list(DEFAULT_RECORDS))
    parser.add_argument("--positions", type=int, default=2000)
    args = parser.parse_args()

    started = time.perf_counter()
    games_read = sum(len(read_games(path).games) for record in args.records for path in record_paths(record))
    reading = time.perf_counter() - started

    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.xqdb"
        started, cpu_started = time.perf_counter(), time.process_time()
        with PositionIndex(database) as index:
            report = index.add(args.records)
        building, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        size = database.stat().st_size
        print(f"records: {', '.join(path.name for path in args.records)}")
        print(f"reading the files alone: {games_read} games in {reading:.2f} s ({games_read / reading:,.0f} games/s)")
        print(f"building the index: {report.games} games, {report.positions:,} positions in {building:.2f} s "
              f"(CPU {cpu:.2f} s): {report.games / building:,.0f} games/s, {report.positions / building:,.0f} "
              f"positions/s; {size / 1e6:.1f} MB on disk")

        boards = sample_positions(args.records, args.positions)
        timings = []
        with PositionIndex(database) as index:
            for board in boards:
                started = time.perf_counter()
                index.moves(board)
                index.games(board, 200)
                index.reached_count(board)
                timings.append(time.perf_counter() - started)
        timings.sort()
        p95 = timings[int(0.95 * (len(timings) - 1))]
        print(f"look-ups of {len(timings)} positions (moves, games, count): median "
              f"{1000 * statistics.median(timings):.2f} ms, 95th percentile {1000 * p95:.2f} ms, "
              f"worst {1000 * timings[-1]:.2f} ms")


if __name__ == "__main__":
    main()
