"""Fog-of-war rules and views on hand-made positions: what each piece kind sees (cannon screens,
horse legs, elephant eyes, pawns before and after the river), no check, general capture, facing
generals, the capture-free draw, and ``xqdesk fog see``."""
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk import BLACK, RED, Board, IllegalMoveError, Move, Termination
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN, board_fen
from xqdesk.pieces import Piece
from xqdesk.ruleset import COURSE, FOG
from xqdesk.squares import parse_square, square_name
from xqdesk.variants.fog import observe, seen_square_names, start_board

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]


def fen(pieces: dict[str, str], turn: str = "w") -> str:
    """A FEN from ``{'e0': 'K', ...}``."""
    codes = [0] * 90
    for name, letter in pieces.items():
        codes[parse_square(name)] = Piece.from_symbol(letter).code
    return f"{board_fen(codes)} {turn} - - 0 1"


def seen(pieces: dict[str, str], side=RED, turn: str = "w") -> set[str]:
    return set(seen_square_names(observe(start_board(fen(pieces, turn)), side)))


def squares(text: str) -> set[str]:
    return set(text.split())


KINGS = {"d0": "K", "f9": "k"}
RED_KING_SEES = squares("d0 d1 e0")  # the red general on d0 and its two steps


def test_a_cannon_sees_the_piece_it_could_capture_but_not_its_screen_or_what_lies_between():
    view = seen({**KINGS, "e2": "C", "e5": "p", "e7": "r"})
    cannon = squares("e2 e3 e4 e7 e1 e0 a2 b2 c2 d2 f2 g2 h2 i2")
    assert view == RED_KING_SEES | cannon
    assert not {"e5", "e6", "e8", "e9"} & view  # the screen, behind it, and past the target


def test_a_cannon_with_nothing_to_capture_sees_only_up_to_its_screen():
    view = seen({**KINGS, "e2": "C", "e5": "p"})
    assert view == RED_KING_SEES | squares("e2 e3 e4 e1 e0 a2 b2 c2 d2 f2 g2 h2 i2")


def test_a_chariot_sees_up_to_and_including_the_first_enemy_piece():
    view = seen({**KINGS, "a0": "R", "a4": "n", "c0": "B"})
    assert squares("a1 a2 a3 a4 b0") <= view and "a5" not in view
    assert seen({**KINGS, "a0": "R", "a4": "n"}) >= squares("a1 a2 a3 a4 b0 c0")
    assert seen({**KINGS, "a0": "R", "a4": "n", "c0": "B"}) & squares("a5 a6 a7 a8 a9") == set()


def test_a_blocked_horse_leg_hides_the_squares_past_it():
    free = seen({"f0": "K", "d9": "k", "c2": "N"})
    assert squares("b4 d4 a3 a1 e3 e1 b0 d0") <= free
    blocked = seen({"f0": "K", "d9": "k", "c2": "N", "c3": "p"})
    assert not {"b4", "d4", "c3"} & blocked  # the leg c3 blocks both forward jumps and is itself unseen
    assert squares("a3 a1 e3 e1 b0 d0") <= blocked


def test_a_horse_sees_an_enemy_piece_it_could_capture():
    view = seen({"f0": "K", "d9": "k", "c2": "N", "d4": "r"})
    assert "d4" in view


def test_an_elephant_eye_blocks_the_diagonal():
    open_eye = seen({"f0": "K", "d9": "k", "c0": "B"})
    assert squares("a2 e2") <= open_eye
    blocked = seen({"f0": "K", "d9": "k", "c0": "B", "d1": "p"})
    assert "a2" in blocked and not {"e2", "d1"} & blocked


def test_pawns_see_forward_before_the_river_and_sideways_after():
    view = seen({**KINGS, "a3": "P", "g5": "P"})
    assert "a4" in view and "b3" not in view
    assert squares("g6 f5 h5") <= view and "g4" not in view


def test_black_sees_from_its_side():
    view = seen({"d0": "K", "e9": "k", "e7": "c", "e3": "P", "e1": "R"}, side=BLACK, turn="b")
    assert "e1" in view  # the cannon's target over the screen e3
    assert "e3" not in view and "e2" not in view


