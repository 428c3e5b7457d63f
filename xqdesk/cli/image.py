"""``xqdesk image FILE OUT.png|svg [--game N] [--ply N] [--flip] [--no-coordinates] [--arrow MOVE]…
[--highlight SQUARE]… [--width PX]``: a picture of one position of a game.

The position is the one after ``--ply`` moves of game ``--game`` of FILE (any record xqdesk reads;
default: the end of the first game), drawn as the window draws its board, with the last move
marked. Rendering needs no display: an offscreen Qt platform is used unless one is set.
"""
from __future__ import annotations

import argparse
import sys

from xqdesk.cli import plural
from xqdesk.errors import XqdeskError
from xqdesk.formats import read_games
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.notation import parse_move
from xqdesk.squares import Square, parse_square
from xqdesk.ui.board.board_render import Arrow
from xqdesk.ui.exports.pictures import DEFAULT_WIDTH, ensure_gui_application, line_scenes, save_picture, scene_with


def add_picture_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every picture command shares."""
    parser.add_argument("--game", type=int, default=1, help="which game of the file (1-based, default 1)")
    parser.add_argument("--flip", action="store_true", help="Black at the bottom")
    parser.add_argument("--no-coordinates", action="store_true", help="leave out the file numbers")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, help="width in pixels (height is 1.1 times it)")


def load_game(path: str, number: int) -> Game:
    """Game ``number`` (1-based) of the record at ``path``; XqdeskError says what is wrong."""
    record = read_games(path)
    if not record.games:
        # a record's error names its file already
        raise XqdeskError(str(record.errors[0]) if record.errors else f"{path}: no game in it")
    if not 1 <= number <= len(record.games):
        raise XqdeskError(f"{path} holds {plural(len(record.games), 'game')}; --game {number} is not one of them")
    return record.games[number - 1]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record file (PGN, XQF, FEN, course history) or match folder")
    parser.add_argument("out", help="the picture to write: .png or .svg")
    parser.add_argument("--ply", type=int, help="moves played before the position (default: the whole main line)")
    parser.add_argument("--arrow", action="append", default=[], metavar="MOVE",
                        help="draw an arrow for this move of the position (any notation); repeatable")
    parser.add_argument("--highlight", action="append", default=[], metavar="SQUARE",
                        help="highlight this square (ICCS name like e4); repeatable")
    add_picture_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.file, args.game)
        moves = game.mainline_moves()
        ply = len(moves) if args.ply is None else args.ply
        if not 0 <= ply <= len(moves):
            raise XqdeskError(f"--ply {ply} is outside the game's 0..{len(moves)}")
        board = game.board_at(ply)
        arrows: list[Move] = [parse_move(board, text) for text in args.arrow]
        highlights: set[Square] = set()
        for name in args.highlight:
            try:
                highlights.add(parse_square(name))
            except ValueError as error:
                raise XqdeskError(f"--highlight: {error}") from None
        ensure_gui_application()
        scene = line_scenes(game, moves, ply, ply, flipped=args.flip, coordinates=not args.no_coordinates)[0]
        scene = scene_with(scene, [Arrow(move, rank) for rank, move in enumerate(arrows)], frozenset(highlights))
        path = save_picture(scene, args.out, args.width)
    except (XqdeskError, OSError) as error:
        print(f"xqdesk image: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path} (ply {ply} of {len(moves)})")
    return 0
