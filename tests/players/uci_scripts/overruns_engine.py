#!/usr/bin/env python3
"""A UCI engine that answers every ``go movetime T`` 0.15 s after T (a first legal move, on
xqdesk's own board): an engine whose time keeping is a little late, as a loaded machine makes a
real one."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from xqdesk.board import Board  # noqa: E402
from xqdesk.fen import STARTING_FEN  # noqa: E402

LATE = 0.15


def main() -> None:
    board = Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Overruns\nid author xqdesk tests\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            fen_words = words[2:words.index("moves")] if "moves" in words else words[2:]
            board = Board(STARTING_FEN if words[1] == "startpos" else " ".join(fen_words))
            for move in moves:
                board.push_iccs(move)
        elif words[0] == "go":
            movetime = int(words[words.index("movetime") + 1]) / 1000 if "movetime" in words else 1.0
            time.sleep(movetime + LATE)
            print(f"bestmove {next(iter(board.legal_moves)).iccs()}", flush=True)
        elif words[0] == "quit":
            break


main()
