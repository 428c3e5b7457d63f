"""Engine strength: referee-judged matches against reference opponents; prints figures only.

    python bench/strength.py [--engine builtin] [--movetime 1 | --nodes N] [--games 4] [--jobs 1]
        [--opponents random greedy minimax fsf:-20 fsf:0 eleeye rev:HEAD~1 …] [--openings FILE]
        [--sprt elo0=0 elo1=10 [alpha=0.05] [beta=0.05]] [--draw …] [--resign …] [--pgn DIR] [--verbose]

A thin caller of ``xqdesk match``'s machinery (:class:`xqdesk.engines.contests.match.MatchRunner`): every
game goes through the real referee with both sides as engine processes, told ``--movetime``
seconds per move (or ``--nodes`` nodes, which does not depend on the machine's load) and judged
on the course's clock (``--clock``, default 10 s). Games come in pairs from the same opening with
colours swapped; the openings are ``bench/openings.fen`` (balanced master-game positions after
eight plies, see ``bench/make_openings.py``), taken in order. ``--jobs N`` plays N games at once
(on a 2-core machine, 2 jobs keep both cores busy since the two engines of a game think in turn).
``--sprt`` ends each match at the test's verdict (``--games`` is then the most games to play,
0 for no limit); ``--draw`` and ``--resign`` adjudicate games from the engines' scores as
``xqdesk match`` does. The same matches from the command line::

    xqdesk match --red builtin --black greedy --openings bench/openings.fen --games 4 --concurrency 1

Opponents (and ``--engine``, the side under test, default ``builtin``):

- ``random`` and ``greedy``: xqdesk's baseline engines;
- ``minimax``: ``bench/minimax_student``, a course player searching three plies on material;
- ``fsf:N``: Fairy-Stockfish at ``Skill Level`` N (−20 … 20), one thread;
- ``eleeye``: ElephantEye over UCCI, the executable given by ``--eleeye`` or ``XQDESK_ELEEYE``
  (build it from github.com/xqbase/eleeye with the ``g++`` line of ``eleeye/makefile.sh``);
- ``rev:REV[:OPTIONS]``: the built-in engine as it was at git revision REV (``git archive`` into a
  folder of the temporary directory, kept for the next run) — an old build, to measure a change;
- any engine SPEC (``builtin:OPTIONS``, ``uci:PATH``, ``ucci:PATH``, ``player:PATH`` …).

For each opponent it prints the engine's wins/draws/losses, score, Elo difference with its 95%
interval, LOS, the SPRT's verdict when one ran, its illegal moves, time losses and slowest move,
and the mean game length.
"""
from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.cli.match_options import UsageError, parse_adjudication, parse_sprt  # noqa: E402
from xqdesk.cli.match_report import MatchReport, PgnAppender  # noqa: E402
from xqdesk.engines.contests.elo import elo_difference  # noqa: E402
from xqdesk.engines.contests.match import Contestant, MatchRunner, PlayedGame, opening_schedule  # noqa: E402
from xqdesk.engines.contests.sprt import likelihood_of_superiority  # noqa: E402
from xqdesk.engines.play.engine_player import EnginePlayer  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import EngineSpec, host_command, parse_options, parse_spec  # noqa: E402
from xqdesk.formats.openings import opening_sequence, read_openings  # noqa: E402
from xqdesk.outcome import Termination  # noqa: E402
from xqdesk.pieces import RED  # noqa: E402
from xqdesk.ruleset import COURSE  # noqa: E402

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
OPENINGS_FILE = Path(__file__).resolve().parent / "openings.fen"
OPENINGS = [opening.start_fen for opening in read_openings(OPENINGS_FILE)]
"""The start positions of ``bench/openings.fen`` (other benchmarks play from them too)."""
DEFAULT_OPPONENTS = ["random", "greedy", "minimax", "fsf:-20", "fsf:-10", "fsf:0", "fsf:5", "fsf:10"]


def old_build_spec(text: str) -> EngineSpec:
    """``rev:REV[:OPTIONS]``: the built-in engine of git revision REV, unpacked (once per commit)
    into a folder of the system's temporary directory and compiled there before it is used, so its
    compiled code is cached across runs and a busy machine does not make its first start late."""
    rev, _, options = text[4:].partition(":")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                            capture_output=True, text=True).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"xqdesk-build-{commit}"
    env = dict(os.environ, PYTHONPATH=str(folder))
    if not (folder / "xqdesk").is_dir():
        unpacking = Path(tempfile.mkdtemp(prefix=f"xqdesk-build-{commit}-"))
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "xqdesk", "resources"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(unpacking)], input=archive, check=True)
        unpacking.rename(folder)
    # Compile (or load) its kernels now, with no clock running; run in that folder: ``python -m``
    # puts the working directory first on sys.path, so started from a checkout the old build would
    # otherwise import the checkout's xqdesk.
    compile_kernels(folder, env)
    return EngineSpec(f"builtin@{commit}", host_command("builtin"), parse_options(options, text),
                      workdir=str(folder), env=env)


def compile_kernels(folder: Path, env: dict[str, str]) -> None:
    """Import the built-in engine's search in ``folder``, so numba compiles (or loads) it now."""
    subprocess.run([sys.executable, "-c", "import xqdesk.engines.builtin.searcher"], cwd=folder, env=env,
                   check=True)


