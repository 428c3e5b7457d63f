"""FEN reading and writing, and the errors bad FEN gets."""
import pytest

from xqdesk import BLACK, RED, Board, InvalidFenError
from xqdesk.fen import STARTING_FEN, parse_fen


def test_round_trip_of_the_start_position():
    assert Board(STARTING_FEN).fen() == STARTING_FEN


@pytest.mark.parametrize("text, turn, halfmove, fullmove", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", RED, 0, 1),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r", RED, 0, 1),
    ("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b 3 7", BLACK, 3, 7),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", RED, 0, 1),
])
def test_accepted_variants(text, turn, halfmove, fullmove):
    fields = parse_fen(text)
    assert (fields.turn, fields.halfmove_clock, fields.fullmove_number) == (turn, halfmove, fullmove)
    assert Board(text).fen().split()[0] == STARTING_FEN.split()[0]


@pytest.mark.parametrize("text, message", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "rank 0 ('RNBAKABNRR') has 10 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "has 9 ranks, expected 10"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNx w", "unknown piece letter 'x' in rank 0"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKKBNR w", "2 red kings, expected 1"),
    ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/k8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "black king outside its palace on a4"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4P4/RNBAKABNR w", "red pawn on e1, behind its starting point"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move 'x'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1", "move counter 'z'"),
    ("", "empty FEN"),
])
def test_bad_fen_says_what_and_where(text, message):
    with pytest.raises(InvalidFenError) as error:
        Board(text)
    assert message in str(error.value)
