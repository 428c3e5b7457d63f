"""Move notation on known strings: ICCS, Fairy-Stockfish squares, WXF, Chinese, tandem pieces, errors."""
import json

import pytest
from datafiles import COURSE_VECTORS

from xqdesk.board import Board
from xqdesk.errors import AmbiguousMoveError, IllegalMoveError
from xqdesk.move import Move
from xqdesk.notation import Notation, detect_notation, format_line, format_move, parse_line, parse_move

COURSE_VECTORS = COURSE_VECTORS
START = Board()
AFTER_CENTRAL_CANNON = Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")

# Tandem positions: the convention of xqdesk.notation.tandem, written out.
TWO_TANDEM_FILES_RED = "5k3/9/4P4/2P1P4/2P1P4/9/9/9/9/3K5 w - - 0 1"     # e7 e6 e5, c6 c5
THREE_PAWNS = "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1"                 # e7 e6 e5
FOUR_PAWNS = "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1"                # e8 .. e5
FIVE_PAWNS = "3P1k3/3P5/3P5/3P5/3P5/9/9/9/9/4K4 w - - 0 1"              # d9 .. d5
TWO_TANDEM_FILES_BLACK = "3k5/9/9/9/9/4p4/2p1p4/2p1p4/9/5K3 b - - 0 1"  # e4 e3 e2, c3 c2
TWO_CHARIOTS = "3k5/9/9/9/9/2R6/9/2R6/9/4K4 w - - 0 1"                  # c4 c2
TWO_ADVISORS = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1"                   # d2 d0
TWO_ELEPHANTS = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1"                 # c4 c0
STACKED_CHARIOTS = "3k5/9/9/9/9/9/R8/R8/9/4K4 w - - 0 1"                # a3 a2
# Positions from a public bug report on xqbase's single count over two files (一兵平四, 一卒平5).
XQBASE_TWO_FILES_RED = "3a1kb2/2P1a1P1R/1RC6/n1N2PPc1/2b6/2B2pNr1/2P6/2n2App1/2p2K1p1/2B2ArC1 w - - 0 1"
XQBASE_TWO_FILES_BLACK = "3a5/5k3/b3P2Rb/9/9/5p3/3p5/9/3p1p1p1/2B1K2n1 b - - 0 1"
XQBASE_FOUR_PAWNS_BLACK = "1R1cka3/4a4/9/9/p8/p8/p8/p8/9/4K4 b - - 0 1"


