"""How fast moves are written and read in each notation, on 1,000 real master games.

Replays the first 1,000 games of the ICCS master collection in tests/data; for each notation it times writing
every move (``format_move``) and reading the text back (``parse_move`` + ``push``, which is what a
PGN reader does), and prints moves per second and the seconds taken. Times are CPU seconds of
this process, so that other work on the machine disturbs them less.

    python bench/notation.py [--games N]
"""
from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move, parse_move
from xqdesk.ruleset import Ruleset

COLLECTION = Path(__file__).resolve().parents[1] / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
RECORD_RULES = Ruleset(name="records", perpetual_check_limit=0)
_ICCS_TOKEN = re.compile(r"\b[a-i][0-9][a-i][0-9]\b")


def load_games(count: int) -> list[list[Move]]:
    """The moves of the first ``count`` games of the collection."""
    text = COLLECTION.read_text(encoding="utf-8")
    blocks = [block for block in re.split(r"\n(?=\[Event )", text) if block.strip()][:count]
    return [[Move.from_iccs(token) for token in _ICCS_TOKEN.findall(block.split("\n\n", 1)[-1])]
            for block in blocks]


def write_all(games: list[list[Move]], notation: Notation) -> tuple[list[list[str]], float]:
    """Every move written in ``notation``, and the seconds spent in ``format_move``."""
    texts, spent = [], 0.0
    for moves in games:
        board = Board(ruleset=RECORD_RULES)
        line = []
        for move in moves:
            start = time.process_time()
            line.append(format_move(board, move, notation))
            spent += time.process_time() - start
            board.push(move)
        texts.append(line)
    return texts, spent


def read_all(texts: list[list[str]], notation: Notation | None) -> float:
    """Seconds to read every text back and play it, as a PGN reader does."""
    start = time.process_time()
    for line in texts:
        board = Board(ruleset=RECORD_RULES)
        for text in line:
            board.push(parse_move(board, text, notation))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    games = load_games(args.games)
    total = sum(len(moves) for moves in games)
    print(f"{len(games)} games, {total} moves")
    for notation in Notation:
        texts, writing = write_all(games, notation)
        reading = read_all(texts, notation)
        guessing = read_all(texts, None) if notation is not Notation.UCI else None
        line = (f"{notation.value:8} write {total / writing:>9,.0f} moves/s   "
                f"read+play {total / reading:>9,.0f} moves/s ({reading:.2f} s)")
        if guessing is not None:
            line += f"   read+play, notation guessed {guessing:.2f} s"
        print(line)


if __name__ == "__main__":
    main()
