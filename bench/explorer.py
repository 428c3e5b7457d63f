"""Position index speed: build rate (games per second) and look-up time, on the master games.

    python bench/explorer.py [--positions N] [--window] [RECORD ...]

Builds a fresh index in a temporary folder from the records (default: the 1,391 master games of
``tests/data``), timing the reading of the files alone and the whole build; then asks the index
for N positions (default 2,000) taken from the indexed games themselves — the moves played there
and the games that reached them, what the explorer pane asks per position — and prints the
median, 95th percentile and worst look-up time, and the index's size on disk. With ``--window``,
the longest master game is also replayed in the window at one move every 10 ms with the explorer
pane following it, and the longest event-loop stall is printed (as ``bench/ui_latency.py`` measures
it; target under 50 ms).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
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


def measure_window(database: Path) -> None:
    """Replay the longest master game in the window with the explorer on, timing event-loop stalls."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    spec = importlib.util.spec_from_file_location("ui_latency", Path(__file__).with_name("ui_latency.py"))
    if spec is None or spec.loader is None:
        raise FileNotFoundError("bench/ui_latency.py")
    latency = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(latency)
    from xqdesk.ui.app import ensure_application
    from xqdesk.ui.base.settings import open_store
    from xqdesk.ui.main_window import MainWindow

    app = ensure_application()
    with tempfile.TemporaryDirectory() as scratch:
        window = MainWindow(settings_store=open_store(scratch + "/s.ini"), autosave_path=scratch + "/a.pgn")
        window.resize(1280, 820)
        window.show()
        answers = []
        window.explorer_panel.worker.looked_up.connect(answers.append)
        try:
            game = max(read_games(DEFAULT_RECORDS[0]).games, key=len)
            window.explorer.set_database(str(database))
            window.controller.load_game(game)
            latency.run_until(lambda: not window.explorer_panel.is_looking_up(), 10)
            meter = latency.StallMeter()
            meter.start()
            window.controller.start_autoplay(0.01)
            latency.run_until(lambda: window.controller.at_end() and not window.explorer_panel.is_looking_up(), 120)
            stall = meter.stop()
            print(f"window: longest stall {stall:.1f} ms replaying {len(game)} plies every 10 ms with the explorer "
                  f"on ({len(answers)} look-ups answered; target < 50 ms)")
        finally:
            window.shutdown()
    del app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", type=Path, default=list(DEFAULT_RECORDS))
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--window", action="store_true", help="also time the window replaying a game")
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
        if args.window:
            measure_window(database)


if __name__ == "__main__":
    main()
