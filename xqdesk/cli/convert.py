"""``xqdesk convert IN OUT [--notation chinese|wxf|iccs|san] [--encoding NAME]``.

Reads every game of IN and writes them to OUT, each format chosen by extension: ``.pgn``,
``.fen``, ``.txt`` (one game, as a course history), ``.xqf`` (one game), ``.ubb`` (DhtmlXQ) or a
course match folder (``Player i VS Player j``); IN may also be a ``.cbr``/``.cbl``/``.cbf``
XiangQi Bridge file, a PlayOK ``.wxf``, a web page or any text file, whose format is found from its
content. IN ``-`` reads the text from standard input, and an IN that is no file but a record's
text (it holds a line break, a ``[`` or Chinese) is read as that text: any format *Edit → Paste
game* takes. The format read is printed. Games with an illegal or damaged move are written up to
that move and the error is printed; the exit code is then 1. An output that cannot be written (a
missing folder, a full disk) exits with 3 (see :mod:`xqdesk.cli` for every exit code).
"""
from __future__ import annotations

import argparse
import os
import sys

from xqdesk.cli import encoding_argument, plural, report_error
from xqdesk.cli.progress import CommandProgress
from xqdesk.errors import XqdeskError
from xqdesk.formats import GameFile, read_games_stored, read_games_text, write_games
from xqdesk.formats.atomic_write import FileWriteError
from xqdesk.notation import Notation
from xqdesk.notation.normalize import has_cjk
from xqdesk.terminal_text import printable

_NOTATIONS = {"iccs": Notation.ICCS, "wxf": Notation.WXF, "chinese": Notation.CHINESE, "san": Notation.SAN}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="IN",
                        help="record file or course match folder to read; '-' for text on standard input, "
                             "or the text of a record itself")
    parser.add_argument("target", metavar="OUT", help="file or folder to write (format by extension)")
    parser.add_argument("--notation", choices=sorted(_NOTATIONS), default="iccs",
                        help="move notation for PGN (san: the WinBoard / pychess.org dialect)")
    parser.add_argument("--encoding", type=encoding_argument, help="text encoding of IN (detected when not given)")


def _read(source: str, encoding: str | None, progress: CommandProgress | None = None) -> GameFile:
    """The games of IN; a PGN or FEN file's are read from it again as they are written (only
    where each lies is held), so a file of any size converts in bounded memory."""
    if source == "-":
        return read_games_text(sys.stdin.read(), "<stdin>")
    if not os.path.exists(source) and ("\n" in source or "[" in source or has_cjk(source)):
        return read_games_text(source, "<text>")
    return read_games_stored(source, encoding, progress.update if progress is not None else None)


def run(args: argparse.Namespace) -> int:
    with CommandProgress(f"reading {args.source if len(args.source) <= 60 else 'the text'}", 1) as progress:
        game_file = _read(args.source, args.encoding, progress)
    for error in game_file.errors:
        report_error(str(error), label="error")
    if not game_file.games:
        report_error(f"no game could be read from {game_file.source}", "convert")
        return 1
    try:
        with CommandProgress(f"writing {plural(len(game_file.games), 'game')} to {args.target}"):
            written = write_games(args.target, game_file.games, _NOTATIONS[args.notation])
    except FileWriteError as error:  # a full disk, no permission: the old target is whole
        print(f"xqdesk convert: {error}", file=sys.stderr)
        return 3
    except XqdeskError as error:
        report_error(str(error), "convert")
        return 1
    except OSError as error:
        report_error(f"cannot write {args.target}: {error.strerror or error}", "convert")
        return 3
    detected = f" ({game_file.format})" if game_file.format else ""
    print(printable(f"wrote {plural(len(game_file.games), 'game')} from {game_file.source}{detected} "
                    f"to {written.name}"))
    return 1 if game_file.errors else 0
