"""How much of a move time the built-in engine uses, as the referee measures it: prints figures,
asserts nothing.

    python bench/time_use.py [--movetime 0.1 0.3 1] [--positions 12] [--engine builtin]

The engine runs in its own host process, as in a match; each position of ``bench/search.py``'s
suite is searched with ``go movetime`` and the reply's time is taken as the referee takes it (from
``go`` to ``bestmove``). Prints, per move time, the shortest, median and longest reply as a share
of the move time, and how many replies came after it (a referee that enforced exactly the move
time would score those as losses on time; xqdesk's referee tells an engine 10% less than the clock
it enforces, see :func:`xqdesk.engines.play.game_runner.engine_budget`).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from search import SUITE  # noqa: E402

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.play.engine_player import EnginePlayer  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import parse_spec  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--movetime", type=float, nargs="+", default=[0.1, 0.3, 1.0])
    parser.add_argument("--positions", type=int, default=12, help="the first N positions of the suite")
    parser.add_argument("--engine", default="builtin", help="an engine spec (default: builtin)")
    args = parser.parse_args()
    fens = [fen for _kind, fen in SUITE[:args.positions]]
    player = EnginePlayer(parse_spec(args.engine), None, handshake_timeout=600)
    player.start()
    try:
        for movetime in args.movetime:
            shares = []
            for fen in fens:
                reply = player.request_move(Board(fen), movetime + 10, SearchLimits(movetime=movetime))
                if reply.move is None:
                    print(f"{fen}: no move ({reply.error or 'timed out' if reply.timed_out else reply.error})")
                    continue
                shares.append(reply.elapsed / movetime)
            late = sum(share > 1 for share in shares)
            print(f"movetime {movetime:g} s, {len(shares)} moves: used {min(shares):.1%} / "
                  f"{statistics.median(shares):.1%} / {max(shares):.1%} (shortest / median / longest) "
                  f"of it; {late} after it")
    finally:
        player.close()


if __name__ == "__main__":
    main()
