"""Built-in engine strength: short matches against reference opponents; prints figures only.

    python bench/strength.py [--movetime 1] [--games 4] [--opponents random greedy minimax fsf:-20 fsf:0 …]

Every game runs through the real referee (:func:`xqdesk.engines.referee.play_game`) with both sides
as engine processes, told ``--movetime`` seconds per move and judged on the course's clock
(``--clock``, default the course's 10 s; pass ``--clock`` equal to ``--movetime`` for a strict
test). Games come in pairs from the same start position with colours swapped; the positions are
master-game openings after three moves each, so games differ. Opponents:

- ``random`` and ``greedy``: xqdesk's baseline engines;
- ``minimax``: ``bench/minimax_student``, a course player searching three plies on material;
- ``fsf:N``: Fairy-Stockfish at ``Skill Level`` N (−20 … 20), with the same time per move;
- any engine SPEC starting ``uci:``, ``player:`` or ``builtin:`` (e.g. an older build of the
  built-in engine behind a small launcher script, to measure a change).

For each opponent it prints wins/draws/losses of the built-in engine, its score, the Elo
difference with its 95% interval, its illegal moves and time losses, and its slowest move.
The machine's cores are shared, so the figures carry that noise; keep runs short.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.elo import elo_difference  # noqa: E402
from xqdesk.engines.engine_player import EnginePlayer  # noqa: E402
from xqdesk.engines.referee import play_game  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import parse_spec  # noqa: E402
from xqdesk.outcome import Termination  # noqa: E402
from xqdesk.pieces import BLACK, RED  # noqa: E402

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
OPENINGS = [
    "1rbakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1B2C1/9/1R1AKABNR w - - 6 4",
    "rnbakabr1/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 6 4",
    "rnbakab2/8r/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "rnbakab1r/9/1c1c2n2/p1p1p3p/6p2/9/P1P1P1P1P/1C2B1NC1/9/RNBAKA1R1 w - - 6 4",
    "r1bakab1r/9/1cn2cn2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "1rbakabnr/9/2nc3c1/p1p1p1p1p/9/6P2/P1P1P3P/1C2B2C1/R8/1NBAKA1NR w - - 6 4",
    "rnbakabr1/9/4c1nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
]
DEFAULT_OPPONENTS = ["random", "greedy", "minimax", "fsf:-20", "fsf:-10", "fsf:0", "fsf:5", "fsf:10"]


def opponent_spec(name: str, fairy_stockfish: str) -> str:
    if name in ("random", "greedy"):
        return name
    if name == "minimax":
        return f"player:{ROOT / 'bench' / 'minimax_student'}"
    if name.startswith("fsf:"):
        return f"uci:{fairy_stockfish}:Skill Level={int(name[4:])},Threads=1,Hash=16"
    if name.startswith(("uci:", "player:", "builtin:")):
        return name
    raise SystemExit(f"unknown opponent {name!r}: expected random, greedy, minimax, fsf:LEVEL or an engine SPEC")


def play_match(name: str, args: argparse.Namespace) -> None:
    limits = SearchLimits(movetime=args.movetime)
    builtin = EnginePlayer(parse_spec("builtin"), limits)
    opponent = EnginePlayer(parse_spec(opponent_spec(name, args.fairy_stockfish)), limits)
    wins = draws = losses = illegal = timeouts = 0
    slowest = 0.0
    started = time.monotonic()
    try:
        builtin.start()
        opponent.start()
        for game in range(args.games):
            builtin_colour = RED if game % 2 == 0 else BLACK
            red, black = (builtin, opponent) if builtin_colour == RED else (opponent, builtin)
            start = Board(OPENINGS[(game // 2) % len(OPENINGS)])
            record = play_game(red, black, move_time_limit=args.clock, board=start)
            outcome = record.outcome
            first_own_ply = 0 if builtin_colour == start.turn else 1
            own_times = record.move_times[first_own_ply::2]
            slowest = max([slowest, *own_times])
            if outcome.winner is None:
                draws += 1
            elif outcome.winner == builtin_colour:
                wins += 1
            else:
                losses += 1
                illegal += outcome.termination == Termination.ILLEGAL_MOVE
                timeouts += outcome.termination == Termination.TIMEOUT
            if args.verbose:
                print(f"  game {game + 1}: builtin {'red' if builtin_colour == RED else 'black'}, "
                      f"{len(record.moves)} plies: {outcome.text}", flush=True)
    finally:
        builtin.close()
        opponent.close()
    games = wins + draws + losses
    score = (wins + 0.5 * draws) / games if games else 0.0
    print(f"{name:<9} +{wins} ={draws} -{losses}  score {100 * score:5.1f}%  {elo_difference(wins, draws, losses)}"
          f"  illegal {illegal} timeouts {timeouts}  slowest move {slowest:.2f} s  ({time.monotonic() - started:.0f} s)",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move for both sides (default 1)")
    parser.add_argument("--clock", type=float, default=None,
                        help="the referee's move clock in seconds (default: the course's 10)")
    parser.add_argument("--games", type=int, default=4, help="games per opponent, colours alternating (default 4)")
    parser.add_argument("--opponents", nargs="+", default=DEFAULT_OPPONENTS, metavar="NAME")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH, help="the Fairy-Stockfish executable")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    args = parser.parse_args()
    print(f"built-in engine vs opponents, {args.movetime:g} s per move, {args.games} games each, "
          f"referee clock {args.clock or 10:g} s")
    for name in args.opponents:
        play_match(name, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
