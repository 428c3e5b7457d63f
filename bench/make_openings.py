"""Write the balanced opening set of the strength benchmarks (``bench/openings.fen``).

    python bench/make_openings.py [--plies 8] [--count 60] [--nodes 300000] [--margin 50]

Positions after ``--plies`` plies of the master games in ``tests/data`` (the 1,391-game file),
each position once, kept when the built-in engine's search of ``--nodes`` nodes scores it within
``--margin`` centipawns of equal; the first ``--count`` in file order are written, one FEN a line
with the game it came from as a comment.
"""
from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.search_types import SearchInfo, SearchLimits  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402

GAMES = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
OUT = Path(__file__).resolve().parent / "openings.fen"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--margin", type=int, default=50)
    args = parser.parse_args()
    engine = BuiltinEngine()
    seen: set[str] = set()
    lines = [f"# {args.count} balanced openings: master games after {args.plies} plies, |score| <= "
             f"{args.margin} cp at {args.nodes} nodes (python bench/make_openings.py)"]
    for number, game in enumerate(read_games(GAMES).games, 1):
        board = game.board()
        moves = list(game.mainline_moves())
        if len(moves) <= args.plies + 20:
            continue
        for move in moves[:args.plies]:
            board.push(move)
        fen = board.fen()
        placement = fen.split()[0] + fen.split()[1]
        if placement in seen:
            continue
        seen.add(placement)
        infos: list[SearchInfo] = []
        engine.new_game()
        engine.search(board.copy(), SearchLimits(nodes=args.nodes), threading.Event(), infos.append)
        scores = [info.score.relative.score() for info in infos if info.score is not None]
        if not scores or scores[-1] is None or abs(scores[-1]) > args.margin:
            continue
        lines.append(f"{fen}  # game {number}, score {scores[-1]:+d}")
        print(lines[-1], flush=True)
        if len(lines) > args.count:
            break
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} openings to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
