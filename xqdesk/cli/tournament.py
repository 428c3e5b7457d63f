"""``xqdesk tournament SPEC SPEC …``: a round robin (or a gauntlet, or a knockout) between engines,
with a standings table (points, wins, draws, losses and each engine's Elo against the field with
its 95% interval).

The shared options of ``xqdesk match`` apply: openings, adjudication, the PGN appended game by
game, Ctrl+C stopping within one move with the standings so far. ``--sprt`` tests every pair of
a round robin or gauntlet (the earlier engine against the later) and ends a pair's games at its
verdict."""
from __future__ import annotations

import argparse
from dataclasses import replace

from xqdesk.cli import report_error
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from xqdesk.cli import positive_int
    from xqdesk.cli.match import add_engine_arguments
    from xqdesk.engines.contests.tournament import TOURNAMENT_FORMATS

    parser.add_argument("specs", nargs="+", metavar="SPEC", help="two or more engines (see 'xqdesk match')")
    parser.add_argument("--format", choices=TOURNAMENT_FORMATS, default="round-robin",
                        help="round-robin (default): every pair meets; gauntlet: the first --seeds engines each "
                             "play all the others; knockout: a bracket, the winner of each match goes on")
    parser.add_argument("--seeds", type=positive_int, default=1, metavar="N",
                        help="gauntlet: how many engines, from the first, play all the others (default 1)")
    parser.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="games per pair (per match in a knockout), colours alternating (default 2; with "
                             "--sprt the most games per pair)")
    parser.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE",
                        help="a sequential probability ratio test for every pair of a round robin or gauntlet, "
                             "the earlier engine against the later: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]; a "
                             "pair stops at its verdict (needs --games N, the most games per pair)")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from xqdesk.cli.match import make_contestants, pgn_appender, read_setup, run_with_runner
    from xqdesk.cli.match_options import UsageError, parse_sprt
    from xqdesk.cli.match_report import MatchReport, plural
    from xqdesk.engines.contests.tournament import (
        PairTests,
        format_standings,
        gauntlet_schedule,
        round_robin_schedule,
        standings,
        unique_names,
    )
    from xqdesk.engines.errors import EngineStartError

    if len(args.specs) < 2:
        report_error("a tournament needs at least two engines")
        return 2
    try:
        setup = read_setup(args)
        sprt = parse_sprt(args.sprt) if args.sprt is not None else None
        if sprt is not None and args.format == "knockout":
            raise UsageError("--sprt tests the pairs of a round robin or a gauntlet, not a knockout")
        if sprt is not None and args.games is None:
            raise UsageError("--sprt in a tournament needs --games N (the most games each pair plays)")
        if args.format == "gauntlet" and args.seeds >= len(args.specs):
            raise UsageError(f"--seeds {args.seeds}: a gauntlet of {len(args.specs)} engines has at most "
                             f"{len(args.specs) - 1} seeds")
        if sprt is not None and args.cluster:
            raise UsageError("--sprt in a tournament plays on this machine (drop --cluster)")
        contestants = make_contestants(args.specs, args)
    except (UsageError, EngineStartError) as error:
        report_error(str(error))
        return 2
    names = unique_names([contestant.name for contestant in contestants])
    contestants = [replace(contestant, name=name) for contestant, name in zip(contestants, names)]
    games_per_pair = args.games or 2
    repeat = setup.openings.repeat if setup.openings is not None else args.repeat
    openings = setup.openings.sequence(args.seed) if setup.openings is not None else None
    if args.format == "knockout":
        return _run_knockout(args, contestants, names, setup, games_per_pair, openings, repeat)
    if args.format == "gauntlet":
        schedule = gauntlet_schedule(len(contestants), games_per_pair, openings, repeat, args.seeds)
    else:
        schedule = round_robin_schedule(len(contestants), games_per_pair, openings, repeat)
    tests = PairTests(sprt, pentanomial=repeat == 2) if sprt is not None else None

    def after_game(played) -> None:  # noqa: ANN001 - a PlayedGame
        status = tests.add(played) if tests is not None else None
        if status is not None and not args.quiet:
            first, second = sorted((played.scheduled.red, played.scheduled.black))
            print(printable(f"SPRT {names[first]} vs {names[second]}: {status}"), flush=True)

    try:
        report = MatchReport(names, total=len(schedule), quiet=args.quiet, after_game=after_game,
                             pgn=pgn_appender(args, "xqdesk tournament", "tournament.pgn"))
    except OSError as error:
        report_error(f"cannot write under {args.out!r}: {error.strerror or error}")
        return 3

    def play(runner) -> None:  # noqa: ANN001 - a GamesRunner
        runner.play(tests.undecided(schedule) if tests is not None else schedule)

    def summarise() -> None:
        if tests is not None:
            print(f"Standings after {plural(len(report.finished), 'finished game')} (each pair at most "
                  f"{games_per_pair}, fewer once its test has a verdict):")
        elif report.stopped or len(report.finished) < len(schedule):
            print(f"Standings after {plural(len(report.finished), 'finished game')} of {len(schedule)}:")
        print(printable(format_standings(standings(names, report.finished)), keep_newlines=True))
        if tests is not None:
            print(printable(format_pair_tests(tests, names), keep_newlines=True))
        if report.pgn is not None:
            print(f"PGN: {report.pgn.summary()}")

    return run_with_runner(contestants, args, report, setup, play, summarise)


