"""The ``xqdesk`` command line: ``python -m xqdesk COMMAND …``.

Each command lives in its own module ``xqdesk.cli.<name>`` with ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their command runs, so start-up stays quick.

Exit codes, the same for every command:

====  ==================================================================================
0     done, nothing wrong found
1     done, but problems were found (a record with errors, an outcome that differs, a lost game)
2     the command line is wrong (unknown option, bad value, unusable ``--encoding``)
3     the output could not be written (a missing folder, a full disk, no permission)
70    internal error: a bug in xqdesk (the traceback is printed; please report it)
130   interrupted (Ctrl+C)
====  ==================================================================================
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from xqdesk.cli.reporting import report_error as report_error  # the commands import it from here

COMMANDS: dict[str, tuple[str, str]] = {
    "perft": ("xqdesk.cli.perft", "count the leaves of the legal move tree (move generator check)"),
    "replay": ("xqdesk.cli.replay", "print the games of a record file or match folder; --check re-judges them"),
    "convert": ("xqdesk.cli.convert", "convert game records between formats (by file extension)"),
    "match": ("xqdesk.cli.match", "two engines or course players play N games, or the course's 6-game match"),
    "tournament": ("xqdesk.cli.tournament", "a round-robin tournament between engines, with a standings table"),
    "play": ("xqdesk.cli.play", "play a game at the terminal: a person types moves against an engine (or a person)"),
    "analyse": ("xqdesk.cli.analyse", "analyse a position with an engine (depth, score, principal variations)"),
    "annotate": ("xqdesk.cli.annotate", "review every game of a file or folder with an engine and write them "
                                        "annotated (scores, ?!/?/??, better moves), with a summary per player"),
    "egtb": ("xqdesk.cli.egtb", "endgame tablebases: 'egtb build SIG… --out DIR', 'egtb probe --dir DIR --fen F'"),
    "train": ("xqdesk.cli.train", "labelled positions (train data) and the learning engines' networks (train zero, train selfplay)"),
    "fog": ("xqdesk.cli.fog", "fog-of-war Xiangqi: 'fog see' prints what a side sees of a position"),
    "index": ("xqdesk.cli.index", "build or update a position index (opening explorer) from record files"),
    "explore": ("xqdesk.cli.explore", "the moves played from a position in a position index, with results"),
    "book": ("xqdesk.cli.book", "opening books: 'book build SOURCE… --out FILE', 'book probe [FEN] [MOVE…]'"),
    "image": ("xqdesk.cli.image", "draw a position of a game as a PNG or SVG picture"),
    "gif": ("xqdesk.cli.gif", "draw a game (or a line of it) as an animated GIF"),
    "engines": ("xqdesk.cli.engines", "list, add or remove the engines of the registry the window shares"),
    "prepare": ("xqdesk.cli.prepare", "compile the engines' code for this computer now (at install time), "
                                      "so the first engine move comes at once"),
}
"""name -> (module, one-line help)."""

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_CANNOT_WRITE, EXIT_INTERNAL_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 3, 70, 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool whose reader went away
"""The exit codes (see the table above)."""

GUI_OPTIONS = ("--screenshot", "--language", "--ply", "--theme", "--analyse", "--multipv", "--size", "--wait",
               "--install-desktop-entry", "--remove-desktop-entry")
"""Options that, before any command, mean "start the window" (``xqdesk --screenshot out.png``)."""


def plural(count: int, word: str, words: Optional[str] = None) -> str:
    """``1 game``, ``2 games`` (``words``: an irregular plural, ``ply``/``plies``)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def positive_float(text: str) -> float:
    """argparse type: a number above zero (seconds, e.g. ``--movetime``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (games, depth, concurrency)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def encoding_argument(text: str) -> str:
    """``--encoding``'s type: the name when records can be read in it, else a usage error saying why."""
    from xqdesk.formats.encoding import encoding_problem

    problem = encoding_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


WINDOW_USAGE = """xqdesk [FILE]
       xqdesk COMMAND [OPTIONS]"""
WINDOW_HELP = """Without a COMMAND, xqdesk opens the window; with a FILE (a game record: .pgn, .xqf, .fen,
a course match folder …) the window opens it. Window options: --ply N (the position shown),
--language en|zh_CN, --theme wood|contrast|traditional, --analyse, --screenshot OUT.png (render the
window to a picture and exit; with --size WxH, --wait S). 'xqdesk COMMAND --help' explains a command."""


def build_parser() -> argparse.ArgumentParser:
    from xqdesk import __version__

    parser = argparse.ArgumentParser(prog="xqdesk", usage=WINDOW_USAGE, epilog=WINDOW_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     description="Xiangqi: play, analyse and replay. 'xqdesk [FILE]' opens the "
                                                 "window (on FILE); 'xqdesk COMMAND …' runs a command:")
    parser.add_argument("--version", action="version", version=f"xqdesk {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        commands.add_parser(name, help=help_text, description=help_text)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command and return its exit code; a reader that closes the output early (``xqdesk
    replay FILE | head``) ends it quietly with :data:`EXIT_BROKEN_PIPE`, as a shell tool would."""
    try:
        return _run(argv)
    except BrokenPipeError:
        # Python would print a second traceback when it flushes stdout at exit: point stdout at
        # the null device (the documented recipe of the signal module).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def _run(argv: Optional[Sequence[str]]) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0] not in COMMANDS
                         and (args_list[0].startswith(GUI_OPTIONS) or os.path.exists(args_list[0]))):
        from xqdesk.ui.start import start_window  # no command (or a file): the window

        return start_window(args_list)
    if args_list[0] not in COMMANDS:
        word = args_list[0]
        if not word.startswith("-") and (os.sep in word or Path(word).suffix):  # a record, not a command
            print(f"xqdesk: {word}: no such file or folder (to open a record in the window; "
                  f"'xqdesk --help' lists the commands)", file=sys.stderr)
            return EXIT_USAGE
        parser.parse_args(args_list)  # prints usage or an error for unknown commands
        parser.print_help()
        return 2
    name = args_list[0]
    module = importlib.import_module(COMMANDS[name][0])
    sub = argparse.ArgumentParser(prog=f"xqdesk {name}", description=COMMANDS[name][1])
    module.add_arguments(sub)
    from xqdesk.cli.log_level import add_log_level_arguments, configure_logging, remove_logging

    add_log_level_arguments(sub)
    from xqdesk.cli.match_options import openings_last

    args = sub.parse_args(openings_last(args_list[1:]))
    logged = configure_logging(args)
    try:
        return _run_command(name, module, args)
    finally:
        remove_logging(logged)


def _run_command(name: str, module: Any, args: argparse.Namespace) -> int:
    from xqdesk.cli.protocol_log import ProtocolLog

    try:
        trace = ProtocolLog(getattr(args, "log", None))
    except OSError as error:
        print(f"xqdesk {name}: cannot write the log {args.log!r}: {error.strerror or error}", file=sys.stderr)
        return EXIT_CANNOT_WRITE
    with trace:
        try:
            from xqdesk.cli.compiled_code import prepare_engines

            prepare_engines(name, args)  # the first run after an install compiles the engines, with progress
            return int(module.run(args) or 0)
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            raise  # the reader of the output went away: not a bug (see main)
        except Exception:  # a bug: say so, with the traceback, under its own exit code
            import traceback

            traceback.print_exc()
            print(f"xqdesk {name}: internal error (a bug in xqdesk, please report it with the traceback above)",
                  file=sys.stderr)
            return EXIT_INTERNAL_ERROR
