"""``xqdesk match``: two engines play N games with alternating colours, or the course's 6-game
match (``--course``) written as the course's match folder.

Engines are named by SPEC (see :mod:`xqdesk.engines.spec`): ``builtin[:OPTIONS]``, ``random``,
``greedy``, ``player:PATH``, ``uci:PATH[:OPTIONS]``, ``ucci:PATH[:OPTIONS]``, ``engine:PATH[:OPTIONS]``
or a name from an engines file.
"""
from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from xqdesk.cli.protocol_log import add_log_argument
from xqdesk.time_control import TimeControl

FOG_PREFIX = "fog-"
ELO_NOTE = "Elo with a 95% interval; performance = opponent rating + 400·(wins − losses)/games"


SPEC_HELP = """SPEC is one of:
  builtin[:OPTIONS]      the built-in engine
  random[:OPTIONS]       a random mover (option Seed)
  greedy[:OPTIONS]       takes the most valuable piece it can, else random (option Seed)
  mcts[:OPTIONS]         Monte-Carlo tree search (Playouts, Rollout, RolloutPlies, Exploration)
  zero[:OPTIONS]         network-guided PUCT search (Network, Simulations, CPuct, Temperature)
  fog-KIND[:OPTIONS]     a fog-of-war agent (with --variant fog): fog-random, fog-greedy,
                         fog-ubsa, fog-pbsa
  player:PATH            a course Player folder or player_N.py file
  uci:PATH[:OPTIONS]     a UCI engine (Fairy-Stockfish or Pikafish style)
  ucci:PATH[:OPTIONS]    a UCCI engine (ElephantEye and most Chinese engines)
  engine:PATH[:OPTIONS]  either: UCI is tried, then UCCI
  NAME                   an entry of the engines file (--engines)
OPTIONS are Name=value pairs joined by commas, e.g. uci:/usr/games/fairy-stockfish:Hash=16,Skill Level=3"""


