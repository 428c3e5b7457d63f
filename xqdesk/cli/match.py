"""``xqdesk match``: two engines play N games with alternating colours, or the course's 6-game
match (``--course``) written as the course's match folder.

For engine authors, cutechess-cli's conventions: games from an openings file (``--openings``,
each opening played twice with the colours swapped) or a position (``--fen``), draw and resign
adjudication from the engines' scores (``--draw``, ``--resign``), a sequential probability ratio
test that stops the match at its verdict (``--sprt``), each game appended to the PGN as it ends,
and Ctrl+C stopping within one move with every finished game kept (exit code 130).

Engines are named by SPEC (see :mod:`xqdesk.engines.spec`): ``builtin[:OPTIONS]``, ``random``,
``greedy``, ``player:PATH``, ``uci:PATH[:OPTIONS]``, ``ucci:PATH[:OPTIONS]``, ``engine:PATH[:OPTIONS]``
or a name from an engines file.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from xqdesk.cli import EXIT_INTERRUPTED, report_error
from xqdesk.cli.match_options import OpeningChoice, UsageError, endless
from xqdesk.cli.match_report import MatchReport, PgnAppender, plural, stop_on_signals
from xqdesk.cli.protocol_log import add_log_argument
from xqdesk.engines.contests.adjudication import AdjudicationRules
from xqdesk.terminal_text import printable
from xqdesk.time_control import TimeControl

FOG_PREFIX = "fog-"


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
OPTIONS are Name=value pairs joined by commas, e.g. uci:/usr/games/fairy-stockfish:Hash=16,Skill Level=3
name=NAME among them (or after a colon) names the engine in the games, standings and PGN:
  builtin:Level=3,name=weak   player:students/p1:name=Ann   steady:name=old"""


def time_control_argument(text: str) -> TimeControl:
    """A command-line time control (``10s``, ``15m+5s``, ``20m|30s``, ``none``) for argparse."""
    try:
        return TimeControl.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``match`` and ``tournament`` (and the SPEC explanation)."""
    from xqdesk.cli import positive_float, positive_int
    from xqdesk.cli.match_options import add_start_and_adjudication_arguments

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SPEC_HELP
    parser.add_argument("--movetime", type=positive_float, default=1.0, metavar="S",
                        help="seconds each engine is told to think per move (default 1)")
    parser.add_argument("--depth", type=positive_int, default=None, help="search depth limit sent to engines")
    parser.add_argument("--nodes", type=positive_int, default=None, metavar="N",
                        help="nodes each engine may search per move (instead of --movetime; does not depend "
                             "on the machine's load)")
    parser.add_argument("--clock", type=positive_float, default=None, metavar="S",
                        help="move clock in seconds enforced by the referee (default: the course's 10)")
    parser.add_argument("--tc", type=time_control_argument, default=None, metavar="TC",
                        help="both sides' clock, kept by the referee and told to the engines: '10s' a move, "
                             "'15m+5s' (game time plus increment), '20m|30s' (main time, then byo-yomi); "
                             "replaces --movetime and --clock (fog-of-war games keep those)")
    parser.add_argument("--concurrency", type=positive_int, default=1, metavar="N",
                        help="games played at once (default 1)")
    parser.add_argument("--memory-limit", type=positive_int, default=None, metavar="MB",
                        help="address-space cap per engine process in MiB (default 2048)")
    parser.add_argument("--engines", default=None, metavar="FILE",
                        help="JSON engines file for named engines (default: the engine registry, see 'xqdesk "
                             "engines')")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="write the results here: the PGN (each game appended as it ends), a course folder")
    parser.add_argument("--quiet", action="store_true", help="no per-game lines and no progress display")
    parser.add_argument("--variant", choices=("course", "fog"), default="course",
                        help="the rules: the course's (default) or fog of war, played by fog-… agents")
    add_start_and_adjudication_arguments(parser)
    add_cluster_argument(parser)
    add_log_argument(parser)


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``: run each game as a task on a Ray cluster (``local``: Ray on this machine)."""
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="play each game as a task on the Ray cluster at ADDRESS ('local' starts Ray here; "
                             "needs pip install 'xqdesk[cluster]'; engine paths must exist on every worker); "
                             "--concurrency is then the cluster's")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--red", required=True, metavar="SPEC",
                        help="the engine that has Red in game 1 (the engine under test for --sprt)")
    parser.add_argument("--black", required=True, metavar="SPEC", help="the engine that has Black in game 1")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--games", type=int, default=None, metavar="N",
                      help="games, colours alternating (default 2; with --sprt: at most N, default until a verdict)")
    kind.add_argument("--course", action="store_true",
                      help="the course's match: 6 games (+ a playoff), written as 'Player i VS Player j'")
    parser.add_argument("--ids", type=int, nargs=2, default=(1, 2), metavar=("I", "J"),
                        help="course player ids of --red and --black (default 1 2)")
    parser.add_argument("--rating", type=float, default=1500.0,
                        help="the --black engine's rating, for --red's performance rating (default 1500)")
    parser.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE",
                        help="a sequential probability ratio test of --red against --black: elo0=E0 elo1=E1 "
                             "[alpha=0.05] [beta=0.05] (logistic Elo, fishtest's GSPRT: pentanomial over the pairs "
                             "of games from one opening when --repeat is 2, else trinomial); the match stops at "
                             "its verdict")
    add_engine_arguments(parser)