@pytest.mark.parametrize("board, iccs, uci, wxf, chinese", [
    (START, "h2e2", "h3e3", "C2.5", "炮二平五"),
    (START, "h0g2", "h1g3", "H2+3", "马二进三"),
    (START, "i0i1", "i1i2", "R1+1", "车一进一"),
    (START, "c3c4", "c4c5", "P7+1", "兵七进一"),
    (START, "g0e2", "g1e3", "E3+5", "相三进五"),
    (START, "f0e1", "f1e2", "A4+5", "仕四进五"),
    (START, "e0e1", "e1e2", "K5+1", "帅五进一"),
    (START, "b2b9", "b3b10", "C8+7", "炮八进七"),
    (AFTER_CENTRAL_CANNON, "h9g7", "h10g8", "H8+7", "马８进７"),
    (AFTER_CENTRAL_CANNON, "a9a8", "a10a9", "R1+1", "车１进１"),
    (AFTER_CENTRAL_CANNON, "b7e7", "b8e8", "C2.5", "炮２平５"),
    (AFTER_CENTRAL_CANNON, "f9e8", "f10e9", "A6+5", "士６进５"),
    (AFTER_CENTRAL_CANNON, "e9e8", "e10e9", "K5+1", "将５进１"),
    (AFTER_CENTRAL_CANNON, "g9e7", "g10e8", "E7+5", "象７进５"),
    (AFTER_CENTRAL_CANNON, "b7b0", "b8b1", "C2+7", "炮２进７"),
    (Board(TWO_CHARIOTS), "c4c5", "c5c6", "R++1", "前车进一"),
    (Board(TWO_CHARIOTS), "c2b2", "c3b3", "R-.8", "后车平八"),
    (Board(TWO_CHARIOTS), "c4c3", "c5c4", "R+-1", "前车退一"),
    (Board(TWO_ADVISORS), "d0e1", "d1e2", "A6+5", "仕六进五"),
    (Board(TWO_ADVISORS), "d2e1", "d3e2", "A6-5", "仕六退五"),
    (Board(TWO_ELEPHANTS), "c4a2", "c5a3", "E7-9", "相七退九"),
    (Board(TWO_ELEPHANTS), "c0e2", "c1e3", "E7+5", "相七进五"),
    (Board(THREE_PAWNS), "e7e8", "e8e9", "P++1", "前兵进一"),
    (Board(THREE_PAWNS), "e6d6", "e7d7", "P5.6", "中兵平六"),
    (Board(THREE_PAWNS), "e5f5", "e6f6", "P-.4", "后兵平四"),
    (Board(FOUR_PAWNS), "e8d8", "e9d9", "++.6", "一兵平六"),
    (Board(FOUR_PAWNS), "e7d7", "e8d8", "P+.6", "二兵平六"),
    (Board(FOUR_PAWNS), "e6f6", "e7f7", "P-.4", "三兵平四"),
    (Board(FOUR_PAWNS), "e5e6", "e6e7", None, None),  # blocked by its own pawn: not legal
    (Board(FIVE_PAWNS), "d9c9", "d10c10", "++.7", "一兵平七"),
    (Board(FIVE_PAWNS), "d8e8", "d9e9", "P+.5", "二兵平五"),
    (Board(FIVE_PAWNS), "d7c7", "d8c8", "P6.7", "三兵平七"),
    (Board(FIVE_PAWNS), "d6e6", "d7e7", "P-.5", "四兵平五"),
    (Board(FIVE_PAWNS), "d5c5", "d6c6", "--.7", "五兵平七"),
    (Board(TWO_TANDEM_FILES_RED), "e7d7", "e8d8", "5+.6", "前兵五平六"),
    (Board(TWO_TANDEM_FILES_RED), "e6f6", "e7f7", "55.4", "中兵五平四"),
    (Board(TWO_TANDEM_FILES_RED), "e5d5", "e6d6", "5-.6", "后兵五平六"),
    (Board(TWO_TANDEM_FILES_RED), "c6b6", "c7b7", "7+.8", "前兵七平八"),
    (Board(TWO_TANDEM_FILES_RED), "c5c6", "c6c7", None, None),
    (Board(TWO_TANDEM_FILES_BLACK), "e2d2", "e3d3", "5+.4", "前卒５平４"),
    (Board(TWO_TANDEM_FILES_BLACK), "e3f3", "e4f4", "55.6", "中卒５平６"),
    (Board(TWO_TANDEM_FILES_BLACK), "c2c1", "c3c2", "3++1", "前卒３进１"),
    (Board(TWO_TANDEM_FILES_BLACK), "c3b3", "c4b4", "3-.2", "后卒３平２"),
])
def test_known_strings_format_and_parse(board, iccs, uci, wxf, chinese):
    move = Move.from_iccs(iccs)
    if wxf is None:
        assert not board.is_legal(move)
        with pytest.raises(IllegalMoveError):
            parse_move(board, iccs)
        return
    expected = {Notation.ICCS: iccs, Notation.UCI: uci, Notation.WXF: wxf, Notation.CHINESE: chinese}
    for notation, text in expected.items():
        assert format_move(board, move, notation) == text
        assert parse_move(board, text, notation) == move
        if notation is not Notation.UCI:  # without a notation, 'e7d7' reads as ICCS first
            assert parse_move(board, text) == move


