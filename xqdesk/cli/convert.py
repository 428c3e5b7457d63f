"""``xqdesk convert IN OUT [--notation chinese|wxf|iccs] [--encoding NAME]``.

Reads every game of IN and writes them to OUT, each format chosen by extension: ``.pgn``,
``.fen``, ``.txt`` (one game, as a course history), ``.xqf`` (read only) or a course match folder
(``Player i VS Player j``). Games with an illegal or damaged move are written up to that move and
the error is printed; the exit code is then 1.
"""
from __future__ import annotations

import argparse
import sys

from xqdesk.errors import XqdeskError
from xqdesk.formats import read_games, write_games
from xqdesk.notation import Notation

_NOTATIONS = {"iccs": Notation.ICCS, "wxf": Notation.WXF, "chinese": Notation.CHINESE}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="IN", help="record file or course match folder to read")
    parser.add_argument("target", metavar="OUT", help="file or folder to write (format by extension)")
    parser.add_argument("--notation", choices=sorted(_NOTATIONS), default="iccs", help="move notation for PGN")
    parser.add_argument("--encoding", help="text encoding of IN (detected when not given)")


def run(args: argparse.Namespace) -> int:
    game_file = read_games(args.source, args.encoding)
    for error in game_file.errors:
        print(f"error: {error}", file=sys.stderr)
    if not game_file.games:
        print(f"xqdesk convert: no game could be read from {game_file.source}", file=sys.stderr)
        return 1
    try:
        written = write_games(args.target, game_file.games, _NOTATIONS[args.notation])
    except XqdeskError as error:
        print(f"xqdesk convert: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(game_file.games)} games from {game_file.source} to {written.name}")
    return 1 if game_file.errors else 0