def format_pair_tests(tests, names) -> str:  # noqa: ANN001 - PairTests, names
    """Each pair's test: its games, its LLR and its verdict (or none yet)."""
    from xqdesk.engines.contests.sprt import Verdict

    test = tests.sprt
    lines = [f"SPRT of each pair (elo0={test.elo0:g}, elo1={test.elo1:g}, alpha={test.alpha:g}, beta={test.beta:g}; "
             f"the first engine tested against the second):"]
    for (first, second), results in sorted(tests.results.items()):
        status = tests.status[(first, second)]
        verdict = str(status) if status.verdict is not Verdict.CONTINUE else f"{status} - no verdict yet"
        lines.append(f"  {names[first]} vs {names[second]}: {results.tally}: {verdict}")
    return "\n".join(lines)


def _run_knockout(args, contestants, names, setup, games_per_pair, openings, repeat) -> int:  # noqa: ANN001
    from xqdesk.cli.match import pgn_appender, run_with_runner
    from xqdesk.cli.match_report import MatchReport, plural
    from xqdesk.engines.contests.tournament import KnockoutMatch, play_knockout

    rounds: list[list[KnockoutMatch]] = []
    try:
        report = MatchReport(names, total=None, quiet=args.quiet,
                             pgn=pgn_appender(args, "xqdesk knockout", "tournament.pgn"))
    except OSError as error:
        report_error(f"cannot write under {args.out!r}: {error.strerror or error}")
        return 3

    def show(round_number: int, match: KnockoutMatch) -> None:
        if not args.quiet:
            print(printable(knockout_line(round_number, match, names)), flush=True)

    def play(runner) -> None:  # noqa: ANN001 - a GamesRunner
        rounds.extend(play_knockout(runner, len(contestants), games_per_pair, openings, repeat, on_match=show))

    def summarise() -> None:
        print("Knockout:")
        for number, matches in enumerate(rounds, start=1):
            for match in matches:
                print(printable("  " + knockout_line(number, match, names)))
        if rounds and len(rounds[-1]) == 1 and not report.stopped:
            print(f"Winner: {names[rounds[-1][0].winner]}")
        else:
            print(f"No winner: stopped after {plural(len(rounds), 'round')}")
        if report.pgn is not None:
            print(f"PGN: {report.pgn.path} ({plural(report.pgn.written, 'game')})")

    return run_with_runner(contestants, args, report, setup, play, summarise)


def knockout_line(round_number: int, match, names) -> str:  # noqa: ANN001 - a KnockoutMatch, names
    """``Round 1: A beats B 1.5-0.5`` (or ``A has a bye``)."""
    if match.second is None:
        return f"Round {round_number}: {names[match.first]} has a bye"
    loser = match.second if match.winner == match.first else match.first
    points = dict(zip((match.first, match.second), match.points))
    score = f"{points[match.winner]:g}-{points[loser]:g} in {len(match.games)} games"
    if match.seeded_through:
        return (f"Round {round_number}: {names[match.winner]} goes on against {names[loser]}, {score} "
                "(still tied after the tiebreak games: the higher seed goes on)")
    return f"Round {round_number}: {names[match.winner]} beats {names[loser]} {score}"

