"""``xqdesk book build SOURCE… --out FILE`` and ``xqdesk book probe [FEN] [MOVE…]``.

``build`` reads record files, folders of them or ``.pgn.xz`` streams and writes a compact opening
book (see :mod:`xqdesk.opening_book`): the positions of the first ``--max-ply`` plies and the moves
played there by at least ``--min-games`` games. It prints the games read, the rows and positions
kept, the file's size and the time taken; exits 1 when some games could not be read.

``probe`` prints the book's moves from a position (the start position, or a FEN given as the first
argument, then the moves played from it in any notation): the move in ICCS and in Chinese, the
games that played it and their wins, draws and losses from the mover's view, most played first,
then the look-up's time. Without ``--book`` it reads the book xqdesk ships.
"""
from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

from xqdesk.board import Board
from xqdesk.cli import plural, positive_int
from xqdesk.errors import XqdeskError
from xqdesk.notation import Notation, format_move, parse_line
from xqdesk.opening_book import (
    DEFAULT_MAX_PLY,
    DEFAULT_MIN_GAMES,
    BookFileError,
    CompactBook,
    build_book,
    save_book,
    shipped_book,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    make = actions.add_parser("build", help="build an opening book from record files",
                              description="Build a compact opening book from record files, folders or .pgn.xz files.")
    make.add_argument("sources", nargs="+", metavar="SOURCE", help="record files, folders, or .pgn.xz files")
    make.add_argument("--out", required=True, help="the book file to write (.npz)")
    make.add_argument("--max-ply", type=positive_int, default=DEFAULT_MAX_PLY, metavar="N",
                      help=f"positions up to this ply (default {DEFAULT_MAX_PLY})")
    make.add_argument("--min-games", type=positive_int, default=DEFAULT_MIN_GAMES, metavar="N",
                      help=f"moves played in at least N games (default {DEFAULT_MIN_GAMES})")
    make.add_argument("--source-name", default="", help="what to call the games in the book's notes")
    probe = actions.add_parser("probe", help="the book's moves from a position",
                               description="The moves of an opening book from a position, with results.")
    probe.add_argument("position", nargs="*", metavar="FEN|MOVE",
                       help="a FEN (optional, quoted) and then moves played from it, in any notation")
    probe.add_argument("--book", default="", help="a book made by 'xqdesk book build' (default: the shipped one)")


def _build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        rows, report = build_book(args.sources, args.max_ply, args.min_games,
                                  progress=lambda games: print(f"{games} games…", flush=True))
    except FileNotFoundError as error:
        print(f"xqdesk book build: {error}", file=sys.stderr)
        return 2
    meta = {"max_ply": args.max_ply, "min_games": args.min_games, "games": report.games,
            "sources": args.source_name or ", ".join(Path(source).name for source in args.sources),
            "built": datetime.date.today().isoformat()}
    try:
        save_book(args.out, rows, meta)
    except OSError as error:
        print(f"xqdesk book build: cannot write {args.out!r}: {error}", file=sys.stderr)
        return 3
    for problem in report.errors:
        print(f"error: {problem}", file=sys.stderr)
    book = CompactBook(rows, meta)
    size = Path(args.out).stat().st_size
    print(f"built {args.out}: {plural(report.games, 'game')} read"
          + (f" ({report.skipped} from a set-up position left out)" if report.skipped else "")
          + f", {plural(len(book), 'move')} in {plural(book.position_count(), 'position')} "
          f"(plies < {args.max_ply}, played ≥ {args.min_games} times), {size / 1e6:.2f} MB, "
          f"in {time.perf_counter() - started:.1f} s"
          + (f"; {plural(len(report.errors), 'read error')}" if report.errors else ""))
    return 1 if report.errors else 0


def _probe(args: argparse.Namespace) -> int:
    words = list(args.position)
    try:
        board = Board(words.pop(0)) if words and "/" in words[0] else Board()
        for move in parse_line(board, words):
            board.push(move)
        book = CompactBook.load(args.book) if args.book else shipped_book()
    except (XqdeskError, BookFileError) as error:
        print(f"xqdesk book probe: {error}", file=sys.stderr)
        return 2
    if book is None:
        print("xqdesk book probe: this install has no opening book; name one with --book", file=sys.stderr)
        return 2
    started = time.perf_counter()
    stats = book.moves(board)
    elapsed = time.perf_counter() - started
    print(f"{'move':<6}{'':<10}{'games':>7}{'win':>7}{'draw':>7}{'loss':>7}{'score':>7}")
    for stat in stats:
        wins, losses = (stat.red_wins, stat.black_wins) if board.turn else (stat.black_wins, stat.red_wins)
        decided = wins + stat.draws + losses
        score = f"{100 * (wins + 0.5 * stat.draws) / decided:.0f}%" if decided else "–"
        chinese = format_move(board, stat.move, Notation.CHINESE)
        print(f"{stat.move.iccs():<6}{chinese:<10}{stat.games:>7}{wins:>7}{stat.draws:>7}{losses:>7}{score:>7}")
    print(f"{plural(len(stats), 'book move')} from {book.name} in {elapsed * 1000:.2f} ms "
          f"(win/draw/loss for the side to move)")
    return 0


def run(args: argparse.Namespace) -> int:
    return _build(args) if args.action == "build" else _probe(args)
