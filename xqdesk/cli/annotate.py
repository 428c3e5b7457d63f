"""``xqdesk annotate IN OUT --engine SPEC (--movetime S | --depth N)``: review every game of a file
(or of every record file in a folder) with an engine and write them annotated as PGN (see
:mod:`xqdesk.review` for the form), with a progress bar and a summary per player.

Resumable: games already annotated in OUT are skipped, so an interrupted run is simply run again.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from xqdesk.cli import plural, positive_float, positive_int, report_error
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from xqdesk.cli.match import SPEC_HELP, add_cluster_argument

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SPEC_HELP
    parser.add_argument("source", metavar="IN", help="a record file, or a folder of them (read at any depth)")
    parser.add_argument("target", metavar="OUT", help="the PGN file (for a folder IN: the folder) to write")
    parser.add_argument("--engine", required=True, metavar="SPEC", help="the engine that reviews")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--movetime", type=positive_float, default=None, metavar="S", help="seconds per position")
    limit.add_argument("--depth", type=positive_int, default=None, metavar="N", help="search depth per position")
    parser.add_argument("--sides", choices=("both", "red", "black"), default="both",
                        help="whose moves are classed (default both)")
    parser.add_argument("--concurrency", type=int, default=1, metavar="N",
                        help="games reviewed at once, each by its own engine process (default 1)")
    parser.add_argument("--engines", default=None, metavar="FILE", help="JSON engines file for named engines")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_cluster_argument(parser)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from xqdesk.engines.analysis.annotate import (
        AnnotateResult,
        OutputFiles,
        annotate_local,
        annotate_on_cluster,
        plan,
        summarise,
    )
    from xqdesk.engines.analysis.reviewer import review_limits
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.registry import engine_spec
    from xqdesk.pieces import BLACK, RED

    console = Console(stderr=True)
    try:
        limits = review_limits(args.movetime, args.depth)
        spec = engine_spec(args.engine, args.engines)
    except (ValueError, EngineStartError) as error:
        report_error(str(error))
        return 2
    if args.concurrency < 1:
        report_error(f"--concurrency must be at least 1, got {args.concurrency}")
        return 2
    source, target = Path(args.source), Path(args.target)
    if source.is_dir() and target.is_file():
        report_error(f"{source} is a folder, so OUT must be a folder, but {target} is a file")
        return 2
    sides = {"both": (RED, BLACK), "red": (RED,), "black": (BLACK,)}[args.sides]
    work = plan(source, target, spec, limits, sides)
    for problem in work.problems:
        report_error(f"{problem}")
    if work.skipped:
        print(f"{plural(work.skipped, 'game')} already annotated in {target}: skipped")
    outputs = OutputFiles()
    failures: list[str] = []
    finished = []
    with Progress(TextColumn("annotating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, disable=args.quiet) as bar:
        task = bar.add_task("games", total=len(work.jobs))

        def on_result(result: AnnotateResult) -> None:
            outputs.append(result)
            if result.error:
                failures.append(result.error)
                bar.console.print(printable(f"xqdesk: {result.error}"), markup=False, highlight=False)
            else:
                finished.append(result)
            bar.advance(task)

        try:
            if args.cluster:
                annotate_on_cluster(work.jobs, args.cluster, on_result)
            else:
                annotate_local(work.jobs, args.concurrency, on_result)
        except EngineStartError as error:
            report_error(str(error))
            return 2
    print(f"annotated {plural(len(finished), 'game')}, {len(failures)} failed; written to {target}")
    _print_summary(target, summarise)
    if work.problems and not work.jobs and not work.skipped:
        return 2
    return 1 if failures else 0


def _print_summary(target: Path, summarise) -> None:  # noqa: ANN001 - summarise is imported lazily
    """The per-player table over every annotated game now in OUT."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from xqdesk.formats import read_games
    from xqdesk.review import MoveClass

    files = sorted(target.rglob("*.pgn")) if target.is_dir() else [target] if target.is_file() else []
    games = [game for path in files for game in read_games(path).games]
    table = Table(title=f"Review summary ({plural(len(games), 'game')})")
    for column in ("Player", "Games", "Accuracy", "Inaccuracies ?!", "Mistakes ?", "Blunders ??"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    players = summarise(games)
    for name in sorted(players, key=lambda player: (-(players[player].accuracy or 0.0), player)):
        row = players[name]
        table.add_row(Text(printable(name)), str(row.games), f"{row.accuracy:.1f}" if row.accuracy is not None else "-",
                      str(row.counts[MoveClass.INACCURACY]), str(row.counts[MoveClass.MISTAKE]),
                      str(row.counts[MoveClass.BLUNDER]))
    Console(width=100).print(table)
