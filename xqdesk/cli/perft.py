"""``xqdesk perft --fen FEN --depth N [--divide]``: leaf counts of the legal move tree.

The last line printed is the node count alone, so scripts can read it with ``tail -n 1``.
"""
from __future__ import annotations

import argparse
import sys
import time

from xqdesk.board import Board
from xqdesk.cli import report_error
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fen", default=STARTING_FEN, help="position (default: the start position)")
    parser.add_argument("--depth", type=int, required=True, help="plies to search (1 or more)")
    parser.add_argument("--divide", action="store_true", help="print the count below each root move")


def run(args: argparse.Namespace) -> int:
    if args.depth < 1:
        report_error(f"--depth must be 1 or more, got {args.depth}", "perft")
        return 2
    try:
        board = Board(args.fen)
    except InvalidFenError as error:
        report_error(str(error), "perft")
        return 2
    started = time.perf_counter()
    if args.divide:
        total = 0
        for move in sorted(board.legal_moves, key=lambda m: m.iccs()):
            board.push(move)
            count = board.perft(args.depth - 1)
            board.pop()
            total += count
            print(f"{move.iccs()}: {count}")
    else:
        total = board.perft(args.depth)
    elapsed = time.perf_counter() - started
    print(f"depth {args.depth}: {total} nodes in {elapsed:.3f} s", file=sys.stderr)
    print(total)
    return 0