def test_facing_generals_see_each_other_and_may_capture():
    board = start_board(fen({"e0": "K", "e9": "k"}))
    assert "e9" in seen_square_names(observe(board, RED))
    assert Move.from_iccs("e0e9") in board.legal_moves
    board.push_iccs("e0e9")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.GENERAL_CAPTURED
    assert outcome.winner == RED and outcome.text == "Black's general is captured, Red wins!"


def test_a_piece_between_the_generals_hides_them_from_each_other():
    board = start_board(fen({"e0": "K", "e9": "k", "e5": "p"}))
    assert "e9" not in seen_square_names(observe(board, RED))
    assert Move.from_iccs("e0e9") not in board.legal_moves


def test_there_is_no_check_a_general_may_step_into_attack():
    position = fen({"e0": "K", "d9": "r", "f9": "k"})
    assert Move.from_iccs("e0d0") in start_board(position).legal_moves
    with pytest.raises(IllegalMoveError):
        Board(position, ruleset=COURSE).push_iccs("e0d0")  # the course forbids it


def test_the_side_to_move_may_take_a_general_left_in_attack():
    board = start_board(fen({"e0": "K", "d9": "r", "f9": "k"}))
    board.push_iccs("e0d0")
    board.push_iccs("d9d0")
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == BLACK
    assert outcome.termination is Termination.GENERAL_CAPTURED


def test_a_fog_position_may_have_a_general_attacked_on_the_other_side_s_turn():
    position = fen({"e0": "K", "e9": "k"}, "w")  # facing generals: impossible in normal Xiangqi
    with pytest.raises(InvalidFenError):
        Board(position)
    assert start_board(position).turn == RED
    with pytest.raises(InvalidFenError, match="outside its palace"):
        start_board(fen({"a0": "K", "e9": "k"}))


def test_no_perpetual_check_ban_and_king_safety_in_fog():
    board = start_board(STARTING_FEN)
    assert board.ruleset is FOG and len(board.legal_moves) == 44
    assert not board.banned_moves()


def test_capture_free_draw_after_120_plies():
    board = start_board(fen({"d0": "K", "f9": "k", "a0": "R"}).replace(" 0 1", " 119 60"))
    assert board.outcome() is None
    board.push_iccs("a0a1")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CAPTURE_FREE_DRAW


def test_observation_holds_no_board_and_counts_hidden_pieces():
    board = start_board(STARTING_FEN)
    view = observe(board, RED)
    assert not any(isinstance(value, Board) for value in (getattr(view, name) for name in view.__slots__))
    assert len(view.hidden_enemy()) == 16 - 2  # the two horses the cannons could take are seen
    with pytest.raises(ValueError, match="not seen"):
        view.piece_at(parse_square("e9"))
    assert view.piece_at(parse_square("b9")) == Piece.from_symbol("n")


def test_the_view_after_a_capture_says_where_the_piece_was_taken():
    board = start_board(fen({"d0": "K", "f9": "k", "a0": "R", "a9": "r"}, "b"))
    board.push_iccs("a9a0")
    view = observe(board, RED)
    assert view.taken == parse_square("a0") and observe(board, BLACK).taken is None
    assert observe(board, BLACK).last_move == Move.from_iccs("a9a0")
    assert {square_name(sq) for sq in view.seen_squares()} == RED_KING_SEES


def test_fog_see_command_prints_the_seen_squares_last():
    position = fen({**KINGS, "e2": "C", "e5": "p", "e7": "r"})
    result = subprocess.run([sys.executable, "-m", "xqdesk", "fog", "see", "--fen", position],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    last = result.stdout.strip().splitlines()[-1]
    assert last == " ".join(sorted(RED_KING_SEES | squares("e2 e3 e4 e7 e1 e0 a2 b2 c2 d2 f2 g2 h2 i2")))
    bad = subprocess.run([sys.executable, "-m", "xqdesk", "fog", "see", "--fen", "nonsense"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "'nonsense'" in bad.stderr