_DISPLAY_NAME = re.compile(r"(?P<lead>[:,])name=(?P<name>[^,:]*)(?P<trail>,?)(?=[^,:]*=|$)")


def split_display_name(text: str) -> tuple[str, Optional[str]]:
    """A SPEC without its ``name=NAME`` word (cutechess-cli's ``name=``: what the engine is called
    in the games, the standings and the PGN), and that name (None when not given):
    ``builtin:Level=3,name=weak`` -> ``('builtin:Level=3', 'weak')``; ``player:p1:name=Ann`` ->
    ``('player:p1', 'Ann')``. UsageError for an empty name."""
    matches = list(_DISPLAY_NAME.finditer(text))
    found = matches[-1] if matches else None  # the last name= given counts
    if found is None:
        return text, None
    name = found.group("name").strip()
    if not name:
        raise UsageError(f"{text!r}: name= needs a name, e.g. builtin:Level=3,name=weak")
    keep = found.group("lead") if found.group("trail") else ""
    return text[:found.start()] + keep + text[found.end():], name


def make_contestants(specs: Sequence[str], args: argparse.Namespace) -> list:
    """Contestants for ``specs``; EngineStartError for a spec that names nothing runnable."""
    from xqdesk.engines.contests.match import Contestant
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.play.engine_player import EnginePlayer
    from xqdesk.engines.registry import engine_spec
    from xqdesk.engines.search_types import SearchLimits
    from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB

    # Under --tc an engine is told its clock each move; otherwise it gets --movetime (or --nodes) / --depth.
    nodes = getattr(args, "nodes", None)
    limits = None if getattr(args, "tc", None) is not None else SearchLimits(
        movetime=None if nodes else args.movetime, depth=args.depth, nodes=nodes)
    memory = args.memory_limit if args.memory_limit is not None else DEFAULT_MEMORY_LIMIT_MB
    contestants = []
    fog = getattr(args, "variant", "course") == "fog"
    for given in specs:
        text, display_name = split_display_name(given)
        spec = engine_spec(text, args.engines)
        if display_name is not None:
            spec = dataclasses.replace(spec, name=display_name)
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


def ruleset_of(args: argparse.Namespace):  # noqa: ANN201 - xqdesk.ruleset is imported lazily
    """The ruleset ``--variant`` names."""
    from xqdesk.ruleset import COURSE, FOG

    return FOG if getattr(args, "variant", "course") == "fog" else COURSE


@dataclass
class MatchSetup:
    """What the shared options ask for, checked: where games start and how they are adjudicated."""

    openings: Optional[OpeningChoice]
    adjudication: AdjudicationRules


def read_setup(args: argparse.Namespace) -> MatchSetup:
    """The shared options' values; UsageError (exit 2) saying what is wrong."""
    from xqdesk.cli.match_options import parse_adjudication, parse_openings

    openings = parse_openings(args.openings, args.fen, args.repeat)
    adjudication = parse_adjudication(args.draw, args.resign, args.tb)
    if args.variant == "fog" and (openings is not None or adjudication):
        raise UsageError("fog-of-war games start from the start position and are not adjudicated: "
                         "drop --openings, --fen, --draw, --resign and --tb")
    if args.cluster and args.variant == "fog":
        raise UsageError("--cluster plays the course's rules")
    clock = args.clock if args.clock is not None else ruleset_of(args).move_time_limit
    if args.tc is None and args.nodes is None and clock is not None and args.movetime >= clock:
        raise UsageError(f"--movetime {args.movetime:g} is not below the referee's move clock ({clock:g} s): every "
                         "move would lose on time; raise --clock or lower --movetime")
    return MatchSetup(openings, adjudication)