def time_control_argument(text: str) -> TimeControl:
    """A command-line time control (``10s``, ``15m+5s``, ``20m|30s``, ``none``) for argparse."""
    try:
        return TimeControl.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``match`` and ``tournament`` (and the SPEC explanation)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SPEC_HELP
    parser.add_argument("--movetime", type=float, default=1.0, metavar="S",
                        help="seconds each engine is told to think per move (default 1)")
    parser.add_argument("--depth", type=int, default=None, help="search depth limit sent to engines")
    parser.add_argument("--clock", type=float, default=None, metavar="S",
                        help="move clock in seconds enforced by the referee (default: the course's 10)")
    parser.add_argument("--tc", type=time_control_argument, default=None, metavar="TC",
                        help="both sides' clock, kept by the referee and told to the engines: '10s' a move, "
                             "'15m+5s' (game time plus increment), '20m|30s' (main time, then byo-yomi); "
                             "replaces --movetime and --clock (fog-of-war games keep those)")
    parser.add_argument("--concurrency", type=int, default=1, metavar="N", help="games played at once (default 1)")
    parser.add_argument("--memory-limit", type=int, default=None, metavar="MB",
                        help="address-space cap per engine process in MiB (default 2048)")
    parser.add_argument("--engines", default=None, metavar="FILE",
                        help="JSON engines file for named engines (default ~/.config/xqdesk/engines.json)")
    parser.add_argument("--out", default=None, metavar="DIR", help="write the results (PGN, course folder) here")
    parser.add_argument("--quiet", action="store_true", help="no per-game lines and no progress line")
    parser.add_argument("--variant", choices=("course", "fog"), default="course",
                        help="the rules: the course's (default) or fog of war, played by fog-… agents")
    add_cluster_argument(parser)
    add_log_argument(parser)


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``: run each game as a task on a Ray cluster (``local``: Ray on this machine)."""
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="play each game as a task on the Ray cluster at ADDRESS ('local' starts Ray here; "
                             "needs pip install 'xqdesk[cluster]'; engine paths must exist on every worker); "
                             "--concurrency is then the cluster's")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--red", required=True, metavar="SPEC", help="the engine that has Red in game 1")
    parser.add_argument("--black", required=True, metavar="SPEC", help="the engine that has Black in game 1")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--games", type=int, default=2, metavar="N", help="games with alternating colours (default 2)")
    kind.add_argument("--course", action="store_true",
                      help="the course's match: 6 games (+ a playoff), written as 'Player i VS Player j'")
    parser.add_argument("--ids", type=int, nargs=2, default=(1, 2), metavar=("I", "J"),
                        help="course player ids of --red and --black (default 1 2)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the playoff's colours")
    parser.add_argument("--rating", type=float, default=1500.0,
                        help="the --black engine's rating, for --red's performance rating (default 1500)")
    add_engine_arguments(parser)


def make_contestants(specs: Sequence[str], args: argparse.Namespace) -> list:
    """Contestants for ``specs``; EngineStartError for a spec that names nothing runnable."""
    from xqdesk.engines.play.engine_player import EnginePlayer
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.contests.match import Contestant
    from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
    from xqdesk.engines.search_types import SearchLimits
    from xqdesk.engines.spec import parse_spec

    # Under --tc an engine is told its clock each move; otherwise it gets --movetime / --depth.
    limits = None if getattr(args, "tc", None) is not None else SearchLimits(movetime=args.movetime, depth=args.depth)
    memory = args.memory_limit if args.memory_limit is not None else DEFAULT_MEMORY_LIMIT_MB
    contestants = []
    fog = getattr(args, "variant", "course") == "fog"
    for text in specs:
        spec = parse_spec(text, args.engines)
        if fog != text.startswith(FOG_PREFIX):
            raise EngineStartError(f"{text!r}: fog-of-war games are played by fog agents (fog-random, fog-greedy, "
                                   "fog-ubsa, fog-pbsa) and only in them" if fog else
                                   f"{text!r} is a fog-of-war agent: play it with --variant fog")
        if fog:
            from xqdesk.engines.fog.referee import FogEnginePlayer
            fog_limits = SearchLimits(movetime=args.movetime, depth=args.depth)  # fog games keep their own clock
            contestants.append(Contestant(spec.name, functools.partial(FogEnginePlayer, spec, fog_limits,
                                                                       memory_limit_mb=memory)))
            continue
        contestants.append(Contestant(spec.name, functools.partial(EnginePlayer, spec, limits, memory_limit_mb=memory)))
    return contestants


class Progress:
    """Per-game lines on stdout and, on a terminal, one progress line on stderr with the counts
    and an estimate of the time left."""

    def __init__(self, total: int, names: Sequence[str], quiet: bool) -> None:
        self.total = total
        self.names = list(names)
        self.quiet = quiet
        self.done = 0
        self.started = time.monotonic()
        self.outcomes = {"1-0": 0, "0-1": 0, "1/2-1/2": 0, "*": 0}
        self.live = sys.stderr.isatty() and not quiet

    def __call__(self, played) -> None:
        self.done += 1
        record = played.record
        self.outcomes[record.outcome.result()] += 1
        if self.quiet:
            return
        if self.live:
            sys.stderr.write("\r\033[K")
        winner = {"red": record.red, "black": record.black}.get(record.winner_side)
        verdict = f"{winner} wins" if winner else "draw"
        print(f"Game {played.scheduled.number}: {record.red} (red) vs {record.black} (black), "
              f"{len(record.moves)} plies: {verdict}: {record.outcome.text}", flush=True)
        for index, remark in record.remarks:
            print(f"  ply {index + 1}: {remark}", flush=True)
        if self.live:
            sys.stderr.write(self.line())
            sys.stderr.flush()

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        total = max(self.total, self.done)  # a course playoff adds a seventh game
        left = elapsed / self.done * (total - self.done) if self.done else 0.0
        return (f"[{self.done}/{total}] red wins {self.outcomes['1-0']}, black wins {self.outcomes['0-1']}, "
                f"draws {self.outcomes['1/2-1/2']} | elapsed {_clock(elapsed)}, ~{_clock(left)} left")

    def finish(self) -> None:
        if self.live:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds + 0.5), 60)
    return f"{minutes}:{rest:02d}"


def ruleset_of(args: argparse.Namespace):  # noqa: ANN201 - xqdesk.ruleset is imported lazily
    """The ruleset ``--variant`` names."""
    from xqdesk.ruleset import COURSE, FOG

    return FOG if getattr(args, "variant", "course") == "fog" else COURSE


def write_pgn_results(out: Optional[str], played, event: str, name: str = "games.pgn",
                      ruleset=None) -> Optional[Path]:
    """Write the played games as PGN under ``out`` (nothing when ``out`` is None); ``ruleset``:
    the rules they were played by (default the course's)."""
    if out is None:
        return None
    from xqdesk.engines.contests.match import to_game
    from xqdesk.formats.pgn import write_pgn

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    write_pgn(path, [to_game(game, event, ruleset) for game in played])
    return path


def run_with_runner(contestants, args, progress: Progress, body: Callable) -> int:
    """Start every engine (clear message and exit code 2 when one cannot start), run ``body(runner)``."""
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.contests.match import MatchRunner

    if getattr(args, "cluster", None):
        from xqdesk.engines.contests.cluster import RayMatchRunner
        try:
            cluster = RayMatchRunner(contestants, args.cluster, move_time_limit=args.clock, time_control=args.tc,
                                     on_game=progress, ruleset=ruleset_of(args))
            cluster.check()
        except EngineStartError as error:
            print(f"xqdesk: {error}", file=sys.stderr)
            return 2
        with cluster:
            return body(cluster)
    with MatchRunner(contestants, concurrency=args.concurrency, move_time_limit=args.clock, time_control=args.tc,
                    on_game=progress, ruleset=ruleset_of(args)) as runner:
        try:
            runner.check()
        except EngineStartError as error:
            print(f"xqdesk: {error}", file=sys.stderr)
            return 2
        return body(runner)


def run(args: argparse.Namespace) -> int:
    from xqdesk.engines.contests.elo import elo_difference, performance_rating
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.contests.match import alternating_schedule, play_course_match, tally

    if args.course and args.variant == "fog":
        print("xqdesk: --course plays the course's rules; fog of war plays --games N", file=sys.stderr)
        return 2
    if not args.course and args.games < 1:
        print(f"xqdesk: --games must be at least 1, got {args.games}", file=sys.stderr)
        return 2
    try:
        contestants = make_contestants([args.red, args.black], args)
    except EngineStartError as error:
        print(f"xqdesk: {error}", file=sys.stderr)
        return 2
    names = [contestant.name for contestant in contestants]
    total = 6 if args.course else args.games
    progress = Progress(total, names, args.quiet)

    def body(runner) -> int:
        if args.course:
            from xqdesk.formats.course_match import write_course_match
            match, played = play_course_match(runner, args.ids[0], args.ids[1], rng=random.Random(args.seed))
            progress.finish()
            print(match.summary_text().replace("\r\n", "\n"))
            if args.out:
                folder = write_course_match(args.out, match)
                print(f"match folder: {folder}")
        else:
            played = runner.play(alternating_schedule(args.games))
            progress.finish()
        result = tally(played, 0)
        print(f"{names[0]} vs {names[1]}: {result} ({result.points:g}/{result.games})")
        print(f"{elo_difference(result.wins, result.draws, result.losses)} for {names[0]}")
        if result.games:
            rating = performance_rating(args.rating, result.wins, result.losses, result.games)
            print(f"Performance rating of {names[0]}: {rating:.0f} (opponent rated {args.rating:g})")
        pgn = write_pgn_results(args.out, played, f"{names[0]} vs {names[1]}", ruleset=ruleset_of(args))
        if pgn is not None:
            print(f"PGN: {pgn}")
        return 0

    return run_with_runner(contestants, args, progress, body)
