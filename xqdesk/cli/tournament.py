"""``xqdesk tournament SPEC SPEC …``: a round robin between engines, with a standings table."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from xqdesk.cli.match import add_engine_arguments

    parser.add_argument("specs", nargs="+", metavar="SPEC", help="two or more engines (see 'xqdesk match')")
    parser.add_argument("--games", type=int, default=2, metavar="N",
                        help="games per pair, colours alternating (default 2)")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from xqdesk.cli.match import Progress, make_contestants, ruleset_of, run_with_runner, write_pgn_results
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.contests.tournament import format_standings, round_robin_schedule, standings

    if len(args.specs) < 2 or args.games < 1:
        print("xqdesk: a tournament needs at least two engines and --games of at least 1", file=sys.stderr)
        return 2
    try:
        contestants = make_contestants(args.specs, args)
    except EngineStartError as error:
        print(f"xqdesk: {error}", file=sys.stderr)
        return 2
    names = _unique([contestant.name for contestant in contestants])
    contestants = [replace(contestant, name=name) for contestant, name in zip(contestants, names)]
    schedule = round_robin_schedule(len(contestants), args.games)
    progress = Progress(len(schedule), names, args.quiet)

    def body(runner) -> int:
        played = runner.play(schedule)
        progress.finish()
        print(format_standings(standings(names, played)))
        pgn = write_pgn_results(args.out, played, "xqdesk tournament", "tournament.pgn", ruleset_of(args))
        if pgn is not None:
            print(f"PGN: {pgn}")
        return 0

    return run_with_runner(contestants, args, progress, body)


def _unique(names: list[str]) -> list[str]:
    """Names made unique with #2, #3 … (the same engine may enter twice)."""
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return result
