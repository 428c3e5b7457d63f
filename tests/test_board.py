"""Board behaviour: make/unmake, hashing, check, game end, course conversions."""
import random

import pytest

from xqdesk import BLACK, RED, Board, IllegalMoveError, Move, Termination
from xqdesk.board import IllegalReason
from xqdesk.compat import change_round, init_board
from xqdesk.fen import STARTING_FEN
from xqdesk.squares import from_course, parse_square, square_name, to_course
from xqdesk.zobrist import hash_codes


def play_random(board: Board, plies: int, seed: int) -> list[Move]:
    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        board.push(move)
        played.append(move)
    return played


def test_start_position_and_course_board():
    board = Board()
    assert board.fen() == STARTING_FEN
    assert board.turn == RED and len(board.legal_moves) == 44
    assert board.to_course_board() == init_board()
    assert init_board()[0] == [-6, -4, -3, -2, -7, -2, -3, -4, -6]
    assert init_board()[9] == [6, 4, 3, 2, 7, 2, 3, 4, 6]


def test_square_and_move_conversions():
    assert square_name(from_course(9, 4)) == "e0"  # Red's king
    assert square_name(from_course(0, 4)) == "e9"
    assert to_course(parse_square("h2")) == (7, 7)
    move = Move.from_iccs("H2-E2")
    assert move == Move.from_iccs("h2e2") and move.to_course() == (7, 7, 7, 4)
    assert Move.from_course((7, 7, 7, 4)) == move
    assert repr(move) == "Move.from_iccs('h2e2')"  # a repr that rebuilds the value
    with pytest.raises(ValueError, match="'z9a0'"):
        Move.from_iccs("z9a0")


def test_push_pop_restore_everything_and_hash_stays_incremental():
    board = Board()
    snapshots = []
    for move in play_random(board.copy(), 200, seed=7):
        snapshots.append((board.fen(), board.zobrist_hash()))
        board.push(move)
        assert board.zobrist_hash() == hash_codes(board._codes, board.turn == RED)
    while snapshots:
        board.pop()
        assert (board.fen(), board.zobrist_hash()) == snapshots.pop()
    assert board.fen() == STARTING_FEN


def test_copy_is_independent():
    board = Board()
    board.push_iccs("h2e2")
    twin = board.copy()
    twin.push_iccs("h9g7")
    assert len(board.move_stack) == 1 and len(twin.move_stack) == 2
    assert board == board.copy() and board != twin


def test_push_iccs_refuses_illegal_moves_with_reason_and_fen():
    board = Board()
    with pytest.raises(IllegalMoveError) as error:
        board.push_iccs("h2h8")  # a cannon jumps only to capture
    assert STARTING_FEN in str(error.value)
    assert board.why_illegal(Move.from_iccs("e0e2")) is IllegalReason.CANNOT_MOVE_THAT_WAY
    assert board.why_illegal(Move.from_iccs("e0e2")) == "the piece cannot move that way"  # its text
    assert not board.why_illegal(Move.from_iccs("h2e2"))  # legal: LEGAL is false
    assert board.why_illegal(Move.from_iccs("h9g7")) == "that piece belongs to the side not to move"
    assert board.why_illegal(Move.from_iccs("a0a3")) == "the target square holds a piece of the same side"
    with pytest.raises(IllegalMoveError, match="not an ICCS move"):
        board.push_iccs("hello")


def test_flying_general_pins_and_checks():
    # A red horse is the only piece between the kings: it may not move at all.
    board = Board("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1")
    assert not any(move.from_square == parse_square("e4") for move in board.legal_moves)
    assert not board.is_check()
    # A rook checks along the e-file; stepping to d9 would face the red king on d0.
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    assert board.is_check()
    assert {m.iccs() for m in board.legal_moves} == {"e9f9"}
    board = Board("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1")
    assert board.gives_check(Move.from_iccs("i0d0")) and board.gives_check(Move.from_iccs("i0i9"))
    assert not board.gives_check(Move.from_iccs("i0h0"))


def test_fen_where_the_side_not_to_move_is_in_check_is_refused():
    from xqdesk import InvalidFenError
    for side in "wb":  # facing kings: whoever moves could take the other king
        with pytest.raises(InvalidFenError, match="the two kings face each other on file e"):
            Board(f"4k4/9/9/9/9/9/9/9/9/4K4 {side} - - 0 1")
    with pytest.raises(InvalidFenError, match="red is to move but the other king is in check"):
        Board("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1")


def test_checkmate_outcome_has_the_course_text():
    # Black king on e9, red rooks give mate on the back rank supported by the facing rule.
    board = Board("3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert board.is_check()
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner == RED and outcome.text == "Black loses the game. Red wins!"
    assert outcome.result() == "1-0"


def test_stalemate_loses_too():
    board = Board("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not board.is_check()
    assert board.outcome().text == "Black loses the game. Red wins!"


def test_capture_free_draw_after_120_plies_judged_before_the_mover_is_asked():
    board = Board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 80")
    assert board.outcome() is None
    board.push_iccs("d0d1")
    outcome = board.outcome()
    assert outcome.termination is Termination.CAPTURE_FREE_DRAW
    assert outcome.text == "Both sides have not eaten in sixty rounds, draw!" and outcome.winner is None


def test_capture_resets_the_counter():
    board = Board()
    for text in ("h2e2", "h7e7", "e2e6"):
        board.push_iccs(text)
    assert board.halfmove_clock == 0 and board.captured_piece() == -1


def test_course_side_argument_overrides_history_parity():
    board = Board.from_course(init_board(), "black", [])
    assert board.turn == BLACK and len(board.legal_moves) == 44
    assert change_round("red") == "black" and change_round("black") == "red"


def test_from_course_rejects_histories_that_do_not_fit():
    with pytest.raises(IllegalMoveError, match="does not fit"):
        Board.from_course(init_board(), "black", [(9, 7, 7, 6, 0)])
    with pytest.raises(IllegalMoveError, match="five ints"):
        Board.from_course(init_board(), "red", [(1, 2, 3)])


def test_notation_reads_every_notation_and_writes_back():
    from xqdesk.notation import Notation, format_move, parse_move
    board = Board()
    for text, notation, iccs in (("炮二平五", None, "h2e2"), ("H8+7", None, "h9g7"), ("h0g2", Notation.ICCS, "h0g2")):
        move = parse_move(board, text, notation)
        assert move == Move.from_iccs(iccs)
        board.push(move)
    assert format_move(board, Move.from_iccs("i9h9"), Notation.CHINESE) == "车９平８"
    with pytest.raises(IllegalMoveError, match="'炮二平九'"):
        parse_move(board, "炮二平九")


def test_from_course_rejects_boards_that_are_not_course_boards():
    from xqdesk import InvalidFenError
    board = init_board()
    board[3][4] = "x"
    with pytest.raises(InvalidFenError, match=r"holds 'x' at \(3, 4\)"):
        Board.from_course(board, "red")
    board[3][4] = 9
    with pytest.raises(InvalidFenError, match=r"holds 9 at \(3, 4\)"):
        Board.from_course(board, "red")
    with pytest.raises(InvalidFenError, match="10 rows of 9 ints"):
        Board.from_course(init_board()[:9], "red")
