"""Course history files: parsing as data, the exact repr, replay with capture checks."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from datafiles import COURSE_VECTORS

from xqdesk.errors import RecordFormatError
from xqdesk.formats.course_history import (
    format_course_history,
    game_from_course_history,
    parse_course_history,
    read_course_history,
    write_course_history,
)
from xqdesk.game import Game

VECTORS = COURSE_VECTORS


def _vectors(count: int) -> list[dict]:
    with VECTORS.open() as lines:
        return [json.loads(line) for _, line in zip(range(count), lines)]


def test_parse_accepts_the_repr_and_hand_written_variants() -> None:
    assert parse_course_history("[(9, 7, 7, 6, 0), (0, 1, 2, 2, 0)]") == [(9, 7, 7, 6, 0), (0, 1, 2, 2, 0)]
    assert parse_course_history(" [ [9,7,7,6,0] ,(0, 1, 2, 2, 0,), ]\r\n") == [(9, 7, 7, 6, 0), (0, 1, 2, 2, 0)]
    assert parse_course_history("[]") == []
    assert parse_course_history("[(7, 1, 0, 1, -4)]") == [(7, 1, 0, 1, -4)]
    assert parse_course_history("[(np.int64(9), np.int64(7), 7, numpy.int32(6), 0)]") == [(9, 7, 7, 6, 0)]


@pytest.mark.parametrize("text, fragment", [
    ("(9, 7, 7, 6, 0)", "is a list"),
    ("[(9, 7, 7, 6)]", "entry 1 of the course history is not five integers"),
    ("[(9, 7, 7, 6, 0) (0, 1, 2, 2, 0)]", "expected ',' after entry 1"),
    ("[(9, 7, 7, 6, 0), __import__('os')]", "entry 2"),
])
def test_parse_rejects_anything_else(text: str, fragment: str) -> None:
    with pytest.raises(RecordFormatError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_course_history(text)


def test_format_is_exactly_the_python_repr() -> None:
    history = [(9, 7, 7, 6, 0), (0, 1, 2, 2, 0), (7, 1, 0, 1, -4)]
    assert format_course_history(history) == repr(history)
    assert format_course_history([[9, 7, 7, 6, 0]]) == "[(9, 7, 7, 6, 0)]"


def test_real_course_histories_replay_to_the_recorded_boards() -> None:
    for vector in _vectors(80):
        game, error = game_from_course_history(vector["history"])
        assert error is None
        assert [list(row) for row in game.end_board().to_course_board()] == vector["board"]
        assert game.course_history() == [tuple(entry) for entry in vector["history"]]


def test_wrong_capture_and_illegal_move_are_reported() -> None:
    game, error = game_from_course_history([(9, 7, 7, 6, 0), (0, 1, 2, 2, 5)], "Game 2.txt", 2)
    assert len(game) == 1
    assert str(error).startswith("Game 2.txt, game 2, entry 2, move 1 (Black): '(0, 1, 2, 2, 5)': records capture 5")
    game, error = game_from_course_history([(9, 7, 5, 7, 0)], "Game 1.txt")
    assert game.mainline() == []
    assert "entry 1, move 1 (Red)" in str(error) and "h0h4 is not legal" in str(error)


def test_file_round_trip(tmp_path: Path) -> None:
    history = _vectors(2)[1]["history"]
    game, _ = game_from_course_history(history)
    path = tmp_path / "Game 1.txt"
    write_course_history(path, game)
    assert path.read_bytes() == repr([tuple(entry) for entry in history]).encode()
    game_file = read_course_history(path)
    assert game_file.errors == []
    assert game_file.games[0].mainline_moves() == game.mainline_moves()


def test_only_games_from_the_start_position_can_be_written(tmp_path: Path) -> None:
    game = Game(start_fen="4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    with pytest.raises(RecordFormatError, match="starts from the start position"):
        write_course_history(tmp_path / "x.txt", game)


def test_damaged_file_gives_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "Game 3.txt"
    path.write_bytes(b"[(9, 7, 7, 6, 0), (0, 1, 2")
    game_file = read_course_history(path, game_number=3)
    assert [move.iccs() for move in game_file.games[0].mainline_moves()] == ["h0g2"]  # the intact entry is kept
    assert str(game_file.errors[0]).startswith("Game 3.txt, game 3, entry 2: ")
