"""Big collections: a PGN file over 16 MiB (more than a file read whole may be) is replayed,
converted and indexed from the command line and opened in the window's game list; reading it
takes memory that does not grow with the number of games; the CCPD master collection, when it
stands beside the clone, indexes and explores."""
from __future__ import annotations

import lzma
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from datafiles import GAMES
from hang_guard import HANG_GUARD_MS
from window_files import open_file

from xqdesk.cli import main
from xqdesk.formats import StoredGames, open_games, read_games
from xqdesk.formats.record_file import MAX_RECORD_BYTES
from xqdesk.position_index import open_index

pytestmark = pytest.mark.engines

REPO = Path(__file__).resolve().parent.parent
MASTER_GAMES = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
CCPD = GAMES / "ccpd" / "master_games.pgn.xz"
"""The 27,321 master games of the Chinese Chess Practical Dataset (CC BY 4.0; see its README)."""
_GAME_TEXT = re.compile(r"(?ms)^\[Event .*?(?=^\[Event |\Z)")


def real_games() -> list[tuple[list[str], str]]:
    """The tag lines (but Event) and the movetext of each game of a real 1,391-game file."""
    games = []
    for text in _GAME_TEXT.findall(MASTER_GAMES.read_text(encoding="utf-8")):
        head, _blank, moves = text.partition("\n\n")
        games.append(([line for line in head.splitlines()[1:]], moves.strip()))
    return games


def write_collection(path: Path, count: int, padding: int = 0) -> Path:
    """``count`` real games, cycled, each with its own Event and Round (and a comment of
    ``padding`` characters after its tags), as one PGN file."""
    games = real_games()
    comment = "{" + ("a long note on the opening " * (padding // 27 + 1))[:padding] + "}\n" if padding else ""
    with path.open("w", encoding="utf-8") as out:
        for number in range(1, count + 1):
            tags, moves = games[(number - 1) % len(games)]
            out.write(f'[Event "Big collection {number}"]\n[Round "{number}"]\n' + "\n".join(tags)
                      + f"\n\n{comment}{moves}\n\n")
    return path


@pytest.fixture(scope="module")
def big_pgn(tmp_path_factory) -> tuple[Path, int]:
    """A PGN file just over 16 MiB of real games with long comments, and how many games it holds."""
    count = 2000
    path = write_collection(tmp_path_factory.mktemp("big") / "big.pgn", count, padding=8000)
    assert path.stat().st_size > MAX_RECORD_BYTES
    return path, count


def test_a_pgn_over_16_mib_is_replayed_converted_and_indexed(big_pgn, tmp_path, capsys) -> None:
    path, count = big_pgn
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.count("\nGame ") + out.startswith("Game ") == count and not err
    assert f"Game {count} of big.pgn\n  Event: Big collection {count}\n" in out

    converted = tmp_path / "converted.fen"
    assert main(["convert", str(path), str(converted)]) == 0
    assert f"wrote {count:,} games from big.pgn (PGN)" in capsys.readouterr().out.replace(f"{count}", f"{count:,}")
    assert len(converted.read_text(encoding="utf-8").splitlines()) == count
    again = read_games(converted)
    assert len(again.games) == count and not again.errors

    database = tmp_path / "big.sqlite"
    assert main(["index", str(database), str(path)]) == 0
    assert f"({count:,} games" in capsys.readouterr().out.replace(f"{count} games", f"{count:,} games")
    with open_index(database) as index:
        assert index.game_count() == count


def test_the_game_list_opens_a_pgn_over_16_mib_and_reads_a_game_when_it_is_opened(qtbot, window, big_pgn) -> None:
    path, count = big_pgn
    files = window.files
    assert open_file(qtbot, window, path, timeout=HANG_GUARD_MS * 10)
    table = files.game_table
    qtbot.addWidget(table)
    assert table.row_count() == count
    assert table.text(count - 1, table.COLUMNS.index("Event")) == f"Big collection {count}"
    # The list keeps where each game lies, not the games: the one chosen is read when opened.
    assert isinstance(files.record.games, StoredGames)
    last = table.game_index(count - 1)
    assert files.show_game(files.record, last)
    game = window.controller.game()
    assert game.headers["Round"] == str(count) and game.headers["Event"] == f"Big collection {count}"
    assert len(game.mainline_moves()) == table.model.rows[count - 1].plies > 0


_PEAK = """
import sys
from xqdesk.cli import main
code = main(sys.argv[1:])
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
print("PEAK", int(peak.split()[1]), code, file=sys.stderr)
"""


def _peak_kib(arguments: list[str], cwd: Path) -> int:
    """The peak resident memory (KiB) of ``xqdesk ARGUMENTS`` run in a process of its own."""
    done = subprocess.run([sys.executable, "-c", _PEAK, *arguments], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=HANG_GUARD_MS / 100, check=False)
    found = re.search(r"PEAK (\d+) (\d+)", done.stderr)
    assert found is not None and found.group(2) == "0", done.stderr[-2000:]
    return int(found.group(1))


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="peak memory is read from /proc")
def test_reading_four_times_more_games_takes_no_more_memory(tmp_path) -> None:
    """Peak memory of replay, convert and index for 250 and 1,000 annotated games (a 16 kB
    comment each): a reader holding every game holds every comment too (half as much memory again
    for four times the games); one that reads a game at a time needs about the same for both."""
    small = write_collection(tmp_path / "small.pgn", 250, padding=16000)
    large = write_collection(tmp_path / "large.pgn", 1000, padding=16000)
    for command in (["replay", "--check"], ["convert"], ["index"]):
        peaks = []
        for path in (small, large):
            if command == ["convert"]:
                arguments = ["convert", str(path), str(tmp_path / f"{path.stem}.fen")]
            elif command == ["index"]:
                arguments = ["index", "--quiet", str(tmp_path / f"{path.stem}.sqlite"), str(path)]
            else:
                arguments = [*command, str(path)]
            peaks.append(_peak_kib(arguments, tmp_path))
        assert peaks[1] < peaks[0] * 1.15, f"{command[0]}: {peaks[0]:,} KiB for 250 games, {peaks[1]:,} KiB for 1,000"


def test_a_stream_holds_no_game_it_has_handed_on(tmp_path) -> None:
    path = write_collection(tmp_path / "games.pgn", 40)
    stream = open_games(path)
    numbers = [read.number for read in stream]
    assert numbers == list(range(1, 41)) and stream.games_read == 40 and not stream.errors
    assert stream.format == "PGN" and stream.encoding == "utf-8"
    with pytest.raises(RuntimeError, match="read once"):
        list(stream)


def test_the_ccpd_master_collection_reads_whole(tmp_path) -> None:
    """27,321 master games, 25 MB: every one reads, with no error."""
    path = tmp_path / "master_games.pgn"
    path.write_bytes(lzma.decompress(CCPD.read_bytes()))
    stream = open_games(path)
    count = sum(1 for _read in stream)
    assert count == 27321 and not stream.errors
