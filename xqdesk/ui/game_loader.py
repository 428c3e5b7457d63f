"""Reading a record file or match folder in the background, with progress, so no file — a big
collection or a small XQF — is read on the window's thread.

:func:`load_record` is the work of a :class:`~xqdesk.ui.background.BackgroundJob` (the window's
*Cancel* stops it between slices): a PGN file is decoded once and parsed a slice of games at a
time, other kinds and match folders are read in one step; then the game list's rows are made
(each game's opening is classified there). Progress counts the games parsed, then the rows made.

Reading makes a great many objects (every game's tree and boards), and Python's cyclic garbage
collector, walking all of them each time they grow by a quarter, would hold the interpreter for
a fifth of a second at a time, freezing the window's thread. So the collector rests while a file
is read (:func:`pause_collector`), and the games read are then moved out of its reach
(``gc.freeze``) until the next file is read.
"""
from __future__ import annotations

import gc
import re
import time
from pathlib import Path

from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats import record_kind
from xqdesk.formats.course_match import is_course_match_folder, read_match_games
from xqdesk.formats.encoding import decode_record
from xqdesk.formats.game_file import GameFile, GameReadError, source_name
from xqdesk.formats.pgn import parse_pgn
from xqdesk.ui.background import JobProgress, rest_collector, wake_collector
from xqdesk.ui.game_controller import check_game
from xqdesk.ui.game_list import GameRow, game_rows

GAMES_PER_SLICE = 10
"""Games parsed between two progress reports (and two pauses that let the window's thread run)."""
PAUSE_S = 0.002
"""The pause after each slice: the reading thread hands the interpreter to the window's thread."""

_GAME_START = re.compile(r"\n\s*\n(?=\s*\[)")
"""A blank line followed by a tag line: where the next PGN game begins."""


def split_pgn_games(text: str) -> list[tuple[int, str]]:
    """``text`` cut before each game's tags: ``(first line number - 1, piece)`` pairs whose pieces
    joined give ``text`` back (a piece may hold more than one game when a game has no blank line
    before its tags; parsing it still finds them all)."""
    pieces: list[tuple[int, str]] = []
    start, line = 0, 0
    for match in _GAME_START.finditer(text):
        cut = match.end()
        pieces.append((line, text[start:cut]))
        line += text.count("\n", start, cut)
        start = cut
    pieces.append((line, text[start:]))
    return [(offset, piece) for offset, piece in pieces if piece.strip()]


def _renumbered(error: GameReadError, offset: int) -> GameReadError:
    return GameReadError(error.source, error.game_number + offset, error.where, error.text, error.reason)


def read_pgn_in_slices(path: Path, progress: JobProgress | None = None) -> GameFile:
    """Every game of the PGN file ``path``, parsed ``GAMES_PER_SLICE`` at a time; after each
    slice ``progress`` hears of it (and may stop the reading: JobCancelled)."""
    source = source_name(path)
    try:
        text, used = decode_record(path.read_bytes(), None, source)
    except XqdeskError as error:
        return GameFile(source, errors=[GameReadError(source, 1, "", "", str(error))])
    pieces = split_pgn_games(text.removeprefix("\ufeff"))
    result = GameFile(source, encoding=used)
    total = len(pieces)
    for first in range(0, total, GAMES_PER_SLICE):
        part = pieces[first:first + GAMES_PER_SLICE]
        line_offset = part[0][0]
        parsed = parse_pgn("".join(piece for _offset, piece in part), source, line_offset)
        offset = len(result.games)
        result.games.extend(parsed.games)
        result.errors.extend(_renumbered(error, offset) for error in parsed.errors)
        if progress is not None:
            progress.check()
            progress.report(min(first + GAMES_PER_SLICE, total), 2 * total)
            time.sleep(PAUSE_S)  # hand the interpreter to the window's thread for a moment
    return result


MOVE_LIST_FORMAT = "FEN and moves / move list"
"""The reader a text in no other format falls to: what it cannot read becomes a comment."""


def blank_record_problem(record: GameFile) -> str:
    """Why ``record`` holds no game at all although a reader returned one ('' : it holds one).

    A JSON file or random bytes read as text give one game with no move, no tag and the standard
    start: nothing of the file was a record. (A record file that is really an empty game, an
    XQF with no move, is read without errors by its own reader and is not refused.)"""
    if not record.games:
        return ""
    start = STARTING_FEN.split()[:2]
    blank = all(not game.variations and not game.headers and game.start_fen.split()[:2] == start
                for game in record.games)
    if not blank:
        return ""
    if record.errors:
        return str(record.errors[0])
    if record.format == MOVE_LIST_FORMAT:
        return "nothing in it reads as a game record (no tags, no moves, no position)"
    return ""


def read_record(path: str | Path) -> GameFile:
    """The games at ``path``: a course match folder, or a record file of any known format."""
    if Path(path).is_dir():
        if not is_course_match_folder(path):
            raise XqdeskError(f"{str(path)!r} is a folder but not a course match folder (no summary.txt)")
        return read_match_games(path)
    from xqdesk.formats import read_games  # the formats package picks the reader by content

    return read_games(path)


def load_record(path: Path, progress: JobProgress) -> tuple[GameFile, list[GameRow]]:
    """The games at ``path`` (a record file of any format, or a course match folder) and their
    game list rows; XqdeskError or OSError when it cannot be read at all (a file in which no
    game was found — JSON, random bytes — included)."""
    if path.is_file() and record_kind(path) == "pgn":
        record = read_pgn_in_slices(path, progress)
    else:
        record = read_record(path)
    problem = blank_record_problem(record)
    if problem:
        raise XqdeskError(problem)
    if len(record.games) == 1:  # shown at once: its moves are checked here, not in the window's thread
        try:
            check_game(record.games[0])
        except XqdeskError:
            pass  # the window says what is wrong with it when it shows it
    progress.check()
    games = len(record.games)

    def rows_done(done: int, total: int) -> None:
        progress.check()
        progress.report(games + done, 2 * total)
        time.sleep(PAUSE_S)

    return record, game_rows(record, rows_done)


def pause_collector() -> None:
    """Before reading: give the last file's games back to the collector and let it rest."""
    gc.unfreeze()
    rest_collector()


def resume_collector() -> None:
    """After reading: keep what exists now (the games just read) out of the collector's walks,
    and let it run again."""
    gc.freeze()
    wake_collector()