def time_control_tag(args: argparse.Namespace) -> str:
    """The PGN ``TimeControl`` tag of the games, as cutechess-cli writes it: ``1/move`` (the
    seconds each engine is told per move: ``--movetime``, or the referee's clock under ``--nodes``
    or ``--depth`` alone), ``900+5`` (``--tc 15m+5s``: main time and increment), ``1200|30``
    (main time, then byo-yomi), ``inf`` (no clock at all)."""
    control = args.tc
    if control is None:
        clock = args.clock if args.clock is not None else ruleset_of(args).move_time_limit
        seconds = clock if getattr(args, "nodes", None) else args.movetime
        return "inf" if seconds is None else f"{seconds:g}/move"
    return control.pgn_tag()


def record_headers(args: argparse.Namespace) -> dict[str, str]:
    """Tags every game's record gets from the options (besides the ones the runner writes)."""
    return {"TimeControl": time_control_tag(args)}


def pgn_appender(args: argparse.Namespace, event: str, name: str = "games.pgn") -> Optional[PgnAppender]:
    """The PGN file under ``--out`` that games are appended to as they end (None without ``--out``)."""
    if args.out is None:
        return None
    return PgnAppender(Path(args.out) / name, event, ruleset_of(args))


def run_with_runner(contestants, args, report: MatchReport, setup: MatchSetup, play: Callable,
                    summarise: Callable[[], None]) -> int:
    """Start every engine (clear message and exit code 2 when one cannot start), run ``play(runner)``
    with Ctrl+C, SIGINT and SIGTERM stopping the match within one move (a second signal: at once),
    then ``summarise()`` the games that finished. 0, or 130 when a signal stopped the match.
    Unless the games run on a cluster, the referee is guarded while the engines run
    (:mod:`~xqdesk.engines.transport.referee_guard`): signals from the engines' processes are
    ignored, and processes escaping an engine's tree are killed."""
    if getattr(args, "cluster", None):
        return _run_with_runner(contestants, args, report, setup, play, summarise)
    from xqdesk.engines.transport.referee_guard import guard_referee

    with guard_referee():
        return _run_with_runner(contestants, args, report, setup, play, summarise)


def _run_with_runner(contestants, args, report: MatchReport, setup: MatchSetup, play: Callable,
                     summarise: Callable[[], None]) -> int:
    from xqdesk.engines.contests.match import MatchRunner
    from xqdesk.engines.errors import EngineStartError

    runner: Any
    try:
        if getattr(args, "cluster", None):
            from xqdesk.engines.contests.cluster import RayMatchRunner
            runner = RayMatchRunner(contestants, args.cluster, move_time_limit=args.clock, time_control=args.tc,
                                    on_game=report.on_game, ruleset=ruleset_of(args),
                                    adjudication=setup.adjudication, headers=record_headers(args))
        else:
            runner = MatchRunner(contestants, concurrency=args.concurrency, move_time_limit=args.clock,
                                 time_control=args.tc, on_game=report.on_game, ruleset=ruleset_of(args),
                                 adjudication=setup.adjudication, on_move=report.on_move,
                                 headers=record_headers(args))
    except EngineStartError as error:
        report_error(str(error))
        return 2
    report.runner = runner
    with runner, stop_on_signals(runner) as signals:
        try:
            runner.check()
        except EngineStartError as error:
            report_error(str(error))
            return 2
        try:
            with report:
                play(runner)
        except KeyboardInterrupt:  # a second signal: the engines were ended at once
            pass
        finally:
            if report.pgn is not None:
                report.pgn.finish()
    summarise()
    if not signals:
        return 0
    report_error(f"interrupted; {plural(len(report.finished), 'finished game')} kept"
                 + (f" in {report.pgn.path}" if report.pgn is not None else ""))
    return EXIT_INTERRUPTED


def schedule_for(args: argparse.Namespace, setup: MatchSetup, games: Optional[int]) -> Iterable:
    """The games of a two-engine match: from the openings (or the start position), each opening
    ``--repeat`` times, colours alternating; ``games`` in all (None: until a test stops it)."""
    from xqdesk.engines.contests.match import alternating_schedule, opening_schedule
    from xqdesk.formats.openings import Opening

    if args.variant == "fog":
        return alternating_schedule(games or 2)
    choice = setup.openings
    if choice is None:
        return opening_schedule(endless(Opening()), games, args.repeat)
    return opening_schedule(choice.sequence(args.seed), games, choice.repeat)


