"""The position editor: place pieces by clicking, see every problem with its reason, FEN in and
out, and start a game only from a valid position."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from xqdesk.fen import STARTING_FEN
from xqdesk.pieces import ADVISOR, BLACK, CHARIOT, KING, PAWN
from xqdesk.position_check import ProblemKind
from xqdesk.squares import parse_square
from xqdesk.ui.base.i18n import Language, set_language
from xqdesk.ui.board.position_editor import PositionEditor, PositionEditorDialog


@pytest.fixture
def editor(qtbot):
    widget = PositionEditor()
    qtbot.addWidget(widget)
    widget.resize(500, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    set_language(Language.ENGLISH)


def click(qtbot, editor, name, button=Qt.MouseButton.LeftButton):
    point = editor.board.square_center(parse_square(name)).toPoint()
    qtbot.mouseClick(editor.board, button, pos=point)


def test_a_position_made_by_clicks_becomes_valid_and_starts_a_game(qtbot, editor):
    editor.clear_button.click()
    assert {p.kind for p in editor.problems()} == {ProblemKind.MISSING_KING}
    assert not editor.start_button.isEnabled()
    editor.choose(KING)
    click(qtbot, editor, "e0")
    editor.choose(-KING)
    click(qtbot, editor, "e9")
    assert [p.kind for p in editor.problems()] == [ProblemKind.KINGS_FACING]
    assert "face each other on file e" in editor.problems_label.text()
    editor.choose(CHARIOT)
    click(qtbot, editor, "e5")
    assert [p.kind for p in editor.problems()] == [ProblemKind.WAITING_SIDE_IN_CHECK]
    assert "red is to move but the other king is in check" in editor.problems_label.text()
    editor.black_button.click()
    assert editor.turn == BLACK
    assert editor.is_valid()
    assert editor.problems_label.text() == "The position is valid."
    assert editor.fen() == "4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1"
    assert editor.fen_edit.text() == editor.fen()
    with qtbot.waitSignal(editor.start_game_requested, timeout=1000) as started:
        editor.start_button.click()
    assert started.args == ["4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1"]


def test_problems_are_listed_with_their_reasons_and_right_click_clears(qtbot, editor):
    editor.choose(PAWN)
    click(qtbot, editor, "b1")
    editor.choose(ADVISOR)
    click(qtbot, editor, "e2")
    text = editor.problems_label.text()
    assert "red pawn on b1, behind its starting point" in text
    assert "red advisor on e2, a point no advisor can reach" in text
    assert "6 red pawns, at most 5" in text
    assert not editor.start_button.isEnabled()
    assert editor.board.marked == {parse_square("b1"), parse_square("e2")}
    click(qtbot, editor, "b1", Qt.MouseButton.RightButton)
    click(qtbot, editor, "e2", Qt.MouseButton.RightButton)
    assert editor.is_valid() and editor.fen() == STARTING_FEN
    assert editor.board.marked == frozenset()


def test_the_side_that_moved_may_not_be_left_in_check(qtbot, editor):
    editor.set_fen("3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1")
    assert [p.kind for p in editor.problems()] == [ProblemKind.WAITING_SIDE_IN_CHECK]
    editor.black_button.click()
    assert editor.is_valid()


def test_a_bad_fen_is_refused_with_the_reason_and_keeps_the_position(qtbot, editor):
    editor.fen_edit.setText("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w")
    editor.load_fen_button.click()
    assert "Invalid FEN" in editor.problems_label.text()
    assert editor.fen() == STARTING_FEN


def test_problems_read_in_chinese_when_the_language_switches(qtbot, editor):
    editor.place(parse_square("b1"), PAWN)
    set_language(Language.CHINESE)
    assert "红方兵（卒）在 b1，位于起始位置之后" in editor.problems_label.text()
    assert editor.start_button.text() == "开始对局"
    assert editor.palette_buttons[-KING].text() == "将"


def test_the_dialog_returns_the_chosen_position(qtbot):
    dialog = PositionEditorDialog("4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1")
    qtbot.addWidget(dialog)
    dialog.editor.start_button.click()
    assert dialog.result() == PositionEditorDialog.DialogCode.Accepted
    assert dialog.fen == "4k4/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1"


def test_a_dragged_piece_moves_to_the_square_it_is_dropped_on(qtbot, editor):
    board = editor.board
    start = board.square_center(parse_square("h2")).toPoint()
    end = board.square_center(parse_square("e2")).toPoint()
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(board, end)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=end)
    assert editor.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1"
    assert editor.is_valid()