def opponent_spec(name: str, args: argparse.Namespace) -> EngineSpec:
    if name in ("random", "greedy"):
        return parse_spec(name)
    if name == "minimax":
        return parse_spec(f"player:{ROOT / 'bench' / 'minimax_student'}")
    if name.startswith("fsf:"):
        return replace(parse_spec(f"uci:{args.fairy_stockfish}:Skill Level={int(name[4:])},Threads=1,Hash=16"),
                       name=name)
    if name == "eleeye":
        if not args.eleeye:
            raise SystemExit("eleeye: say where ElephantEye is, with --eleeye PATH or XQDESK_ELEEYE")
        return replace(parse_spec(f"ucci:{args.eleeye}"), name="eleeye")
    if name.startswith("rev:"):
        return old_build_spec(name)
    if name == "builtin" or name.startswith("builtin:"):  # the checkout's kernels, before any clock runs
        compile_kernels(ROOT, dict(os.environ, PYTHONPATH=str(ROOT)))
    return parse_spec(name)


def play_match(engine: EngineSpec, name: str, args: argparse.Namespace) -> None:
    """One match of the engine (contestant 0) against opponent ``name``, then its line of figures."""
    opponent = opponent_spec(name, args)
    limits = SearchLimits(movetime=None if args.nodes else args.movetime, nodes=args.nodes)
    contestants = [Contestant(spec.name, functools.partial(EnginePlayer, spec, limits))
                   for spec in (engine, opponent)]
    pgn = None
    if args.pgn:
        pgn = PgnAppender(Path(args.pgn) / f"{opponent.name.replace(':', '_')}.pgn",
                          f"{engine.name} vs {opponent.name}", COURSE)
    games = args.games or None
    report = MatchReport([engine.name, opponent.name], total=games, quiet=not args.verbose, pgn=pgn,
                         sprt=args.sprt, pentanomial=True, live=False)
    schedule = opening_schedule(opening_sequence(read_openings(args.openings)), games)
    started = time.monotonic()
    with MatchRunner(contestants, concurrency=args.jobs, move_time_limit=args.clock, on_game=report.on_game,
                     on_move=report.on_move, adjudication=args.adjudication) as runner:
        report.runner = runner
        runner.play(schedule)
    if pgn is not None:
        pgn.finish()
    print_figures(opponent.name, report, time.monotonic() - started)


def print_figures(opponent: str, report: MatchReport, seconds: float) -> None:
    results = report.results
    games = results.wins + results.draws + results.losses
    score = (results.wins + 0.5 * results.draws) / games if games else 0.0
    own = [game for game in report.finished if game.record.outcome.winner is not None
           and (game.record.outcome.winner == RED) != (game.scheduled.red == 0)]  # the engine lost these
    illegal = sum(game.record.outcome.termination == Termination.ILLEGAL_MOVE for game in own)
    timeouts = sum(game.record.outcome.termination == Termination.TIMEOUT for game in own)
    slowest = max((max(own_move_times(game), default=0.0) for game in report.finished), default=0.0)
    plies = [len(game.record.moves) for game in report.finished]
    los = likelihood_of_superiority(results.wins, results.losses)
    verdict = f"  {report.sprt_status}" if report.sprt_status is not None else ""
    print(f"{opponent:<10} +{results.wins} ={results.draws} -{results.losses}  score {100 * score:5.1f}%  "
          f"{elo_difference(results.wins, results.draws, results.losses)}  "
          f"LOS {'-' if los is None else f'{100 * los:.1f}%'}  illegal {illegal} timeouts {timeouts}  "
          f"slowest move {slowest:.2f} s  mean {sum(plies) / len(plies) if plies else 0:.0f} plies  "
          f"({seconds:.0f} s){verdict}", flush=True)


def own_move_times(game: PlayedGame) -> tuple[float, ...]:
    """The engine's (contestant 0's) thinking times in a game."""
    opening = game.scheduled.opening
    first_mover_is_red = opening is None or opening.board().turn == RED
    first_is_engine = first_mover_is_red == (game.scheduled.red == 0)
    return game.record.move_times[0 if first_is_engine else 1::2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="builtin", help="the engine under test (default builtin)")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move for both sides (default 1)")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per move instead of a move time")
    parser.add_argument("--clock", type=float, default=None,
                        help="the referee's move clock in seconds (default: the course's 10)")
    parser.add_argument("--games", type=int, default=4,
                        help="games per opponent, colours alternating (default 4; with --sprt the most, 0: no limit)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--opponents", nargs="+", default=DEFAULT_OPPONENTS, metavar="NAME")
    parser.add_argument("--openings", default=str(OPENINGS_FILE), metavar="FILE",
                        help="the openings (default bench/openings.fen)")
    parser.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE",
                        help="stop each match at an SPRT's verdict: elo0=E0 elo1=E1 [alpha=A] [beta=B]")
    parser.add_argument("--draw", nargs="+", default=None, metavar="KEY=VALUE",
                        help="draw adjudication, as xqdesk match's: movenumber=N movecount=M score=S")
    parser.add_argument("--resign", nargs="+", default=None, metavar="KEY=VALUE",
                        help="resign adjudication, as xqdesk match's: movecount=M score=S [twosided=true]")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH, help="the Fairy-Stockfish executable")
    parser.add_argument("--eleeye", default=os.environ.get("XQDESK_ELEEYE"), help="the ElephantEye executable")
    parser.add_argument("--pgn", default=None, metavar="DIR", help="append every game to DIR/OPPONENT.pgn")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    args = parser.parse_args()
    try:
        args.sprt = parse_sprt(args.sprt) if args.sprt else None
        args.adjudication = parse_adjudication(args.draw, args.resign)
    except UsageError as error:
        parser.error(str(error))
    if args.games == 0 and args.sprt is None:
        parser.error("--games 0 (no limit) needs --sprt")
    engine = opponent_spec(args.engine, args)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.movetime:g} s"
    print(f"{engine.name} vs opponents, {budget} per move, {args.games or 'unlimited'} games each, "
          f"{args.jobs} at once, referee clock {args.clock or 10:g} s, openings {Path(args.openings).name}")
    for name in args.opponents:
        play_match(engine, name, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
