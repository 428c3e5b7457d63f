"""Arrows and circles drawn on the real board with the right mouse button: shown over the pieces,
kept in the viewed move's comment as ``[%cal]``/``[%csl]`` (hidden from the comment pane), saved
with the game and shown again when it is opened."""
from __future__ import annotations

import pytest
from datafiles import DATA
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor
from window_files import open_file

from xqdesk.drawings import Drawings, DrawnArrow, DrawnCircle, parse_drawings
from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.squares import parse_square
from xqdesk.ui.board.board_view import Arrow, BoardView

pytestmark = pytest.mark.engines

UNIT_TEST_XQF = DATA / "games" / "xqf" / "cchess_UnitTest.xqf"
E3, E5, E4 = (parse_square(name) for name in ("e3", "e5", "e4"))


def right_drag(qtbot, view: BoardView, start: str, end: str,
               modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Press the right button on ``start``, move to ``end`` and release there, as a person does."""
    begin = view.square_center(parse_square(start)).toPoint()
    finish = view.square_center(parse_square(end)).toPoint()
    qtbot.mousePress(view, Qt.MouseButton.RightButton, modifier, begin)
    qtbot.mouseMove(view, finish)
    qtbot.mouseRelease(view, Qt.MouseButton.RightButton, modifier, finish)


def shaft_middle(view: BoardView, start: int, end: int) -> QPointF:
    shape = view.arrow_shape(Arrow(Move(start, end)))
    return (shape.start + shape.end) / 2


def pixel(view: BoardView, point: QPointF) -> QColor:
    image = view.grab().toImage()
    ratio = image.devicePixelRatio()
    return image.pixelColor(int(point.x() * ratio), int(point.y() * ratio))


def test_a_right_drag_draws_an_arrow_kept_in_the_moves_comment_and_saved(qtbot, window, tmp_path):
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    controller, view = window.controller, window.board_view
    controller.forward()
    assert window.comment_editor.text() == "第一步红注解"
    middle = shaft_middle(view, E3, E5)
    before = pixel(view, middle)
    right_drag(qtbot, view, "e3", "e5")
    after = pixel(view, middle)
    assert view.drawings().arrows == (DrawnArrow(E3, E5, "G"),)
    assert after != before and after.green() > after.red() and after.green() > after.blue()  # drawn green
    right_drag(qtbot, view, "e4", "e4", Qt.KeyboardModifier.ShiftModifier)  # a click circles, Shift red
    comment = controller.game().mainline()[0].comment
    assert comment == "[%csl Re4] [%cal Ge3e5] 第一步红注解"
    assert window.comment_editor.text() == "第一步红注解"  # the pane shows the words only
    controller.forward()
    assert view.drawings() == Drawings()  # drawings belong to their move
    controller.back()
    assert view.drawings().circles == (DrawnCircle(E4, "R"),)

    saved = tmp_path / "drawn.pgn"
    assert window.files.save_to(saved)
    assert "[%cal Ge3e5]" in saved.read_text(encoding="utf-8")
    assert parse_drawings(read_games(saved).games[0].mainline()[0].comment) == view.drawings()
    controller.to_start()
    assert open_file(qtbot, window, saved)
    controller.forward()
    assert view.drawings() == Drawings((DrawnArrow(E3, E5, "G"),), (DrawnCircle(E4, "R"),))
    assert pixel(view, middle) == after

    right_drag(qtbot, view, "e3", "e5")  # the same arrow again removes it
    assert view.drawings().arrows == ()
    assert controller.game().mainline()[0].comment == "[%csl Re4] 第一步红注解"
    assert pixel(view, middle) == before


def test_a_picture_of_the_board_shows_the_drawings(qtbot):
    from xqdesk.ui.exports.pictures import render_image, scene_with

    view = BoardView()
    qtbot.addWidget(view)
    view.resize(540, 594)
    right_drag(qtbot, view, "e3", "e5")
    assert view.drawings().arrows == (DrawnArrow(E3, E5, "G"),)
    plain = render_image(BoardView().scene(), 540)
    drawn = render_image(scene_with(view.scene()), 540)
    middle = shaft_middle(view, E3, E5)
    scale = drawn.width() / view.width()
    point = (int(middle.x() * scale), int(middle.y() * scale))
    color = drawn.pixelColor(*point)
    assert color != plain.pixelColor(*point) and color.green() > color.red() and color.green() > color.blue()
