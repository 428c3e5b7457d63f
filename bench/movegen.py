"""Legal moves generated per second by the core board (perft with bulk counting at the leaves).

Run: ``python bench/movegen.py``. Prints one line per position and a total; the target for the
core is 300,000 legal moves per second on a 2-core machine.
"""
from __future__ import annotations

import time

from xqdesk import Board
from xqdesk.fen import STARTING_FEN

POSITIONS = [
    ("start position", STARTING_FEN, 4),
    ("middlegame, central cannons", "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1", 4),
    ("middlegame, open files", "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P3P1P/2N1C1N2/4A4/2B1KAB2 w - - 0 1", 4),
    ("middlegame, rooks out", "1rbakab2/9/2n3nc1/p1p1p1p1p/1c7/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 0 1", 4),
    ("endgame", "3k5/4a4/4ba3/p3C4/9/2B6/P3c3P/4B4/4A4/3AK4 b - - 0 1", 4),
]


def main() -> None:
    total_nodes, total_seconds = 0, 0.0
    for name, fen, depth in POSITIONS:
        board = Board(fen)
        started = time.perf_counter()
        nodes = board.perft(depth)
        seconds = time.perf_counter() - started
        total_nodes += nodes
        total_seconds += seconds
        print(f"{name:30s} depth {depth}: {nodes:>9,} moves in {seconds:6.2f} s = {nodes / seconds:>11,.0f} moves/s")
    print(f"{'total':30s}          {total_nodes:>9,} moves in {total_seconds:6.2f} s = "
          f"{total_nodes / total_seconds:>11,.0f} legal moves/s (target 300,000)")


if __name__ == "__main__":
    main()
