"""The strength ladder (SigmaZero's protocol): where an engine stands among reference opponents.

    python bench/ladder.py --engine SPEC [--movetime 1] [--engine-movetime S] [--rungs random greedy …] [--keep-going]
        [--all-games] [--games 5]

Rungs, weakest first: ``random``, ``greedy``, ``minimax`` (``bench/minimax_student``, a course player
searching three plies on material), Fairy-Stockfish at ``Skill Level`` −20 … 20 in steps of 5
(``fsf:N``), and xqdesk's ``builtin`` engine at levels 5, 10, 15 and 20 (``builtin:Level=N``). To
place an engine at a fixed search size, as SigmaZero did at 800 simulations, give the size in its
spec and a generous ``--engine-movetime`` (``--engine zero:Simulations=800 --engine-movetime 9``):
the rungs keep ``--movetime``. Against each rung the engine plays a best of 5 — colours
alternating, the engine Red in the first game, each pair of games from one of the master openings
of ``bench/strength.py`` — and stops early once the rung is decided (``--all-games`` plays all five,
for a score out of 5); it passes the rung with
2.5 points or more (win 1, draw ½) and climbs to the next, else the climb ends (``--keep-going``
plays every rung anyway). ``--games N`` makes a rung N games (passed with half the points), for a
measurement rather than a verdict: five games cannot tell a 60% engine from a 40% one. Every game
goes through the real referee with both sides as engine processes, each told its seconds a move
under the course's 10 s clock.

Prints one line per game (with ``--verbose``), then the table (rung, games, score, passed) and the
highest rung passed.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from strength import FAIRY_STOCKFISH, OPENINGS, opponent_spec  # noqa: E402

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.contests.elo import Tally, elo_difference  # noqa: E402
from xqdesk.engines.contests.match import game_score  # noqa: E402
from xqdesk.engines.play.engine_player import EnginePlayer  # noqa: E402
from xqdesk.engines.play.referee import play_game  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import parse_spec  # noqa: E402
from xqdesk.outcome import Termination  # noqa: E402
from xqdesk.pieces import BLACK, RED  # noqa: E402

RUNGS = ["random", "greedy", "minimax", *(f"fsf:{skill}" for skill in range(-20, 21, 5)),
         *(f"builtin:Level={level}" for level in (5, 10, 15, 20))]
GAMES = 5


def play_rung(engine_spec: str, rung: str, args: argparse.Namespace) -> tuple[int, int, int, str]:
    """(wins, draws, losses, notes) of the engine against ``rung``, best of ``args.games``, stopped
    when decided (unless ``args.all_games``)."""
    engine_limits = SearchLimits(movetime=args.engine_movetime or args.movetime)
    engine = EnginePlayer(parse_spec(engine_spec), engine_limits)
    opponent = EnginePlayer(opponent_spec(rung, args), SearchLimits(movetime=args.movetime))
    result = Tally()
    faults = []
    try:
        engine.start()
        opponent.start()
        for game in range(args.games):
            left = args.games - game
            if not args.all_games and (result.points >= args.games / 2 or result.points + left < args.games / 2):
                break
            colour = RED if game % 2 == 0 else BLACK
            red, black = (engine, opponent) if colour == RED else (opponent, engine)
            record = play_game(red, black, board=Board(OPENINGS[(game // 2) % len(OPENINGS)]))
            outcome = record.outcome
            score = game_score(outcome, colour)
            result = result.counted(0.5 if score is None else score)  # an unfinished game counts as drawn
            if outcome.winner not in (None, colour) and outcome.termination in (Termination.ILLEGAL_MOVE,
                                                                                  Termination.TIMEOUT):
                faults.append(outcome.termination.value)
            if args.verbose:
                print(f"  {rung} game {game + 1}: engine {'red' if colour == RED else 'black'}, "
                      f"{len(record.moves)} plies: {outcome.text}", flush=True)
    finally:
        engine.close()
        opponent.close()
    return result.wins, result.draws, result.losses, ", ".join(faults)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the engine SPEC to place, e.g. mcts or zero")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move for both sides (default 1)")
    parser.add_argument("--engine-movetime", type=float, default=None, metavar="S",
                        help="seconds per move for the engine placed (default: --movetime); with a fixed "
                             "search size in its spec, the most it may take")
    parser.add_argument("--rungs", nargs="+", default=RUNGS, metavar="RUNG", help="the rungs to climb, in order")
    parser.add_argument("--keep-going", action="store_true", help="play every rung, even after a failed one")
    parser.add_argument("--all-games", action="store_true",
                        help="play all the games of a rung, even once it is decided")
    parser.add_argument("--games", type=int, default=GAMES, metavar="N",
                        help=f"games a rung (default {GAMES}); the engine passes it with half the points")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH, help="the Fairy-Stockfish executable")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    engine_time = f", the engine {args.engine_movetime:g} s" if args.engine_movetime else ""
    print(f"ladder for {args.engine}: best of {args.games}, pass at {args.games / 2:g} points, "
          f"{args.movetime:g} s a move{engine_time}", flush=True)
    rows = []
    for rung in args.rungs:
        started = time.monotonic()
        wins, draws, losses, faults = play_rung(args.engine, rung, args)
        points = wins + 0.5 * draws
        passed = points >= args.games / 2
        rows.append((rung, wins, draws, losses, points, passed, faults, time.monotonic() - started))
        print(f"{rung:<16} +{wins} ={draws} -{losses}  {points:g} points  {'passed' if passed else 'failed'}  "
              f"{elo_difference(wins, draws, losses)}"
              f"{'  (' + faults + ')' if faults else ''}  ({time.monotonic() - started:.0f} s)", flush=True)
        if not passed and not args.keep_going:
            break
    print()
    print("| rung | games (W-D-L) | score | passed |")
    print("|---|---|---|---|")
    for rung, wins, draws, losses, points, passed, _faults, _ in rows:
        print(f"| {rung} | {wins}-{draws}-{losses} | {points:g} | {'yes' if passed else 'no'} |")
    climbed = [row[0] for row in rows]
    passed_in_order = []
    for row in rows:
        if not row[5]:
            break
        passed_in_order.append(row[0])
    print(f"highest rung passed: {passed_in_order[-1] if passed_in_order else 'none'} "
          f"(rungs played: {', '.join(climbed)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
