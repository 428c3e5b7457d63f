"""``xqdesk fog see --fen FEN [--side red|black]``: what a side sees in fog-of-war Xiangqi.

Prints the view (``?`` for unseen squares) and, as the last line, the squares seen — the side's
own pieces and every square one of them could move to — in ICCS, sorted, space-separated.
"""
from __future__ import annotations

import argparse

from xqdesk.cli import report_error
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN
from xqdesk.pieces import parse_color
from xqdesk.variants.fog import diagram, observe, seen_square_names, start_board


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    see = actions.add_parser("see", help="print what a side sees of a position",
                             description="Print what a side sees; the last line is the seen squares.")
    see.add_argument("--fen", default=STARTING_FEN, help="position (default: the start position)")
    see.add_argument("--side", help="red or black (default: the side to move)")


def run(args: argparse.Namespace) -> int:
    try:
        board = start_board(args.fen)
    except InvalidFenError as error:
        report_error(str(error), "fog see")
        return 2
    try:
        side = board.turn if args.side is None else parse_color(args.side)
    except ValueError as error:
        report_error(f"--side: {error}", "fog see")
        return 2
    observation = observe(board, side)
    print(diagram(observation))
    print(" ".join(seen_square_names(observation)))
    return 0