def print_summary(report: MatchReport, args: argparse.Namespace) -> None:
    """The match's result: score, Elo with its interval, LOS, the test's verdict, performance."""
    from xqdesk.engines.contests.elo import elo_difference, performance_rating
    from xqdesk.engines.contests.sprt import Verdict, likelihood_of_superiority

    names, results = [printable(name) for name in report.names], report.results
    games, points = results.tally.games, results.tally.points
    print(f"{names[0]} vs {names[1]}: {results.tally} ({points:g}/{games})")
    elo = elo_difference(results.wins, results.draws, results.losses)
    los = likelihood_of_superiority(results.wins, results.losses)
    extra = (f", LOS {100 * los:.1f}%" if los is not None else "") + (
        f", draw ratio {100 * results.draws / games:.1f}%" if games else "")
    if elo.difference is None:
        print(f"Elo difference: n/a for {names[0]} (no finite estimate from {plural(games, 'game')}){extra}")
    else:
        print(f"{elo} for {names[0]}{extra}")
    if report.sprt_status is not None and report.sprt is not None:
        model = report.sprt_status.model.value
        test = report.sprt
        print(f"SPRT of {names[0]} (elo0={test.elo0:g}, elo1={test.elo1:g}, alpha={test.alpha:g}, beta={test.beta:g}; "
              f"logistic Elo, {model}"
              + (f", {plural(sum(results.pentanomial), 'game pair')} {results.pentanomial}" if report.pentanomial
                 else f", L D W {results.trinomial}") + ")")
        print(str(report.sprt_status) if report.sprt_status.verdict is not Verdict.CONTINUE
              else f"{report.sprt_status} - no verdict yet")
    if games:
        rating = performance_rating(args.rating, results.wins, results.losses, games)
        print(f"Performance rating of {names[0]}: {rating:.0f} (opponent rated {args.rating:g})")


def run(args: argparse.Namespace) -> int:
    from xqdesk.cli.match_options import parse_sprt
    from xqdesk.engines.contests.match import play_course_match
    from xqdesk.engines.errors import EngineStartError

    if args.course and args.variant == "fog":
        print("xqdesk: --course plays the course's rules; fog of war plays --games N")
        return 2
    if args.games is not None and args.games < 1:
        report_error(f"--games must be at least 1, got {args.games}")
        return 2
    try:
        setup = read_setup(args)
        sprt = parse_sprt(args.sprt) if args.sprt is not None else None
        if sprt is not None and (args.course or args.variant == "fog"):
            raise UsageError("--sprt tests two engines over --games N (not --course, not fog of war)")
        if args.course and setup.openings is not None:
            raise UsageError("the course's match starts every game from the start position: drop --openings/--fen")
        if sprt is not None and args.cluster and args.games is None:
            raise UsageError("--sprt with --cluster needs --games N (the most games to play)")
        contestants = make_contestants([args.red, args.black], args)
    except UsageError as error:
        report_error(str(error))
        return 2
    except EngineStartError as error:
        report_error(str(error))
        return 2
    names = [contestant.name for contestant in contestants]
    games = 6 if args.course else args.games if args.games is not None else (None if sprt else 2)
    pentanomial = (setup.openings.repeat if setup.openings else args.repeat) == 2
    try:
        report = MatchReport(names, total=games, quiet=args.quiet, sprt=sprt, pentanomial=pentanomial,
                             pgn=pgn_appender(args, f"{names[0]} vs {names[1]}"))
    except OSError as error:
        report_error(f"cannot write under {args.out!r}: {error.strerror or error}")
        return 3
    if not args.quiet and (setup.openings is not None or sprt is not None):
        described = setup.openings.described if setup.openings else "from the start position"
        cap = "until a verdict" if games is None else plural(games, "game") + " at most" if sprt else plural(games, "game")
        print(printable(f"{names[0]} vs {names[1]}: {cap}, {described}"), flush=True)

    def play(runner) -> None:
        if args.course:
            from xqdesk.formats.course_match import write_course_match
            match, _ = play_course_match(runner, args.ids[0], args.ids[1], rng=random.Random(args.seed))
            if not runner.stopped:
                print(printable(match.summary_text().replace("\r\n", "\n"), keep_newlines=True))
                if args.out:
                    folder = write_course_match(args.out, match)
                    print(f"match folder: {folder}")
        else:
            runner.play(schedule_for(args, setup, games))

    def summarise() -> None:
        print_summary(report, args)
        if report.pgn is not None:
            print(f"PGN: {report.pgn.summary()}")

    return run_with_runner(contestants, args, report, setup, play, summarise)
