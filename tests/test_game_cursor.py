"""The cursor over a game record, without Qt: the viewed line, stepping, variations, take-back."""
import pytest

from xqdesk.game import Game
from xqdesk.game_cursor import GameCursor
from xqdesk.move import Move

H2E2, H9G7, B0C2, B9C7 = (Move.from_iccs(text) for text in ("h2e2", "h9g7", "b0c2", "b9c7"))


def cursor_over(*moves: Move) -> GameCursor:
    cursor = GameCursor()
    cursor.reset(Game.from_moves(list(moves)))
    return cursor


def test_it_stands_at_the_end_and_steps_along_the_line() -> None:
    cursor = cursor_over(H2E2, H9G7)
    assert cursor.at_end() and cursor.ply == 2 and cursor.last_move() == H9G7
    assert cursor.go_to(0) and cursor.board.fen() == cursor.game.start_board().fen()
    assert not cursor.go_to(-3)  # clamped: already at the start
    assert cursor.go_to(1) and cursor.board.move_stack == [H2E2] and cursor.alternatives() == [H9G7]


def test_a_move_before_the_end_starts_a_variation_that_becomes_the_viewed_line() -> None:
    cursor = cursor_over(H2E2, H9G7)
    cursor.go_to(1)
    node = cursor.add_move(B9C7)
    assert node.starts_variation() and cursor.variation_depth() == 1
    assert cursor.line_moves() == [H2E2, B9C7] and cursor.at_end()
    cursor.go_to(1)
    assert cursor.alternatives() == [B9C7, H9G7]
    assert cursor.promote_variation() and cursor.game.mainline_moves() == [H2E2, B9C7]
    assert cursor.leave_variation() is False  # now the main line
    cursor.go_to(1)
    cursor.choose_alternative(1)
    assert cursor.line_moves() == [H2E2, H9G7] and cursor.delete_variation()
    assert cursor.game.mainline_moves() == [H2E2, B9C7] and cursor.ply == 1
    with pytest.raises(IndexError):
        cursor.choose_alternative(5)


def test_taking_back_and_cutting_change_the_record() -> None:
    cursor = cursor_over(H2E2, H9G7, B0C2)
    cursor.go_to(2)
    assert cursor.take_back_move() and cursor.game.mainline_moves() == [H2E2] and cursor.at_end()
    assert cursor.cut_from_here() is False
    cursor.cut_line(0)
    assert cursor.game.mainline_moves() == [] and cursor.ply == 0 and cursor.length() == 0


def test_moves_recorded_elsewhere_extend_the_viewed_line() -> None:
    cursor = cursor_over(H2E2)
    cursor.go_to(0)
    node = cursor.game.end().add_variation(H9G7)  # a runner wrote it while the view looked back
    cursor.extend(node)
    assert cursor.ply == 0 and cursor.length() == 2
    cursor.go_to(1)
    with pytest.raises(ValueError, match="not at the end"):
        cursor.step_onto(node.add_variation(B0C2))
    cursor.go_to(2)
    cursor.step_onto(node.variations[0])
    assert cursor.ply == 3 and cursor.board.move_stack == [H2E2, H9G7, B0C2]
