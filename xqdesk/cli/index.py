"""``xqdesk index DB FILE…``: build or update a position index (see :mod:`xqdesk.position_index`).

Each FILE is a record file, a course match folder or a folder searched for them. Files indexed
before and unchanged are skipped. Prints one line per file read, the errors met, and a closing line
with the totals; exits 1 when anything could not be read (a path, a file, a damaged game), else 0.
"""
from __future__ import annotations

import argparse
import sys
import time

from xqdesk.cli import plural
from xqdesk.position_index import PositionIndex, PositionIndexError
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", help="the index file (SQLite; created when missing)")
    parser.add_argument("files", nargs="+", help="record files, match folders or folders holding them")
    parser.add_argument("--quiet", action="store_true", help="print only the closing line and errors")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()

    def report(name: str, games: int) -> None:
        if not args.quiet:
            print(f"{printable(name)}: {plural(games, 'game')}", flush=True)

    try:
        with PositionIndex(args.db) as index:
            result = index.add(args.files, progress=report)
            total_games, total_files = index.game_count(), index.file_count()
    except PositionIndexError as error:
        print(printable(f"xqdesk index: {error}"), file=sys.stderr)
        return 2
    for problem in result.errors:
        print(printable(f"error: {problem}"), file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"indexed {plural(result.files_added, 'file')} ({plural(result.games, 'game')}, "
          f"{plural(result.positions, 'position')}) in {elapsed:.1f} s, skipped {result.files_skipped} unchanged; "
          f"the index holds {plural(total_games, 'game')} from {plural(total_files, 'file')}"
          + (f"; {plural(len(result.errors), 'read error')}" if result.errors else ""))
    return 1 if result.errors else 0
