"""Reading a record file or match folder in the background, with progress, so no file — a big
collection or a small XQF — is read on the window's thread.

:func:`load_record` is the work of a :class:`~xqdesk.ui.base.background.BackgroundJob` (the window's
*Cancel* stops it between games). The reading itself is the formats package's one reading path
(:func:`xqdesk.formats.read_games_stored`): a PGN or FEN file is read a game at a time, each game
becomes its game list row (its opening classified there) and is let go, and only where each game
lies is kept — a game is parsed again when it is opened — so a file of any size takes the memory
of its rows. Other formats and match folders are read whole. Progress is the share of the file
read.

Reading makes a great many objects (every game's tree and boards), and Python's cyclic garbage
collector, walking all of them each time they grow by a quarter, would hold the interpreter for
a fifth of a second at a time, freezing the window's thread. So the collector rests while a file
is read (:func:`pause_collector`), and what was kept (the rows) is then moved out of its reach
(``gc.freeze``) until the next file is read.
"""
from __future__ import annotations

import gc
import time
from pathlib import Path

from xqdesk.errors import XqdeskError
from xqdesk.formats import (
    ReadGame,
    blank_record_problem,
    is_blank_game,
    is_match_folder,
    read_games_stored,
    read_record,
)
from xqdesk.formats.game_file import GameFile
from xqdesk.ui.base.background import JobProgress, rest_collector, wake_collector
from xqdesk.ui.game.game_controller import check_game
from xqdesk.ui.record.game_list import GameRow, game_row

__all__ = ["load_record", "read_record", "blank_record_problem", "pause_collector", "resume_collector"]

REPORT_INTERVAL_S = 0.05
"""At most this often progress is reported and the reading pauses."""
PAUSE_S = 0.002
"""The pause after each report: the reading thread hands the interpreter to the window's thread."""
PROGRESS_STEPS = 1000
"""Progress is reported in thousandths of the file (a byte count may not fit a progress bar)."""


def load_record(path: Path, progress: JobProgress) -> tuple[GameFile, list[GameRow]]:
    """The games at ``path`` (a record file of any format and size, or a course match folder) and
    their game list rows; XqdeskError or OSError when it cannot be read at all (a file in which no
    game was found — JSON, random bytes — included)."""
    if path.is_dir() and not is_match_folder(path):
        raise XqdeskError(f"{str(path)!r} is a folder but not a course match folder (no summary.txt)")
    rows: list[GameRow] = []
    all_blank = True
    last_report = 0.0

    def each(read: ReadGame) -> None:
        nonlocal all_blank
        all_blank = all_blank and is_blank_game(read.game)
        rows.append(game_row(read.number, read.game, read.damaged))

    def report(done: int, total: int) -> None:
        nonlocal last_report
        progress.check()
        now = time.monotonic()
        if now - last_report >= REPORT_INTERVAL_S or done >= total:
            last_report = now
            progress.report(done * PROGRESS_STEPS // max(total, 1), PROGRESS_STEPS)
            time.sleep(PAUSE_S)  # hand the interpreter to the window's thread for a moment

    record = read_games_stored(path, progress=report, each=each)
    problem = blank_record_problem(record, all_blank if rows else None)
    if problem:
        raise XqdeskError(problem)
    if len(record.games) == 1:  # shown at once: its moves are checked here, not in the window's thread
        try:
            check_game(record.games[0])
        except XqdeskError:
            pass  # the window says what is wrong with it when it shows it
    progress.check()
    return record, rows


def pause_collector() -> None:
    """Before reading: give the last file's rows back to the collector and let it rest."""
    gc.unfreeze()
    rest_collector()


def resume_collector() -> None:
    """After reading: keep what exists now (the rows just made) out of the collector's walks,
    and let it run again."""
    gc.freeze()
    wake_collector()
