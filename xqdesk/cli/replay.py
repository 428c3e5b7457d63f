"""``xqdesk replay PATH [--check] [--notation chinese|wxf|iccs] [--encoding NAME]``.

Prints each game of a record file or course match folder: its headers, its main line in the
chosen notation and its outcome. With ``--check`` every move is re-judged under the game's ruleset
and the recorded outcome (for a match folder, the line in ``summary.txt``) is compared with what
the rules give; the last line counts the games, and the exit code is 0 only when all agree.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from xqdesk.cli import encoding_argument, plural, report_error
from xqdesk.cli.progress import CommandProgress
from xqdesk.errors import XqdeskError
from xqdesk.formats import open_games
from xqdesk.game import Game
from xqdesk.notation import Notation, format_line
from xqdesk.terminal_text import printable

_NOTATIONS = {"iccs": Notation.ICCS, "wxf": Notation.WXF, "chinese": Notation.CHINESE}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="a .pgn, .xqf, .fen or .txt record, or a 'Player i VS Player j' folder")
    parser.add_argument("--check", action="store_true",
                        help="re-judge every move and compare each outcome with the record; exit 1 on any difference")
    parser.add_argument("--notation", choices=sorted(_NOTATIONS), default="iccs", help="how to print moves")
    parser.add_argument("--encoding", type=encoding_argument, help="text encoding of the file (detected when not given)")


def run(args: argparse.Namespace) -> int:
    """Games are read, printed and checked one at a time: a file of any size takes the memory of
    one game."""
    _tolerant_output()
    notation = _NOTATIONS[args.notation]
    stream = open_games(args.path, args.encoding)
    verdicts: Counter[str] = Counter()
    with CommandProgress(f"{'checking' if args.check else 'writing'} games of {args.path}", 1) as progress:
        stream.progress = progress.update
        for read in stream:
            verdicts[_replay_one(read.game, f"Game {read.number} of {stream.source}", notation, args.check,
                                 read.damaged)] += 1
    for error in stream.errors:
        report_error(str(error), label="error")
    if args.check:
        agree, differ, illegal = (verdicts[kind] for kind in ("agree", "differ", "illegal"))
        unread = len(stream.errors)
        print(f"checked {plural(stream.games_read, 'game')} of {printable(stream.source)}: {agree} agree, {differ} differ, "
              f"{illegal} with illegal or damaged moves, {plural(unread, 'read error')}")
        return 0 if differ == 0 and illegal == 0 and unread == 0 else 1
    return 1 if stream.errors else 0


def _replay_one(game: Game, title: str, notation: Notation, check: bool, damaged: bool) -> str:
    """Print one game and, when ``check``, its verdict: ``agree``, ``differ``, ``illegal`` (or ``shown``).
    Every text that comes from the record goes out through :func:`printable`."""
    print(printable(title))
    for tag, value in game.sorted_headers():
        print(f"  {printable(tag)}: {printable(value)}")
    if game.start_fen != Game().start_fen:
        print(f"  Start: {printable(game.start_fen)}")
    print(f"  Moves: {printable(_movetext(game, notation))}")
    outcome = f"{game.outcome.text} ({game.outcome.result()})" if game.outcome else "none recorded"
    print(f"  Outcome: {printable(outcome)}")
    if not check:
        return "shown"
    if damaged:
        print("  Check: DAMAGED (see the errors below)")
        return "illegal"
    try:
        verdict = game.check_outcome()
    except XqdeskError as illegal_move:
        print(f"  Check: ILLEGAL: {printable(str(illegal_move))}")
        return "illegal"
    if verdict.agrees:
        print(f"  Check: agrees: {printable(verdict.detail)}")
        return "agree"
    print(f"  Check: DIFFERS: {printable(verdict.detail)}")
    return "differ"


def _movetext(game: Game, notation: Notation) -> str:
    board = game.start_board()
    try:
        texts = format_line(board, game.mainline_moves(), notation)
    except XqdeskError as error:
        return f"(cannot be written: {error})"
    parts = []
    for index, text in enumerate(texts):
        red_to_move = board.turn if index % 2 == 0 else not board.turn
        number = board.fullmove_number + (index + (0 if board.turn else 1)) // 2
        if red_to_move:
            parts.append(f"{number}. {text}")
        elif index == 0:
            parts.append(f"{number}... {text}")
        else:
            parts.append(text)
    return " ".join(parts) if parts else "(none)"


def _tolerant_output() -> None:
    """Let Chinese text through a terminal that cannot show it (as '?') instead of crashing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
