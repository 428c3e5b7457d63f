"""Course match folders: byte-exact writing, reading back, and the match arithmetic."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from datafiles import COURSE_VECTORS

from xqdesk.errors import RecordFormatError
from xqdesk.formats.course_match import CourseGameResult, CourseMatch, read_course_match, write_course_match
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED

VECTORS = COURSE_VECTORS

EXPECTED_SUMMARY = (
    b"Playing game: Player 1 VS Player 3\r\n"
    b"Game 1: Draw: Both sides have not eaten in sixty rounds, draw!\r\n"
    b"Game 2: Player 1 wins by taking red: Black loses the game. Red wins!\r\n"
    b"Game 3: Player 3 wins by taking black: Red timeout, Black wins!\r\n"
    b"Game 4: Player 1 wins by taking black: Red loses the game. Black wins!\r\n"
    b"Game 5: Player 3 wins by taking red: Black moves illegally, Red wins!\r\n"
    b"Game 6: Draw: Both sides have not eaten in sixty rounds, draw!\r\n"
    b"Game 7: Player 3 wins by taking black(draw): Both sides have not eaten in sixty rounds, draw!\r\n"
    b"Player 1 : Player 3 is 2 : 3\r\n"
    b"Finally Player 3 wins and Player 1 loses!"
)


def _histories(count: int) -> list[tuple[tuple[int, int, int, int, int], ...]]:
    with VECTORS.open() as lines:
        vectors = [json.loads(line) for _, line in zip(range(count * 3), lines)]
    return [tuple(tuple(entry) for entry in vector["history"]) for vector in vectors[::3]][:count]


def _match() -> CourseMatch:
    draw = Outcome.capture_free_draw()
    plan = [  # (number, red id, black id, outcome)
        (1, 1, 3, draw), (2, 1, 3, Outcome.no_legal_moves(BLACK)), (3, 1, 3, Outcome.timeout(RED)),
        (4, 3, 1, Outcome.no_legal_moves(RED)), (5, 3, 1, Outcome.illegal_move(BLACK)), (6, 3, 1, draw),
        (7, 1, 3, draw),
    ]
    histories = _histories(len(plan))
    return CourseMatch(1, 3, tuple(
        CourseGameResult(number, red, black, outcome.winner, outcome.text, history)
        for (number, red, black, outcome), history in zip(plan, histories)))


def test_match_arithmetic() -> None:
    match = _match()
    assert (match.wins_i, match.wins_j) == (2, 3)
    assert match.winner_id == 3 and match.loser_id == 1
    assert match.games[6].counts_for == 3  # a playoff draw counts for Black
    assert match.games[0].counts_for is None


def test_written_folder_is_byte_for_byte_the_course_format(tmp_path: Path) -> None:
    match = _match()
    folder = write_course_match(tmp_path, match)
    assert folder == tmp_path / "Player 1 VS Player 3"
    assert (folder / "summary.txt").read_bytes() == EXPECTED_SUMMARY
    names = sorted(path.name for path in folder.iterdir())
    assert names == [f"Game {n}.txt" for n in range(1, 8)] + ["summary.txt"]
    for game in match.games:
        assert (folder / f"Game {game.number}.txt").read_bytes() == repr(list(game.history)).encode()


def test_round_trip_reads_the_same_match_and_rewrites_the_same_bytes(tmp_path: Path) -> None:
    match = _match()
    folder = write_course_match(tmp_path / "first", match)
    again = read_course_match(folder)
    assert again == match
    second = write_course_match(tmp_path / "second", again)
    for path in folder.iterdir():
        assert (second / path.name).read_bytes() == path.read_bytes()


def test_reader_accepts_unix_line_endings(tmp_path: Path) -> None:
    folder = write_course_match(tmp_path, _match())
    summary = folder / "summary.txt"
    summary.write_bytes(summary.read_bytes().replace(b"\r\n", b"\n") + b"\n")
    assert read_course_match(folder) == _match()


def test_undecided_match_cannot_be_written(tmp_path: Path) -> None:
    match = _match()
    undecided = CourseMatch(1, 3, match.games[:6])
    assert undecided.winner_id is None
    with pytest.raises(RecordFormatError, match="undecided at 2 : 2"):
        write_course_match(tmp_path, undecided)


@pytest.mark.parametrize("old, new, fragment", [
    (b"is 2 : 3", b"is 3 : 3", "states 3 : 3 but its game lines give 2 : 3"),
    (b"Game 2: Player 1 wins by taking red", b"Game 2: Player 1 wins by taking black",
     "player 1 cannot have played black in game 2"),
    (b"Game 6: Draw", b"Game 6 Draw", "line 7: unexpected line"),
])
def test_damaged_summary_is_reported(tmp_path: Path, old: bytes, new: bytes, fragment: str) -> None:
    folder = write_course_match(tmp_path, _match())
    summary = folder / "summary.txt"
    summary.write_bytes(summary.read_bytes().replace(old, new))
    with pytest.raises(RecordFormatError, match=fragment):
        read_course_match(folder)


def test_missing_game_file_is_reported(tmp_path: Path) -> None:
    folder = write_course_match(tmp_path, _match())
    (folder / "Game 5.txt").unlink()
    with pytest.raises(RecordFormatError, match="Game 5.txt is missing"):
        read_course_match(folder)
