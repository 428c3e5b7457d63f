"""``xqdesk explore [DB] [--fen F] [--moves …]``: the moves played from a position in an index.

Without DB it reads the master-game opening book xqdesk ships (see ``xqdesk book probe``).

Prints a header, then one line per move played from the position (the start position unless
``--fen`` and ``--moves`` say otherwise; its mirror image counts too): the move in ICCS, the games
that played it, Red wins, draws and Black wins — most played first. Games with no recorded result
count in the games only.
"""
from __future__ import annotations

import argparse

from xqdesk.board import Board
from xqdesk.cli import report_error
from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.notation import parse_line
from xqdesk.opening_book import shipped_book
from xqdesk.position_index import MoveStats, open_index
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", nargs="?", default="",
                        help="a position index made by 'xqdesk index' (default: the master-game book xqdesk ships)")
    parser.add_argument("--fen", default=STARTING_FEN, help="the position (default: the start position)")
    parser.add_argument("--moves", nargs="*", default=[], help="moves played from it, in any notation")
    parser.add_argument("--games", type=int, default=0, metavar="N",
                        help="also list up to N games that reached the position")


def run(args: argparse.Namespace) -> int:
    try:
        board = Board(args.fen)
        for move in parse_line(board, args.moves):
            board.push(move)
        if not args.db:
            return _explore_book(board)
        index = open_index(args.db)
    except XqdeskError as error:
        report_error(str(error), "explore")
        return 2
    try:
        with index:
            stats = index.moves(board)
            games = index.games(board, args.games) if args.games > 0 else []
    except XqdeskError as error:  # a damaged index: the message says how to build it again
        report_error(str(error), "explore")
        return 2
    _print_moves(stats)
    for game in games:
        print(f"{game.result_text():>4}  {printable(game.red)} – {printable(game.black)}  {printable(game.event)} "
              f"{printable(game.date)}  (ply {game.ply}, {printable(game.path)} #{game.number + 1})")
    return 0


def _print_moves(stats: list[MoveStats]) -> None:
    print(f"{'move':<6}{'games':>8}{'red':>8}{'draw':>8}{'black':>8}")
    for stat in stats:
        print(f"{stat.move.iccs():<6}{stat.games:>8}{stat.red_wins:>8}{stat.draws:>8}{stat.black_wins:>8}")


def _explore_book(board: Board) -> int:
    """The master book's moves from ``board``, as an index's are printed."""
    book = shipped_book()
    if book is None:
        report_error("this install has no opening book; name a position index", "explore")
        return 2
    _print_moves(book.moves(board))
    return 0
