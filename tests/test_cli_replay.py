"""The replay and convert commands on real records: printing, --check on match folders, conversion."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from datafiles import DATA
from hang_guard import HANG_GUARD

from xqdesk.cli import main
from xqdesk.formats import read_games
from xqdesk.formats.course_match import CourseGameResult, CourseMatch, write_course_match
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED

DATA = DATA
ROOT = Path(__file__).resolve().parents[1]


def _history(index: int) -> tuple[tuple[int, int, int, int, int], ...]:
    path = DATA / "course_legal_vectors.jsonl"
    with path.open() as lines:
        for number, line in enumerate(lines):
            if number == index:
                return tuple(tuple(entry) for entry in json.loads(line)["history"])
    raise IndexError(index)


def _match_folder(parent: Path) -> Path:
    """A 6-game match whose recorded outcomes all fit the histories (Player 1 wins 4 : 2)."""
    plan = [  # (number, red, black, outcome, vector whose history the game replays)
        (1, 1, 2, Outcome.no_legal_moves(BLACK), 1038),    # Black is mated at the end
        (2, 1, 2, Outcome.timeout(BLACK), 0),              # Black to move at the end
        (3, 1, 2, Outcome.illegal_move(RED, "returned None"), 5),  # Red to move at the end
        (4, 2, 1, Outcome.timeout(BLACK), 1),
        (5, 2, 1, Outcome.timeout(RED), 6),
        (6, 2, 1, Outcome.timeout(RED), 11),
    ]
    games = tuple(CourseGameResult(number, red, black, outcome.winner, outcome.text, _history(vector))
                  for number, red, black, outcome, vector in plan)
    return write_course_match(parent, CourseMatch(1, 2, games))


def test_check_on_a_consistent_match_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _match_folder(tmp_path)
    assert main(["replay", str(folder), "--check"]) == 0
    out = capsys.readouterr().out
    assert "Game 1 of Player 1 VS Player 2" in out
    assert "Red: Player 1" in out and "Outcome: Black loses the game. Red wins! (1-0)" in out
    assert out.rstrip().splitlines()[-1] == ("checked 6 games of Player 1 VS Player 2: 6 agree, 0 differ, "
                                             "0 with illegal or damaged moves, 0 read errors")


def test_check_finds_a_history_that_does_not_fit_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _match_folder(tmp_path)
    game_1 = folder / "Game 1.txt"
    history = list(_history(1038))[:-1]  # without the mating move the game is not over
    game_1.write_text(repr(history))
    game_3 = folder / "Game 3.txt"
    game_3.write_text(repr(list(_history(0))))  # Black to move, but the summary says Red moved illegally
    assert main(["replay", str(folder), "--check"]) == 1
    out = capsys.readouterr().out
    assert "Check: DIFFERS: the record says 'Black loses the game. Red wins!' but the game is not over" in out
    assert "Check: DIFFERS: 'Red moves illegally, Black wins! (returned None)' off the board, with Black to move" in out
    assert out.rstrip().splitlines()[-1].startswith("checked 6 games of Player 1 VS Player 2: 4 agree, 2 differ,")


def test_check_reports_an_illegal_history_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _match_folder(tmp_path)
    (folder / "Game 2.txt").write_text("[(9, 7, 7, 6, 0), (9, 7, 7, 6, 0)]")
    assert main(["replay", str(folder), "--check"]) == 1
    captured = capsys.readouterr()
    assert "Game 2.txt, game 2, entry 2, move 1 (Black)" in captured.err
    assert "1 with illegal or damaged moves, 1 read error" in captured.out


def test_replay_prints_chinese_moves_from_a_gb18030_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "games" / "chinese_gb18030" / "eleeye_01.宝岛一号(先负)相眼竞技(A1-A2).PGN"
    assert main(["replay", str(path), "--notation", "chinese", "--check"]) == 0
    out = capsys.readouterr().out
    assert "Site: 北京中国科技馆" in out
    assert "Moves: 1. 炮八平五 马２进３ 2. 马八进七 车１平２" in out
    assert "Outcome: Black wins (0-1)" in out


def test_convert_pgn_to_a_match_folder_and_back(tmp_path: Path) -> None:
    folder = _match_folder(tmp_path / "original")
    pgn = tmp_path / "match.pgn"
    assert main(["convert", str(folder), str(pgn), "--notation", "wxf"]) == 0
    again = tmp_path / "again" / "Player 1 VS Player 2"
    again.parent.mkdir()
    assert main(["convert", str(pgn), str(again)]) == 0
    for path in folder.iterdir():
        assert (again / path.name).read_bytes() == path.read_bytes()


def test_convert_xqf_to_pgn_and_fen(tmp_path: Path) -> None:
    source = DATA / "games" / "xqf" / "cchess_ucci_test1.xqf"
    (original,) = read_games(source).games
    for name in ("game.pgn", "game.fen", "game.xqf", "game.ubb"):
        assert main(["convert", str(source), str(tmp_path / name)]) == 0
        (back,) = read_games(tmp_path / name).games
        assert back.mainline_moves() == original.mainline_moves()
        assert back.start_fen == original.start_fen


def test_convert_refuses_what_a_format_cannot_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = DATA / "games" / "notation_15" / "iccs.pgn"
    assert main(["convert", str(source), str(tmp_path / "one.txt")]) == 1
    assert "a course history holds one game, not 15" in capsys.readouterr().err
    assert main(["convert", str(source), str(tmp_path / "out.xqf")]) == 1
    assert "an XQF file holds one game, not 15" in capsys.readouterr().err


def test_command_line_runs_as_a_module(tmp_path: Path) -> None:
    folder = _match_folder(tmp_path)
    result = subprocess.run([sys.executable, "-m", "xqdesk", "replay", str(folder), "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=HANG_GUARD)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().splitlines()[-1].startswith("checked 6 games")