@pytest.mark.parametrize("board, text, iccs", [
    # ICCS spellings
    (START, "H2-E2", "h2e2"), (START, "h2-e2", "h2e2"), (START, "ｈ２ｅ２", "h2e2"), (START, " h2e2 ", "h2e2"),
    # WXF spellings: '=' for '.', full width, lower case, nothing for sideways, B/N letters
    (START, "C2=5", "h2e2"), (START, "Ｃ２＝５", "h2e2"), (START, "c2.5", "h2e2"), (START, "C25", "h2e2"),
    (START, "N2+3", "h0g2"), (START, "B3+5", "g0e2"), (START, "Ｈ２＋３", "h0g2"),
    (AFTER_CENTRAL_CANNON, "h8+7", "h9g7"), (AFTER_CENTRAL_CANNON, "Ｈ８＋７", "h9g7"),
    # Chinese spellings: full/half-width digits, numerals for Black, traditional characters
    (AFTER_CENTRAL_CANNON, "马8进7", "h9g7"), (AFTER_CENTRAL_CANNON, "馬８進７", "h9g7"),
    (AFTER_CENTRAL_CANNON, "马八进七", "h9g7"), (AFTER_CENTRAL_CANNON, "將5進1", "e9e8"),
    (AFTER_CENTRAL_CANNON, "車１進１", "a9a8"), (AFTER_CENTRAL_CANNON, "砲2平5", "b7e7"),
    (AFTER_CENTRAL_CANNON, "包２平５", "b7e7"), (AFTER_CENTRAL_CANNON, "象7進5", "g9e7"),
    (START, "傌八進七", "b0c2"), (START, "俥九進一", "a0a1"), (START, "砲二平五", "h2e2"),
    (START, "帥五進一", "e0e1"), (START, "仕六進五", "d0e1"), (START, "相三進五", "g0e2"),
    (START, "兵七進一", "c3c4"), (START, "炮2平5", "h2e2"),
    # tandem marks: after the piece (WXF document's Chinese), before the letter (+P+1), file forms
    (Board(TWO_CHARIOTS), "车前进一", "c4c5"), (Board(TWO_CHARIOTS), "車後平八", "c2b2"),
    (Board(TWO_CHARIOTS), "後車平八", "c2b2"), (Board(TWO_CHARIOTS), "+R+1", "c4c5"),
    (Board(TWO_CHARIOTS), "－Ｒ＝８", "c2b2"), (Board(TWO_CHARIOTS), "R+=8", "c4b4"),
    (Board(THREE_PAWNS), "＋Ｐ＋１", "e7e8"), (Board(THREE_PAWNS), "P5=6", "e6d6"),
    (Board(THREE_PAWNS), "二兵平六", "e6d6"), (Board(THREE_PAWNS), "前兵五进一", "e7e8"),
    (Board(FOUR_PAWNS), "前兵平六", "e8d8"), (Board(FOUR_PAWNS), "后兵平四", "e5f5"),
    (Board(FOUR_PAWNS), "--=4", "e5f5"), (Board(FIVE_PAWNS), "中兵平七", "d7c7"),
    (Board(TWO_TANDEM_FILES_RED), "前五平六", "e7d7"), (Board(TWO_TANDEM_FILES_RED), "后七平八", "c5b5"),
    (Board(TWO_TANDEM_FILES_RED), "5+=6", "e7d7"), (Board(TWO_TANDEM_FILES_RED), "前兵平八", "c6b6"),
    (Board(TWO_TANDEM_FILES_BLACK), "前卒5平4", "e2d2"), (Board(TWO_TANDEM_FILES_BLACK), "前５平４", "e2d2"),
    # xqbase: one count over both tandem files, right to left and front to back
    (Board(TWO_TANDEM_FILES_RED), "一兵平六", "e7d7"), (Board(TWO_TANDEM_FILES_RED), "四兵平八", "c6b6"),
    (Board(XQBASE_TWO_FILES_RED), "一兵平四", "g8f8"),
    (Board(XQBASE_TWO_FILES_BLACK), "一卒平5", "d1e1"),
    (Board(XQBASE_FOUR_PAWNS_BLACK), "一卒进1", "a2a1"),
])
def test_accepted_spellings(board, text, iccs):
    assert parse_move(board, text) == Move.from_iccs(iccs)


def test_iccs_wins_over_fairy_stockfish_squares_when_both_are_legal():
    board = Board(STACKED_CHARIOTS)
    assert parse_move(board, "a3d3") == Move.from_iccs("a3d3")
    assert parse_move(board, "a3d3", Notation.UCI) == Move.from_iccs("a2d2")
    # Rank 10 or an illegal ICCS reading falls back to Fairy-Stockfish's squares.
    assert parse_move(AFTER_CENTRAL_CANNON, "a10a9") == Move.from_iccs("a9a8")
    assert parse_move(START, "h1g3") == Move.from_iccs("h0g2")


