"""``xqdesk tournament SPEC SPEC …``: a round robin between engines, with a standings table
(points, wins, draws, losses and each engine's Elo against the field with its 95% interval).

The shared options of ``xqdesk match`` apply: openings, adjudication, the PGN appended game by
game, Ctrl+C stopping within one move with the standings so far."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from xqdesk.cli.match import add_engine_arguments
    from xqdesk.cli import positive_int

    parser.add_argument("specs", nargs="+", metavar="SPEC", help="two or more engines (see 'xqdesk match')")
    parser.add_argument("--games", type=positive_int, default=2, metavar="N",
                        help="games per pair, colours alternating (default 2)")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from xqdesk.cli.match import make_contestants, pgn_appender, read_setup, run_with_runner
    from xqdesk.cli.match_options import UsageError
    from xqdesk.cli.match_report import MatchReport, plural
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.contests.tournament import format_standings, round_robin_schedule, standings, unique_names

    if len(args.specs) < 2:
        print("xqdesk: a tournament needs at least two engines", file=sys.stderr)
        return 2
    try:
        setup = read_setup(args)
        contestants = make_contestants(args.specs, args)
    except (UsageError, EngineStartError) as error:
        print(f"xqdesk: {error}", file=sys.stderr)
        return 2
    names = unique_names([contestant.name for contestant in contestants])
    contestants = [replace(contestant, name=name) for contestant, name in zip(contestants, names)]
    openings = setup.openings.sequence(args.seed) if setup.openings is not None else None
    schedule = round_robin_schedule(len(contestants), args.games, openings,
                                    setup.openings.repeat if setup.openings is not None else args.repeat)
    try:
        report = MatchReport(names, total=len(schedule), quiet=args.quiet,
                             pgn=pgn_appender(args, "xqdesk tournament", "tournament.pgn"))
    except OSError as error:
        print(f"xqdesk: cannot write under {args.out!r}: {error.strerror or error}", file=sys.stderr)
        return 3

    def summarise() -> None:
        if report.stopped or len(report.finished) < len(schedule):
            print(f"Standings after {plural(len(report.finished), 'finished game')} of {len(schedule)}:")
        print(format_standings(standings(names, report.finished)))
        if report.pgn is not None:
            print(f"PGN: {report.pgn.summary()}")

    return run_with_runner(contestants, args, report, setup, lambda runner: runner.play(schedule), summarise)

