"""The board view: bundled glyphs, geometry, click-click and drag moves, refusals with a reason."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics, QImage

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.squares import parse_square
from xqdesk.ui.board.board_view import Arrow, BoardGeometry, BoardView, render_piece
from xqdesk.ui.board.piece_glyphs import (
    BLACK_CHARACTERS,
    RED_CHARACTERS,
    RED_FILE_NUMBERS,
    RIVER_LEFT,
    RIVER_RIGHT,
    board_font,
    interface_font,
    load_fonts,
)


def make_view(qtbot, board: Board | None = None) -> BoardView:
    view = BoardView()
    qtbot.addWidget(view)
    view.resize(500, 550)
    view.set_position(board or Board())
    view.show()
    qtbot.waitExposed(view)
    return view


def click(qtbot, view: BoardView, name: str) -> None:
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.square_center(parse_square(name)).toPoint())


def test_bundled_fonts_hold_every_board_character(qapp):
    fonts = load_fonts()
    assert fonts.board_family != fonts.ui_family
    board_metrics = QFontMetrics(board_font(40))
    ui_metrics = QFontMetrics(interface_font())
    text = "".join(RED_CHARACTERS.values()) + "".join(BLACK_CHARACTERS.values()) + RED_FILE_NUMBERS + RIVER_LEFT + RIVER_RIGHT
    for character in text:
        assert board_metrics.inFontUcs4(ord(character)), character
        assert ui_metrics.inFontUcs4(ord(character)), character
    for character in "悔棋认输着法红方黑方进退平":
        assert ui_metrics.inFontUcs4(ord(character)), character


def test_a_piece_renders_ink_strokes_not_an_empty_disc(qapp):
    def ink_pixels(code: int) -> int:
        image = render_piece(code, 60).toImage().convertToFormat(QImage.Format.Format_ARGB32)
        centre = image.width() // 2
        red = 0
        for x in range(centre - 12, centre + 12):
            for y in range(centre - 12, centre + 12):
                colour = image.pixelColor(x, y)
                if code > 0 and colour.red() > 150 and colour.green() < 110:
                    red += 1
                if code < 0 and colour.lightness() < 90:
                    red += 1
        return red

    assert ink_pixels(7) > 40  # 帅 in red ink
    assert ink_pixels(-7) > 40  # 将 in black ink


def test_geometry_maps_squares_both_ways_and_flips():
    plain = BoardGeometry(500, 550, flipped=False)
    flipped = BoardGeometry(500, 550, flipped=True)
    for name in ("a0", "e0", "i9", "c4", "d5"):
        sq = parse_square(name)
        assert plain.square_at(plain.square_center(sq)) == sq
        assert flipped.square_at(flipped.square_center(sq)) == sq
    assert plain.square_center(parse_square("a0")).y() > plain.square_center(parse_square("a9")).y()
    assert flipped.square_center(parse_square("a0")).y() < flipped.square_center(parse_square("a9")).y()
    assert flipped.square_center(parse_square("a0")).x() > flipped.square_center(parse_square("i0")).x()


def test_click_click_makes_a_legal_move(qtbot):
    view = make_view(qtbot)
    click(qtbot, view, "h2")
    assert view.selected_square() == parse_square("h2")
    assert parse_square("e2") in view.legal_destinations()
    with qtbot.waitSignal(view.move_chosen, timeout=1000) as blocker:
        click(qtbot, view, "e2")
    assert blocker.args == [Move.from_iccs("h2e2")]
    assert view.selected_square() is None


def test_illegal_click_is_refused_with_a_reason(qtbot):
    view = make_view(qtbot)
    click(qtbot, view, "b0")  # horse
    with qtbot.assertNotEmitted(view.move_chosen), qtbot.waitSignal(view.move_refused, timeout=1000) as blocker:
        click(qtbot, view, "b4")
    assert "b0b4" in blocker.args[0]
    assert "cannot move" in blocker.args[0]


def test_move_into_check_is_refused_saying_so(qtbot):
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")  # black king faces the rook on the e-file
    view = make_view(qtbot, board)
    click(qtbot, view, "e9")
    with qtbot.waitSignal(view.move_refused, timeout=1000) as blocker:
        click(qtbot, view, "e8")
    assert "check" in blocker.args[0]


def test_drag_and_drop_moves_a_piece(qtbot):
    view = make_view(qtbot)
    start = view.square_center(parse_square("b0")).toPoint()
    end = view.square_center(parse_square("c2")).toPoint()
    with qtbot.waitSignal(view.move_chosen, timeout=1000) as blocker:
        qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(view, start + QPoint(10, -10))
        qtbot.mouseMove(view, end)
        qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=end)
    assert blocker.args == [Move.from_iccs("b0c2")]


def test_pieces_of_a_side_not_movable_cannot_be_selected(qtbot):
    view = make_view(qtbot)
    view.set_movable_colors({BLACK})
    with qtbot.waitSignal(view.move_refused, timeout=1000):
        click(qtbot, view, "h2")
    assert view.selected_square() is None
    view.set_movable_colors({RED})
    click(qtbot, view, "h2")
    assert view.selected_square() == parse_square("h2")


def test_flipped_board_clicks_land_on_the_right_squares(qtbot):
    view = make_view(qtbot)
    view.set_flipped(True)
    click(qtbot, view, "h2")
    with qtbot.waitSignal(view.move_chosen, timeout=1000) as blocker:
        click(qtbot, view, "h9")
    assert blocker.args == [Move.from_iccs("h2h9")]


def test_arrows_and_check_paint_without_error(qtbot):
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    view = make_view(qtbot, board)
    view.set_arrows([Arrow(Move.from_iccs("e9d9"), 0, "+1.2"), Arrow(Move.from_iccs("e9f9"), 1)])
    image = view.grab().toImage()
    king = view.square_center(parse_square("e9")).toPoint()
    offset = int(view.geometry_model().cell * 0.36)
    ring = image.pixelColor(king.x() - offset, king.y() + offset)
    assert ring.red() > 150 and ring.green() < 150  # the red check glow around the king
