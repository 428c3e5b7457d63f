"""A full disk while writing never damages the file being replaced.

The disk is made "full" for real: each case runs in a child process whose file size limit
(``RLIMIT_FSIZE``) is below the size of what it writes, with ``SIGXFSZ`` ignored, so the system
refuses the write past the limit (``EFBIG``) just as a full disk refuses it (``ENOSPC``). The old
file must stay byte-identical, no temporary file may be left, and the error must name the file
and say why."""
from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from datafiles import GAMES

from xqdesk.formats import read_games, write_games
from xqdesk.formats.atomic_write import FileWriteError, write_bytes_atomically
from xqdesk.formats.pgn import format_pgn
from xqdesk.game import Game

pytestmark = pytest.mark.engines

REPOSITORY = Path(__file__).resolve().parent.parent
FIFTEEN = GAMES / "notation_15" / "iccs.pgn"
LIMIT = 40_000
"""The child's file size limit: far below what each case writes, far above the old files."""


def _limit_files_to(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def run_limited(arguments: list[str], cwd: Path, limit: int = LIMIT,
                timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``arguments`` with files limited to ``limit`` bytes (Qt offscreen, this checkout on the path)."""
    environment = dict(os.environ, PYTHONPATH=str(REPOSITORY), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(arguments, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=lambda: _limit_files_to(limit))


def run_python(code: str, cwd: Path, limit: int = LIMIT) -> subprocess.CompletedProcess[str]:
    return run_limited([sys.executable, "-c", textwrap.dedent(code)], cwd, limit)


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def big_collection(tmp_path: Path, copies: int = 12) -> Path:
    """A PGN of 180 real games (some 135 kB), far over :data:`LIMIT`."""
    games = read_games(FIFTEEN).games * copies
    path = tmp_path / "big.pgn"
    path.write_text("".join(format_pgn(game) for game in games), encoding="utf-8")
    assert path.stat().st_size > 3 * LIMIT
    return path


def old_record(tmp_path: Path, name: str, plies: int | None = None) -> Path:
    """An existing one-game record (under the limit) that a bigger write will try to replace; its
    main line cut to ``plies`` when given."""
    path = tmp_path / name
    game = read_games(FIFTEEN).games[0]
    if plies is not None:
        game = Game.from_moves(game.mainline_moves()[:plies])
    write_games(path, [game])
    assert path.stat().st_size < LIMIT
    return path


@pytest.mark.parametrize("suffix", [".pgn", ".fen", ".ubb", ".xqf", ".txt"])
def test_every_record_writer_leaves_the_old_file_whole_on_a_full_disk(tmp_path, suffix):
    short = suffix == ".txt"  # a course history holds no comment: a longer game makes it bigger
    target = old_record(tmp_path, "old" + suffix, plies=10 if short else None)
    limit = target.stat().st_size + 10 if short else LIMIT
    original = target.read_bytes()
    several = suffix in (".pgn", ".fen", ".ubb")
    result = run_python(f"""
        from xqdesk.formats import read_games, write_games
        from xqdesk.formats.atomic_write import FileWriteError
        game = read_games({str(FIFTEEN)!r}).games[0]
        if {several!r}:
            games = read_games({str(FIFTEEN)!r}).games * 40
        else:  # one game a file: a long comment makes it big
            game.comment = "x" * {LIMIT * 2}
            games = [game]
        try:
            write_games({str(target)!r}, games)
        except FileWriteError as error:
            print("refused:", error)
        else:
            print("written")
        """, tmp_path, limit)
    assert result.returncode == 0, result.stderr
    assert f"refused: cannot write {target.name}: " in result.stdout, result.stdout
    assert "file size limit" in result.stdout and "the old file is unchanged" in result.stdout
    assert target.read_bytes() == original
    assert leftovers(tmp_path) == []


def test_convert_on_a_full_disk_keeps_the_existing_target(tmp_path):
    source = big_collection(tmp_path)
    target = old_record(tmp_path, "converted.pgn")
    original = target.read_bytes()
    result = run_limited([sys.executable, "-m", "xqdesk", "convert", str(source), str(target)], tmp_path)
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert "cannot write converted.pgn" in result.stderr and "file size limit" in result.stderr
    assert target.read_bytes() == original
    assert leftovers(tmp_path) == []


def test_window_save_and_autosave_on_a_full_disk_keep_the_old_files(tmp_path):
    one_game = old_record(tmp_path, "mine.pgn")
    saved_before = one_game.read_bytes()
    collection = tmp_path / "fifteen.pgn"
    shutil.copy(FIFTEEN, collection)
    collection_before = collection.read_bytes()
    autosave = tmp_path / "autosave.pgn"
    result = run_python(f"""
        from pathlib import Path
        from PySide6.QtCore import QEventLoop, QTimer
        from PySide6.QtWidgets import QApplication
        from xqdesk.ui.main_window import MainWindow
        from xqdesk.ui.base.settings import open_store

        app = QApplication([])
        window = MainWindow(settings_store=open_store({str(tmp_path / "s.ini")!r}), autosave_path={str(autosave)!r})
        reported = []
        window.files._report = reported.append
        window.files.autosave._report = reported.append

        def open_and_wait(path):
            loop = QEventLoop()
            window.files.loading_finished.connect(lambda shown: loop.quit())
            window.files.open_path(path)
            loop.exec()

        big_comment = "x" * {LIMIT * 2}
        open_and_wait({str(one_game)!r})
        window.controller.set_comment(big_comment)
        print("save one game:", window.files.save(), reported[-1] if reported else "")
        open_and_wait({str(collection)!r})
        window.files.show_game(window.files.record, 3)
        window.controller.set_comment(big_comment)
        print("save into the collection:", window.files.save(), reported[-1] if reported else "")
        window.controller.set_comment("small")
        window.files.autosave.write_now()  # a small autosave: written
        autosaved = Path({str(autosave)!r}).read_bytes()
        print("autosaved", len(autosaved))
        window.controller.set_comment(big_comment)
        window.files.autosave.write_now()  # too big for the disk
        print("autosave kept:", Path({str(autosave)!r}).read_bytes() == autosaved, reported[-1])
        window.shutdown()
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("save one game: False Could not save mine.pgn: cannot write mine.pgn:"), lines
    assert "file size limit" in lines[0]
    assert lines[1].startswith("save into the collection: False Could not save fifteen.pgn: cannot write fifteen.pgn")
    assert lines[3].startswith("autosave kept: True Could not save autosave.pgn: cannot write autosave.pgn")
    assert one_game.read_bytes() == saved_before
    assert collection.read_bytes() == collection_before
    assert leftovers(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions_and_a_link_stays_a_link(tmp_path):
    target = tmp_path / "game.pgn"
    target.write_bytes(b"old")
    target.chmod(0o640)
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    write_bytes_atomically(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_a_folder_that_is_gone_is_named_and_nothing_is_left(tmp_path):
    with pytest.raises(FileWriteError, match=r"cannot write game.pgn: its folder does not exist"):
        write_bytes_atomically(tmp_path / "gone" / "game.pgn", b"new")


def test_an_error_in_the_middle_of_writing_leaves_the_old_file(tmp_path):
    target = tmp_path / "games.pgn"
    target.write_bytes(b"old games")
    game = read_games(FIFTEEN).games[0]
    game.comment = "\U0001F600 is not GB2312"
    with pytest.raises(UnicodeEncodeError):
        from xqdesk.formats.pgn import write_pgn
        write_pgn(target, [read_games(FIFTEEN).games[1], game], encoding="gb2312")
    assert target.read_bytes() == b"old games"
    assert leftovers(tmp_path) == []


def test_a_full_disk_while_indexing_is_named_and_the_index_stays_whole(tmp_path):
    from xqdesk.position_index import open_index

    database = tmp_path / "games.xqidx"
    built = subprocess.run([sys.executable, "-m", "xqdesk", "index", str(database), str(FIFTEEN)],
                           capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env=dict(os.environ, PYTHONPATH=str(REPOSITORY)))
    assert built.returncode == 0, built.stderr
    source = big_collection(tmp_path)
    result = run_limited([sys.executable, "-m", "xqdesk", "index", str(database), str(source)], tmp_path,
                         limit=database.stat().st_size + 8192)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "could not be written" in result.stderr and "keeps the files indexed before" in result.stderr
    assert "damaged" not in result.stderr and "delete it" not in result.stderr
    with open_index(database) as index:  # as it was: the 15 games, none of the new file's
        assert index.game_count() == 15 and index.file_count() == 1
