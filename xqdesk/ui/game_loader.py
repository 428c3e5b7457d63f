"""Reading a record file in the background, with progress, so a big collection never freezes the
window.

:class:`GameLoader` reads in its own thread: a PGN file is decoded once and parsed a slice of games
at a time (``progress(done, total)`` after each slice); other kinds are read in one step. The
result arrives in the GUI thread as ``loaded(GameFile, rows)`` (the game list's rows are made in
the thread too), or ``failed(str)`` when the file cannot be read at all — exactly one of them,
whatever happens, since the window waits for it to end the load.

Reading makes a great many objects (every game's tree and boards), and Python's cyclic garbage
collector, walking all of them each time they grow by a quarter, would hold the interpreter for
a fifth of a second at a time, freezing the window's thread. So the collector rests while a file
is read (:func:`pause_collector`), and the games read are then moved out of its reach
(``gc.freeze``) until the next file is read.
"""
from __future__ import annotations

import gc
import re
from pathlib import Path

from PySide6.QtCore import QThread, Signal, SignalInstance

from xqdesk.errors import XqdeskError
from xqdesk.formats import record_kind
from xqdesk.formats.course_match import is_course_match_folder, read_match_games
from xqdesk.formats.encoding import decode_record
from xqdesk.formats.pgn import parse_pgn
from xqdesk.formats.game_file import GameFile, GameReadError, source_name
from xqdesk.ui.game_list import game_rows

GAMES_PER_SLICE = 10
"""Games parsed between two progress reports (and two pauses that let the window's thread run)."""
PAUSE_MS = 2
BACKGROUND_BYTES = 200_000
"""Files at least this big are read in the background; smaller ones at once."""

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


def read_pgn_in_slices(path: Path, progress: SignalInstance | None = None,
                       should_stop: QThread | None = None) -> GameFile:
    """Every game of the PGN file ``path``, parsed ``GAMES_PER_SLICE`` at a time; ``progress``
    (a bound signal taking ``done, total``) is emitted after each slice."""
    source = source_name(path)
    try:
        text, used = decode_record(path.read_bytes(), None, source)
    except XqdeskError as error:
        return GameFile(source, errors=[GameReadError(source, 1, "", "", str(error))])
    pieces = split_pgn_games(text.removeprefix("\ufeff"))
    result = GameFile(source, encoding=used)
    total = len(pieces)
    for first in range(0, total, GAMES_PER_SLICE):
        if should_stop is not None and should_stop.isInterruptionRequested():
            break
        part = pieces[first:first + GAMES_PER_SLICE]
        line_offset = part[0][0]
        parsed = parse_pgn("".join(piece for _offset, piece in part), source, line_offset)
        offset = len(result.games)
        result.games.extend(parsed.games)
        result.errors.extend(_renumbered(error, offset) for error in parsed.errors)
        if progress is not None:
            progress.emit(min(first + GAMES_PER_SLICE, total), total)
        if should_stop is not None:
            should_stop.msleep(PAUSE_MS)  # hand the interpreter to the window's thread for a moment
    return result


def pause_collector() -> None:
    """Before reading: give the last file's games back to the collector and let it rest."""
    gc.unfreeze()
    gc.disable()


def resume_collector() -> None:
    """After reading: keep what exists now (the games just read) out of the collector's walks,
    and let it run again."""
    gc.freeze()
    gc.enable()


def read_record(path: str | Path) -> GameFile:
    """The games at ``path``: a course match folder, or a record file of any known format."""
    if Path(path).is_dir():
        if not is_course_match_folder(path):
            raise XqdeskError(f"{str(path)!r} is a folder but not a course match folder (no summary.txt)")
        return read_match_games(path)
    from xqdesk.formats import read_games  # the formats package picks the reader by content

    return read_games(path)


class GameLoader(QThread):
    """Reads ``path`` in this thread; see the module docstring for the signals."""

    progress = Signal(int, int)  # games read so far, games in the file (estimated by its tag blocks)
    loaded = Signal(object, object)  # GameFile, its game list rows (list[GameRow], made here too)
    failed = Signal(str)

    def __init__(self, path: str | Path, parent=None) -> None:
        super().__init__(parent)
        self.path = Path(path)

    def run(self) -> None:  # noqa: D102 - QThread entry point
        try:
            if self.path.is_file() and record_kind(self.path) == "pgn":
                record = read_pgn_in_slices(self.path, self.progress, self)
            else:
                record = read_record(self.path)
                self.progress.emit(1, 1)
            rows = game_rows(record)
        except (OSError, XqdeskError) as error:
            self.failed.emit(str(error))
            return
        except Exception as error:  # noqa: BLE001 - a bug must still end the load (cursor, collector)
            self.failed.emit(f"internal error: {type(error).__name__}: {error}")
            return
        self.loaded.emit(record, rows)
