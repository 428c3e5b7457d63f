"""``xqdesk gif FILE OUT.gif [--game N] [--from-ply A] [--to-ply B] [--delay S] [--flip]
[--no-coordinates] [--width PX]``: a game, or the stretch of it between two plies, as an
animated GIF — one frame per position (plies + 1 frames), ``--delay`` seconds apart, looping.
"""
from __future__ import annotations

import argparse

from xqdesk.cli import report_error
from xqdesk.cli.image import add_picture_arguments, load_game
from xqdesk.cli.progress import CommandProgress
from xqdesk.errors import XqdeskError
from xqdesk.ui.exports.pictures import DEFAULT_GIF_DELAY, ensure_gui_application, line_scenes, save_gif


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record file (PGN, XQF, FEN, course history) or match folder")
    parser.add_argument("out", help="the animation to write (.gif)")
    parser.add_argument("--from-ply", type=int, default=0, help="first position shown (default: the start)")
    parser.add_argument("--to-ply", type=int, help="last position shown (default: the end of the main line)")
    parser.add_argument("--delay", type=float, default=DEFAULT_GIF_DELAY, help="seconds each position is shown (default 1)")
    add_picture_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.file, args.game)
        ensure_gui_application()
        scenes = line_scenes(game, game.mainline_moves(), args.from_ply, args.to_ply,
                             flipped=args.flip, coordinates=not args.no_coordinates)
        with CommandProgress(f"drawing {args.out}", len(scenes)) as progress:
            path = save_gif(scenes, args.out, args.width, args.delay, on_frame=progress.advance)
    except (XqdeskError, OSError) as error:
        report_error(str(error), "gif")
        return 2
    print(f"wrote {path} ({len(scenes)} frames, {args.delay:g} s each)")
    return 0
