"""The shipped opening book's size and look-up time: loading it, and probing every position of
the first plies of some book lines (the positions a game's opening visits).

    python bench/book.py            # prints the file's size, its load time and probe times
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xqdesk.board import Board  # noqa: E402
from xqdesk.opening_book import SHIPPED_BOOK, CompactBook  # noqa: E402
from xqdesk.resource_files import resource  # noqa: E402

LINES, PLIES = 200, 30


def main() -> None:
    path = resource(SHIPPED_BOOK)
    size = len(path.read_bytes())
    started = time.perf_counter()
    book = CompactBook.load(Path(str(path)))
    load_ms = (time.perf_counter() - started) * 1000
    print(f"{SHIPPED_BOOK}: {size / 1e6:.2f} MB, {len(book)} moves in {book.position_count()} positions, "
          f"loaded in {load_ms:.0f} ms")
    rng = random.Random(1)
    times: list[float] = []
    for _line in range(LINES):
        board = Board()
        for _ply in range(PLIES):
            started = time.perf_counter()
            moves = book.moves(board)
            times.append((time.perf_counter() - started) * 1000)
            if not moves:
                break
            board.push(rng.choices([stat.move for stat in moves], weights=[stat.games for stat in moves])[0])
    times.sort()
    print(f"{len(times)} probes along {LINES} random book lines: median {statistics.median(times):.3f} ms, "
          f"95th percentile {times[int(0.95 * len(times))]:.3f} ms, max {times[-1]:.3f} ms")


if __name__ == "__main__":
    main()