@pytest.mark.parametrize("text, notation", [
    ("h2e2", Notation.ICCS), ("H2-E2", Notation.ICCS), ("a10a9", Notation.UCI), ("C2.5", Notation.WXF),
    ("Ｃ２＝５", Notation.WXF), ("+P+1", Notation.WXF), ("炮二平五", Notation.CHINESE),
    ("馬８進７", Notation.CHINESE),
])
def test_detect_notation(text, notation):
    assert detect_notation(text) == notation


@pytest.mark.parametrize("board, text, notation", [
    (START, "车一进三", None),            # onto its own pawn
    (START, "h2e3", None),                # the cannon cannot move so
    (START, "e5e6", Notation.ICCS),       # no piece there
    (START, "C2.5", Notation.CHINESE),    # WXF text read as Chinese
    (START, "炮五平四", None),            # no cannon on file 五
    (START, "前炮平五", None),            # no file holds two cannons
    (START, "R1.2", None),                # a chariot cannot move sideways onto its horse
    (START, "hello", None),
    (START, "", None),
    (START, "马八进五", None),            # a horse cannot reach file 五 from 八
    (Board(TWO_TANDEM_FILES_RED), "57.4", None),  # a pawn cannot stand on two files
])
def test_unreadable_text_raises_with_text_and_fen(board, text, notation):
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(board, text, notation)
    assert not isinstance(caught.value, AmbiguousMoveError)
    message = str(caught.value)
    assert repr(text) in message and board.fen() in message


@pytest.mark.parametrize("fen, text", [
    ("5k3/9/9/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "兵五平四"),   # either pawn of file 五
    ("5k3/9/9/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "P5.4"),
    (TWO_CHARIOTS, "R7.8"),                                   # c4 and c2 can both go to file 八
    (TWO_CHARIOTS, "车七进一"),
])
def test_ambiguous_text_raises(fen, text):
    board = Board(fen)
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(board, text)
    assert repr(text) in str(caught.value) and board.fen() in str(caught.value)


def test_perpetual_check_ban_is_named_in_the_error():
    with open(COURSE_VECTORS, encoding="utf-8") as vectors:
        vector = next(entry for entry in map(json.loads, vectors) if entry["banned"])
    board = Board.from_course(vector["board"], vector["side"], vector["history"])
    banned = Move.from_course(vector["banned"][0])
    for text in (format_move(board, banned, Notation.ICCS), format_move(board, banned, Notation.CHINESE)):
        with pytest.raises(IllegalMoveError, match="perpetual"):
            parse_move(board, text)


def test_format_line_and_parse_line_leave_the_board_alone():
    board = Board()
    moves = [Move.from_iccs(text) for text in ("h2e2", "h9g7", "h0g2", "i9h9")]
    assert format_line(board, moves, Notation.CHINESE) == ["炮二平五", "马８进７", "马二进三", "车９平８"]
    assert format_line(board, moves, Notation.WXF) == ["C2.5", "H8+7", "H2+3", "R9.8"]
    assert parse_line(board, ["C2=5", "马8进7", "h0g2", "i10h10"]) == moves
    assert board.fen() == Board().fen() and board.move_stack == []


def test_format_line_rejects_an_illegal_move_by_its_number():
    moves = [Move.from_iccs("h2e2"), Move.from_iccs("h2e2")]
    with pytest.raises(IllegalMoveError, match="move 2 of the line"):
        format_line(Board(), moves, Notation.WXF)


def test_chinese_can_write_ascii_digits_for_black():
    from xqdesk.notation.chinese import format_chinese
    assert format_chinese(AFTER_CENTRAL_CANNON, Move.from_iccs("h9g7"), ascii_digits=True) == "马8进7"


def test_formatting_a_move_of_the_wrong_side_raises():
    with pytest.raises(IllegalMoveError):
        format_move(START, Move.from_iccs("h9g7"), Notation.CHINESE)
