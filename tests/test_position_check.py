"""Every reason a set-up position is impossible, worded as the FEN reader words it."""
from __future__ import annotations

import pytest

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN, parse_fen
from xqdesk.pieces import BLACK, RED
from xqdesk.position_check import ProblemKind, find_position_problems, position_problems
from xqdesk.squares import parse_square


def codes_of(fen: str) -> list[int]:
    return list(parse_fen(fen, check_position=False).codes)


def place(codes: list[int], name: str, code: int) -> list[int]:
    changed = list(codes)
    changed[parse_square(name)] = code
    return changed


def test_the_starting_position_has_no_problem():
    assert position_problems(codes_of(STARTING_FEN), RED) == []
    assert position_problems(codes_of(STARTING_FEN), BLACK) == []


def test_kings_facing_on_an_open_file_are_reported():
    codes = codes_of("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    problems = find_position_problems(codes, RED)
    assert [p.kind for p in problems] == [ProblemKind.KINGS_FACING]
    assert problems[0].text == "the two kings face each other on file e"
    blocked = place(codes, "e5", 4)
    assert position_problems(blocked, RED) == []


def test_the_side_that_just_moved_may_not_stand_in_check():
    codes = codes_of("3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1")  # the chariot on d5 checks the king on d9
    assert [p.kind for p in find_position_problems(codes, BLACK)] == []
    problems = find_position_problems(codes, RED)
    assert [p.kind for p in problems] == [ProblemKind.WAITING_SIDE_IN_CHECK]
    assert problems[0].text == "red is to move but the other king is in check"
    with pytest.raises(InvalidFenError, match="red is to move but the other king is in check"):
        Board("3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1")  # the board reading a FEN says the same


def test_pawn_behind_its_start_and_pieces_outside_their_points_use_the_fen_readers_words():
    codes = codes_of(STARTING_FEN)
    codes = place(codes, "a3", 0)
    codes = place(codes, "b3", 1)  # a red pawn on a file where no pawn can stand before the river
    codes = place(codes, "d1", 2)  # a red advisor on the middle of the palace's edge
    problems = find_position_problems(codes, RED)
    kinds = [p.kind for p in problems]
    assert kinds == [ProblemKind.MISPLACED, ProblemKind.MISPLACED, ProblemKind.TOO_MANY]
    for problem in problems[:2]:
        fen_text = problem.text
        with pytest.raises(InvalidFenError) as raised:
            parse_fen(_fen_with_single_problem(problem.square, codes))
        assert fen_text in str(raised.value)
    assert problems[2].text == "3 red advisors, at most 2"


def _fen_with_single_problem(sq: int, codes: list[int]) -> str:
    """The starting position plus only the piece on ``sq`` from ``codes``."""
    from xqdesk.fen import format_fen
    start = codes_of(STARTING_FEN)
    start[sq] = codes[sq]
    return format_fen(start, RED, 0, 1)


def test_a_missing_king_and_too_many_kings_are_both_reported():
    codes = place(codes_of(STARTING_FEN), "e9", 0)
    codes = place(codes, "d0", 7)
    texts = position_problems(codes, RED)
    assert "0 black kings, expected 1" in texts
    assert "2 red kings, expected 1" in texts


def test_a_wrong_number_of_codes_is_refused_with_the_input():
    with pytest.raises(ValueError, match="90 squares"):
        find_position_problems([0] * 10, RED)
