"""Record readers under attack: paths that are no files, huge numbers, bad encodings, unclosed
comments, damaged bytes and match folders; nothing raises, no game is lost beyond its damage, and
every error names the file, the game (or the whole file) and the place."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import xqf_craft
from datafiles import GAMES
from fuzz_records import deep_pgn
from hang_guard import HANG_GUARD
from test_formats_course_match import _match

from xqdesk.cli import EXIT_CANNOT_WRITE, EXIT_INTERNAL_ERROR, EXIT_PROBLEMS, EXIT_USAGE, main
from xqdesk.errors import InvalidFenError
from xqdesk.fen import parse_fen
from xqdesk.formats import read_games
from xqdesk.formats.course_match import write_course_match
from xqdesk.formats.game_file import MAX_ERRORS, WHOLE_FILE

pytestmark = pytest.mark.engines

FIFTEEN_CHINESE = GAMES / "notation_15" / "chinese.pgn"
GB18030 = GAMES / "chinese_gb18030" / "eleeye_SAMPLE.PGN"
REPO = Path(__file__).resolve().parent.parent


def whole_file_reason(path: Path) -> str:
    game_file = read_games(path)
    assert game_file.games == [] and len(game_file.errors) == 1
    error = game_file.errors[0]
    assert error.game_number == WHOLE_FILE and "game 1" not in str(error)
    return str(error)


# --- paths that are no record files ----------------------------------------------------------------
def test_each_kind_of_non_file_is_named(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.pgn")
    (tmp_path / "zero.pgn").symlink_to("/dev/zero")
    (tmp_path / "loop.pgn").symlink_to(tmp_path / "loop.pgn")
    (tmp_path / "folder.pgn").mkdir()
    assert whole_file_reason(tmp_path / "pipe.pgn") == "pipe.pgn, whole file: not a regular file but a FIFO (named pipe)"
    assert whole_file_reason(tmp_path / "zero.pgn") == "zero.pgn, whole file: not a regular file but a character device"
    assert "a symlink loop" in whole_file_reason(tmp_path / "loop.pgn")
    assert "a folder, and not a course match folder" in whole_file_reason(tmp_path / "folder.pgn")
    assert whole_file_reason(tmp_path / "gone.pgn") == "gone.pgn, whole file: no such file or folder"


def test_a_file_read_whole_over_the_size_cap_is_refused_unread_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "big.xqf"
    path.write_bytes((GAMES / "xqf" / "eleeye_SAMPLE.XQF").read_bytes())
    reason = whole_file_reason_capped(path, 1000)
    assert "is larger than the 1,000 bytes a record file may have when it is read whole, as XQF files are" in reason
    assert "PGN and FEN files are read a game at a time and may be of any size" in reason


def test_a_pgn_file_over_the_size_cap_is_read_a_game_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "big.pgn"
    path.write_bytes(FIFTEEN_CHINESE.read_bytes())
    assert path.stat().st_size > 8000
    assert len(read_games(path, max_bytes=8000).games) == 15 and not read_games(path, max_bytes=8000).errors
    one_line = tmp_path / "one_line.pgn"  # the cap still bounds a game's text: no game is that long
    one_line.write_bytes(b'[Event "x"]\n\n' + b"1. h2e2 " * 2000)
    game_file = read_games(one_line, max_bytes=8000)
    assert "holds no new game for more than 8,000 bytes" in str(game_file.errors[-1])


def whole_file_reason_capped(path: Path, cap: int) -> str:
    game_file = read_games(path, max_bytes=cap)
    assert game_file.games == [] and game_file.errors[0].game_number == WHOLE_FILE
    return str(game_file.errors[0])


def test_an_empty_file_is_an_error_and_replay_check_fails(tmp_path: Path, capsys) -> None:
    for name in ("empty.pgn", "empty.fen", "empty.txt"):
        (tmp_path / name).write_bytes(b"")
        assert "no game found in the file" in whole_file_reason(tmp_path / name)
    assert main(["replay", "--check", str(tmp_path / "empty.pgn")]) == EXIT_PROBLEMS
    assert "1 read error" in capsys.readouterr().out


# --- numbers and digits -----------------------------------------------------------------------------
def test_huge_integers_are_errors_not_crashes(tmp_path: Path) -> None:
    huge = "9" * 5000
    cases = {
        "counter.fen": f"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 {huge}\n",
        "history.txt": f"[(9, 7, 7, 6, {huge})]",
        "number.pgn": f'[Event "x"]\n\n{huge}. h2e2 ${huge} h9g7 *\n',
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        game_file = read_games(tmp_path / name)
        assert all(len(str(error)) < 1000 for error in game_file.errors)
    assert read_games(tmp_path / "counter.fen").errors[0].where == "FEN tag"
    assert "not five integers" in str(read_games(tmp_path / "history.txt").errors[0])
    number = read_games(tmp_path / "number.pgn")
    assert number.errors == [] and [move.iccs() for move in number.games[0].mainline_moves()] == ["h2e2", "h9g7"]
    with pytest.raises(InvalidFenError, match="too large"):
        parse_fen(cases["counter.fen"].strip())


def test_non_ascii_digits_in_a_fen_are_refused_cleanly() -> None:
    for bad in ("rnbakabnr/²/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - ٣ 1"):
        with pytest.raises(InvalidFenError):
            parse_fen(bad)


def test_a_huge_integer_in_a_match_summary_is_a_bad_line(tmp_path: Path) -> None:
    folder = write_course_match(tmp_path, _match())
    summary = folder / "summary.txt"
    summary.write_bytes(summary.read_bytes().replace(b"is 2 : 3", b"is 2 : " + b"3" * 5000))
    game_file = read_games(folder)
    assert len(game_file.games) == 7
    assert any("unexpected line" in str(error) and len(str(error)) < 300 for error in game_file.errors)


# --- encodings, and the command line's exit codes --------------------------------------------------------
@pytest.mark.parametrize("name", ["undefined", "punycode", "rot13", "no-such-codec"])
def test_an_unusable_encoding_name_is_a_usage_error(name: str, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["replay", "--encoding", name, str(FIFTEEN_CHINESE)])
    assert stopped.value.code == EXIT_USAGE
    assert "argument --encoding: " in capsys.readouterr().err


def test_convert_to_a_missing_folder_or_a_full_disk_exits_3(tmp_path: Path, capsys) -> None:
    assert main(["convert", str(FIFTEEN_CHINESE), str(tmp_path / "no" / "such" / "out.pgn")]) == EXIT_CANNOT_WRITE
    assert "cannot write" in capsys.readouterr().err
    if Path("/dev/full").exists():
        (tmp_path / "full.pgn").symlink_to("/dev/full")
        assert main(["convert", str(FIFTEEN_CHINESE), str(tmp_path / "full.pgn")]) == EXIT_CANNOT_WRITE
        assert "the disk is full" in capsys.readouterr().err
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # written into, never replaced by a file


def test_a_crash_has_its_own_exit_code(monkeypatch, capsys) -> None:
    import xqdesk.cli.replay as replay

    def broken(_args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(replay, "run", broken)
    assert main(["replay", str(FIFTEEN_CHINESE)]) == EXIT_INTERNAL_ERROR != EXIT_PROBLEMS
    assert "internal error" in capsys.readouterr().err


# --- games not lost --------------------------------------------------------------------------------
def three_games() -> str:
    text = FIFTEEN_CHINESE.read_text(encoding="utf-8")
    starts = [index for index in range(len(text)) if text.startswith("[Event", index)]
    return text[:starts[3]]


def test_an_unclosed_comment_does_not_swallow_the_next_games(tmp_path: Path) -> None:
    text = three_games()
    first_move_end = text.index("炮二平五") + len("炮二平五")
    damaged = text[:first_move_end] + " { never closed" + text[first_move_end:]
    path = tmp_path / "brace.pgn"
    path.write_text(damaged, encoding="utf-8")
    game_file = read_games(path)
    intact = read_games_text(text)
    assert len(game_file.games) == 3
    assert [error.game_number for error in game_file.errors] == [1]
    assert "never closed" in str(game_file.errors[0]) and "line " in game_file.errors[0].where
    assert game_file.games[0].comment == "" and game_file.games[0].mainline_moves()[:1] == intact[0][:1]
    for game, moves in zip(game_file.games[1:], intact[1:]):
        assert game.mainline_moves() == moves and game.headers.get("Red")


def read_games_text(text: str) -> list[list]:
    from xqdesk.formats.pgn import parse_pgn

    return [game.mainline_moves() for game in parse_pgn(text).games]


def test_a_bad_byte_costs_only_its_game(tmp_path: Path) -> None:
    data = three_games().encode("utf-8")
    second = data.index(b"[Event", 10)
    bad_at = data.index("马".encode("utf-8"), second)
    path = tmp_path / "bad_byte.pgn"
    path.write_bytes(data[:bad_at] + b"\xff" + data[bad_at + 1:])
    game_file = read_games(path)
    intact = read_games_text(three_games())
    assert game_file.encoding == "utf-8"
    assert game_file.games[0].mainline_moves() == intact[0] and game_file.games[2].mainline_moves() == intact[2]
    assert {error.game_number for error in game_file.errors} == {2}
    decoding = [error for error in game_file.errors if "cannot be decoded as utf-8" in error.reason]
    assert decoding and decoding[0].where.startswith("line ") and f"byte {bad_at}" in decoding[0].where


def test_a_file_cut_mid_character_keeps_every_game_before_the_cut(tmp_path: Path) -> None:
    data = three_games().encode("utf-8")
    last_chinese = data.rindex("五".encode("utf-8"))
    path = tmp_path / "cut.pgn"
    path.write_bytes(data[:last_chinese + 1])
    game_file = read_games(path)
    intact = read_games_text(three_games())
    assert [game.mainline_moves() for game in game_file.games[:2]] == intact[:2]
    assert game_file.damaged_game_numbers == {3}


def test_a_legacy_file_with_a_bad_byte_stays_gb18030(tmp_path: Path) -> None:
    data = GB18030.read_bytes()
    games = (data + b"\n\n") * 3
    second = len(data) + 2
    position = games.index("红".encode("gb18030"), second)
    path = tmp_path / "legacy.pgn"
    path.write_bytes(games[:position] + b"\xff\xff" + games[position + 2:])
    game_file = read_games(path)
    assert game_file.encoding == "gb18030"
    assert len(game_file.games) == 3 and game_file.damaged_game_numbers == {2}
    assert game_file.games[0].headers == game_file.games[2].headers
    assert game_file.games[0].headers["Red"] == "许银川"


def test_an_xqf_tree_offset_past_the_end_is_an_error(tmp_path: Path) -> None:
    data = bytearray(xqf_craft.main_line(["h2e2", "h9g7"]))
    data[56:60] = (10_000).to_bytes(4, "little")
    path = tmp_path / "offset.xqf"
    path.write_bytes(bytes(data))
    game_file = read_games(path)
    assert len(game_file.errors) == 1 and "past the end of the file" in str(game_file.errors[0])


def test_one_bad_game_file_or_a_bom_does_not_reject_a_match_folder(tmp_path: Path) -> None:
    folder = write_course_match(tmp_path, _match())
    summary = folder / "summary.txt"
    summary.write_bytes(b"\xef\xbb\xbf" + summary.read_bytes())
    (folder / "Game 3.txt").write_bytes(b"\xff\xfe garbage")
    cut = (folder / "Game 5.txt").read_bytes()
    (folder / "Game 5.txt").write_bytes(cut[:len(cut) // 2])
    game_file = read_games(folder)
    assert len(game_file.games) == 7
    assert game_file.damaged_game_numbers == {3, 5}
    assert [str(error).split(":")[0] for error in game_file.errors] == [
        "Player 1 VS Player 3/Game 3.txt, game 3, entry 1", "Player 1 VS Player 3/Game 5.txt, game 5, entry 66"]
    assert len(game_file.games[4].mainline_moves()) > 0  # game 5 up to the cut
    assert game_file.games[6].headers["Round"] == "7" and game_file.games[6].headers["Black"] == "Player 3"


def test_a_wrong_finally_line_is_reported(tmp_path: Path) -> None:
    folder = write_course_match(tmp_path, _match())
    summary = folder / "summary.txt"
    summary.write_bytes(summary.read_bytes().replace(b"Finally Player 3 wins and Player 1 loses!",
                                                     b"Finally Player 1 wins and Player 3 loses!"))
    game_file = read_games(folder)
    assert len(game_file.games) == 7 and len(game_file.errors) == 1
    error = game_file.errors[0]
    assert error.game_number == WHOLE_FILE and error.where == "summary.txt, line 10"
    assert "Player 3 wins and Player 1 loses" in error.reason


# --- error texts and cost ------------------------------------------------------------------------------
def test_a_huge_bad_token_gives_a_short_message(tmp_path: Path) -> None:
    path = tmp_path / "token.pgn"
    path.write_text('[Event "x"]\n\n1. ' + "Z" * 1_000_000 + " *\n")
    error = read_games(path).errors[0]
    assert len(str(error)) < 1000 and "1,000,000 characters" in str(error)


def test_errors_far_down_a_file_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "braces.pgn"
    path.write_text('[Event "x"]\n\n' + "1. } \n" * 5000)
    errors = read_games(path).errors
    assert len(errors) == MAX_ERRORS + 1  # the first thousand, then how many more
    assert errors[MAX_ERRORS - 1].where.startswith(f"line {MAX_ERRORS + 2},")
    assert str(errors[-1]).endswith(f"{5000 - MAX_ERRORS:,} more errors, not listed (the first {MAX_ERRORS:,} are)")


def test_a_huge_tag_value_takes_memory_in_proportion(tmp_path: Path) -> None:
    path = tmp_path / "tag.pgn"
    path.write_text('[Event "' + "a" * 2_000_000 + '"]\n\n1. h2e2 h9g7 *\n')
    tracemalloc.start()
    try:
        game_file = read_games(path)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert game_file.errors == [] and len(game_file.games[0].headers["Event"]) == 2_000_000
    assert peak < 10 * path.stat().st_size, f"{peak:,} bytes for a {path.stat().st_size:,}-byte file"


# --- deep nesting through the command line ---------------------------------------------------------------
@pytest.mark.parametrize("kind", ["pgn", "xqf"])
def test_thousand_deep_variations_replay_check_and_convert(tmp_path: Path, kind: str, capsys) -> None:
    path = tmp_path / f"deep.{kind}"
    if kind == "pgn":
        path.write_text(deep_pgn(1000))
    else:
        path.write_bytes(xqf_craft.deep_variations(1000))
    assert main(["replay", "--check", str(path)]) == 0
    assert "1 agree" in capsys.readouterr().out
    out = tmp_path / "out.pgn"
    assert main(["convert", str(path), str(out)]) == 0
    again = read_games(out)
    assert again.errors == [] and sum(1 for _ in again.games[0].walk()) == 2001


# --- the window given a bad file ---------------------------------------------------------------------------
def test_the_window_starts_on_a_fifo_a_device_or_a_loop(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.pgn")
    (tmp_path / "zero.pgn").symlink_to("/dev/zero")
    (tmp_path / "loop.pgn").symlink_to(tmp_path / "loop.pgn")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO), HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    for name in ("pipe.pgn", "zero.pgn", "loop.pgn"):
        shot = tmp_path / f"{name}.png"
        done = subprocess.run([sys.executable, str(REPO / "main.py"), "--screenshot", str(shot), str(tmp_path / name)],
                              env=env, capture_output=True, text=True, timeout=HANG_GUARD)
        assert done.returncode == 0, done.stderr
        assert shot.is_file()
