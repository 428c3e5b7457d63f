"""Drawing a board with a ``QPainter``: the one renderer of the window's board and of pictures.

:func:`paint_scene` draws a :class:`BoardScene` (a position with its last move, highlighted squares,
arrows, orientation and coordinates) on any paint device: the board widget, a ``QImage`` (PNG, GIF
frames, the clipboard) or a ``QSvgGenerator``. With ``vector=True`` (SVG) pieces are drawn as
shapes and every character as outlines taken from the bundled fonts, so the SVG shows the same
glyphs on a machine without them; on screen text is drawn as text (hinted) and pieces come from a
pixmap cache (see :class:`~xqdesk.ui.board.board_view.BoardView`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QRadialGradient,
)

from xqdesk.board import Board
from xqdesk.drawings import DEFAULT_COLOR, Drawings
from xqdesk.move import Move
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT, Square, square, square_file, square_rank
from xqdesk.ui.board.piece_glyphs import (
    BLACK_FILE_NUMBERS,
    RED_FILE_NUMBERS,
    RIVER_LEFT,
    RIVER_RIGHT,
    board_font,
    piece_character,
)
from xqdesk.ui.board.themes import DEFAULT_THEME, PieceStyle, Theme

BOARD_COLOR = DEFAULT_THEME.board
LINE_COLOR = DEFAULT_THEME.line
PIECE_FACE = DEFAULT_THEME.piece_face
PIECE_EDGE = DEFAULT_THEME.piece_edge
RED_INK = DEFAULT_THEME.red_ink
BLACK_INK = DEFAULT_THEME.black_ink
LAST_MOVE_COLOR = QColor(40, 110, 220, 170)
HIGHLIGHT_COLOR = QColor(250, 190, 30, 120)
"""Highlighted squares: a translucent amber disc under the piece."""
CHECK_COLOR = QColor(230, 20, 20)
FOG_COLOR = QColor(105, 110, 120, 215)
"""Unseen squares in fog of war: a grey veil, drawn over the lines."""
PICTURE_BACKGROUND = QColor("#fbf6ea")
"""The page around the board in exported pictures."""
#: Candidate-arrow colours by MultiPV rank (best first).
ARROW_COLORS = (QColor(30, 110, 230, 190), QColor(30, 160, 80, 170), QColor(230, 140, 20, 160),
                QColor(150, 60, 200, 150), QColor(120, 120, 120, 140))
#: The second analysis engine's arrows: one colour of their own, with a dashed outline.
SECOND_ENGINE_ARROW_COLOR = QColor(200, 30, 120, 170)
#: The opening book's moves: a brown of their own, with a dotted outline, drawn under engine arrows.
BOOK_ARROW_COLOR = QColor(150, 95, 30, 150)
#: Arrows and circles a person draws (:mod:`xqdesk.drawings`), by colour letter.
DRAWN_COLORS = {"G": QColor(21, 120, 27, 190), "R": QColor(200, 30, 30, 190), "Y": QColor(225, 160, 0, 200),
                "B": QColor(0, 48, 136, 190)}
DRAWN_ARROW_WIDTH = 0.13
"""Shaft width of a drawn arrow, in cells."""
#: Shaft widths (in cells) by MultiPV rank: each lower line thinner than the one above it.
ARROW_WIDTHS = (0.15, 0.105, 0.08, 0.06, 0.05)

PIECE_RADIUS = 0.45  # in cells
BOARD_ASPECT = 1.1
"""Height over width of a board picture (the board is 10 × 11 cells with its margins)."""


@dataclass(frozen=True)
class Arrow:
    """A candidate move to draw: ``rank`` 0 is the engine's best line; ``label`` is drawn at the head."""

    move: Move
    rank: int = 0
    label: str = ""
    engine: int = 0
    """Which analysis engine suggests it (0: the first; 1: the second, drawn apart from the first's)."""
    book: bool = False
    """A move of the opening book (View → Show book moves), not an engine's."""


@dataclass(frozen=True)
class ArrowShape:
    """Where an arrow is drawn: its shaft starts at the edge of the moving piece (never over it),
    ``label_rect`` sits beside the shaft between the two squares' pieces."""

    start: QPointF
    end: QPointF
    width: float
    label_rect: QRectF


@dataclass(frozen=True)
class BoardGeometry:
    """Pixel layout of the board in a widget of ``width`` × ``height``.

    The grid has 8 × 9 cells; one cell of margin on each side holds the half-pieces of the edge
    squares and the file numbers, so the whole board is 10 × 11 cells, centred.
    """

    width: float
    height: float
    flipped: bool

    @property
    def cell(self) -> float:
        return max(1.0, min(self.width / 10.0, self.height / 11.0))

    @property
    def origin(self) -> QPointF:
        """Pixel position of the top-left grid intersection."""
        cell = self.cell
        return QPointF((self.width - 8 * cell) / 2, (self.height - 9 * cell) / 2)

    def column_row(self, sq: Square) -> tuple[int, int]:
        """Screen column (0 = left) and row (0 = top) of a square."""
        file, rank = square_file(sq), square_rank(sq)
        return (8 - file, rank) if self.flipped else (file, 9 - rank)

    def point(self, column: float, row: float) -> QPointF:
        origin, cell = self.origin, self.cell
        return QPointF(origin.x() + column * cell, origin.y() + row * cell)

    def square_center(self, sq: Square) -> QPointF:
        column, row = self.column_row(sq)
        return self.point(column, row)

    def square_at(self, position: QPointF) -> Square | None:
        """The square whose intersection is nearest ``position``, if within half a cell of it."""
        origin, cell = self.origin, self.cell
        column = round((position.x() - origin.x()) / cell)
        row = round((position.y() - origin.y()) / cell)
        if not (0 <= column < FILES and 0 <= row < RANKS):
            return None
        if math.hypot(position.x() - (origin.x() + column * cell), position.y() - (origin.y() + row * cell)) > cell / 2:
            return None
        return square(8 - column, row) if self.flipped else square(column, 9 - row)


@dataclass(frozen=True)
class BoardScene:
    """What a board picture shows: a position, the move that led to it, highlighted squares,
    arrows, Black at the bottom when ``flipped``, the file numbers when ``coordinates``, the
    squares under fog (None: the whole board), and a person's arrows and circles (``drawings``)."""

    board: Board
    last_move: Move | None = None
    flipped: bool = False
    arrows: tuple[Arrow, ...] = ()
    highlights: frozenset[Square] = frozenset()
    coordinates: bool = True
    fog: frozenset[Square] | None = None
    theme: Theme = DEFAULT_THEME
    drawings: Drawings = Drawings()


def draw_text(painter: QPainter, rect: QRectF, text: str, font: QFont, color: QColor, vector: bool) -> None:
    """``text`` centred in ``rect``: as text, or (``vector``) as filled glyph outlines."""
    if not vector:
        painter.setFont(font)
        painter.setPen(color)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        return
    metrics = QFontMetricsF(font)
    baseline = QPointF(rect.center().x() - metrics.horizontalAdvance(text) / 2,
                       rect.center().y() + (metrics.ascent() - metrics.descent()) / 2)
    path = QPainterPath()
    path.addText(baseline, font, text)
    painter.fillPath(path, QBrush(color))


def paint_board(painter: QPainter, geometry: BoardGeometry, coordinates: bool = True, vector: bool = False,
                theme: Theme = DEFAULT_THEME) -> None:
    """The board in ``theme``: wood (with its grain) or plain, grid, palaces, position marks, river
    text and (``coordinates``) file numbers."""
    cell = geometry.cell
    outer = QRectF(geometry.point(-0.9, -0.9), geometry.point(8.9, 9.9))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(theme.board)
    painter.drawRoundedRect(outer, cell * 0.15, cell * 0.15)
    if theme.board_grain is not None:  # inside the frame only: the margins stay plain for the numbers
        _paint_grain(painter, QRectF(geometry.point(0, 0), geometry.point(8, 9)), theme.board_grain)

    thin = QPen(theme.line, max(1.0, cell * 0.025 * theme.line_scale))
    painter.setPen(thin)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for row in range(RANKS):
        painter.drawLine(geometry.point(0, row), geometry.point(8, row))
    for column in range(FILES):
        if column in (0, 8):
            painter.drawLine(geometry.point(column, 0), geometry.point(column, 9))
        else:
            painter.drawLine(geometry.point(column, 0), geometry.point(column, 4))
            painter.drawLine(geometry.point(column, 5), geometry.point(column, 9))
    for top in (0, 7):  # palace diagonals
        painter.drawLine(geometry.point(3, top), geometry.point(5, top + 2))
        painter.drawLine(geometry.point(5, top), geometry.point(3, top + 2))
    thick = QPen(theme.line, max(2.0, cell * 0.06 * theme.line_scale))
    painter.setPen(thick)
    margin = cell * 0.12
    frame = QRectF(geometry.point(0, 0), geometry.point(8, 9)).adjusted(-margin, -margin, margin, margin)
    painter.drawRect(frame)
    painter.setPen(thin)
    for column, row in ((1, 2), (7, 2), (1, 7), (7, 7), *((c, r) for c in (0, 2, 4, 6, 8) for r in (3, 6))):
        _paint_position_mark(painter, geometry, column, row)
    river_font = board_font(int(cell * 0.62))
    left = QRectF(geometry.point(0.5, 4), geometry.point(3.5, 5))
    right = QRectF(geometry.point(4.5, 4), geometry.point(7.5, 5))
    draw_text(painter, left, "  ".join(RIVER_LEFT), river_font, theme.line, vector)
    draw_text(painter, right, "  ".join(RIVER_RIGHT), river_font, theme.line, vector)
    if coordinates:
        _paint_file_numbers(painter, geometry, vector, theme)


def _paint_grain(painter: QPainter, outer: QRectF, grain: QColor) -> None:
    """Faint wavy lines across the board, like the grain of wood (the same on every paint)."""
    painter.save()
    painter.setClipRect(outer)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    step = max(outer.height() / 46, 3.0)
    for index in range(int(outer.height() / step) + 1):
        y = outer.top() + index * step
        colour = QColor(grain)
        colour.setAlpha(40 + (index * 37) % 50)
        painter.setPen(QPen(colour, max(1.0, step * 0.18)))
        path = QPainterPath(QPointF(outer.left(), y))
        amplitude = step * (0.3 + (index * 13 % 7) / 10)
        waves = 3 + index % 3
        for part in range(1, 25):
            x = outer.left() + outer.width() * part / 24
            path.lineTo(x, y + amplitude * math.sin(part / 24 * waves * math.pi + index))
        painter.drawPath(path)
    painter.restore()


def _paint_position_mark(painter: QPainter, geometry: BoardGeometry, column: int, row: int) -> None:
    """The small corner marks at the cannons' and pawns' starting points."""
    cell = geometry.cell
    gap, length = cell * 0.08, cell * 0.2
    centre = geometry.point(column, row)
    for dx in (-1, 1):
        if not 0 <= column + dx <= 8:
            continue
        for dy in (-1, 1):
            corner = QPointF(centre.x() + dx * gap, centre.y() + dy * gap)
            painter.drawLine(corner, QPointF(corner.x() + dx * length, corner.y()))
            painter.drawLine(corner, QPointF(corner.x(), corner.y() + dy * length))


def _paint_file_numbers(painter: QPainter, geometry: BoardGeometry, vector: bool,
                        theme: Theme = DEFAULT_THEME) -> None:
    cell = geometry.cell
    font = board_font(int(cell * 0.34))
    red_row, black_row = (-0.66, 9.66) if geometry.flipped else (9.66, -0.66)
    for file in range(FILES):
        column = 8 - file if geometry.flipped else file
        for row, text, ink in ((red_row, RED_FILE_NUMBERS[file], theme.red_ink),
                               (black_row, BLACK_FILE_NUMBERS[file], theme.black_ink)):
            centre = geometry.point(column, row)
            rect = QRectF(centre.x() - cell / 2, centre.y() - cell * 0.25, cell, cell * 0.5)
            draw_text(painter, rect, text, font, ink, vector)


def paint_last_move(painter: QPainter, geometry: BoardGeometry, last_move: Move | None) -> None:
    """Corner brackets around the last move's two squares."""
    if last_move is None:
        return
    cell = geometry.cell
    painter.setPen(QPen(LAST_MOVE_COLOR, max(1.5, cell * 0.05)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for sq in (last_move.from_square, last_move.to_square):
        centre = geometry.square_center(sq)
        half, arm = cell * 0.48, cell * 0.16
        for dx in (-1, 1):
            for dy in (-1, 1):
                corner = QPointF(centre.x() + dx * half, centre.y() + dy * half)
                painter.drawLine(corner, QPointF(corner.x() - dx * arm, corner.y()))
                painter.drawLine(corner, QPointF(corner.x(), corner.y() - dy * arm))


def paint_highlights(painter: QPainter, geometry: BoardGeometry, squares: frozenset[Square]) -> None:
    """A translucent disc on each highlighted square (under the pieces)."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(HIGHLIGHT_COLOR)
    radius = geometry.cell * 0.5
    for sq in sorted(squares):
        painter.drawEllipse(geometry.square_center(sq), radius, radius)


def paint_check(painter: QPainter, geometry: BoardGeometry, board: Board) -> None:
    """A red glow under the side to move's king when it is in check."""
    if not board.is_check():
        return
    king = board.king_square(board.turn)
    if king is None:
        return
    centre = geometry.square_center(king)
    radius = geometry.cell * 0.62
    glow = QRadialGradient(centre, radius)
    glow.setColorAt(0.55, QColor(CHECK_COLOR.red(), CHECK_COLOR.green(), CHECK_COLOR.blue(), 230))
    glow.setColorAt(1.0, QColor(CHECK_COLOR.red(), CHECK_COLOR.green(), CHECK_COLOR.blue(), 0))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(glow))
    painter.drawEllipse(centre, radius, radius)


def paint_fog(painter: QPainter, geometry: BoardGeometry, fog: frozenset[Square] | None) -> None:
    if not fog:
        return
    half = geometry.cell * 0.5
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(FOG_COLOR)
    for sq in fog:
        centre = geometry.square_center(sq)
        painter.drawRect(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half))


def paint_piece(painter: QPainter, code: int, centre: QPointF, cell: float, vector: bool = False,
                theme: Theme = DEFAULT_THEME) -> None:
    """One piece centred on ``centre`` for a board with ``cell`` pixels, in ``theme``'s style: a
    carved wooden disc, a flat disc with a heavy outline, or a solid disc in the side's colour."""
    radius = cell * PIECE_RADIUS
    ink = theme.red_ink if code > 0 else theme.black_ink
    glyph = ink
    if theme.piece_style is PieceStyle.SOLID:
        painter.setPen(QPen(ink.darker(140), max(1.0, cell * 0.03)))
        painter.setBrush(ink)
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(theme.piece_face, max(1.0, cell * 0.025)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, radius * 0.8, radius * 0.8)
        glyph = theme.piece_face
    elif theme.piece_style is PieceStyle.FLAT:
        painter.setPen(QPen(ink, max(2.0, cell * 0.07)))
        painter.setBrush(theme.piece_face)
        painter.drawEllipse(centre, radius * 0.95, radius * 0.95)
    else:
        shade = QRadialGradient(QPointF(centre.x() - radius * 0.3, centre.y() - radius * 0.3), radius * 1.4)
        shade.setColorAt(0.0, theme.piece_face.lighter(108))
        shade.setColorAt(1.0, theme.piece_face.darker(118))
        painter.setPen(QPen(theme.piece_edge, max(1.0, cell * 0.03)))
        painter.setBrush(QBrush(shade))
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(theme.piece_face.darker(135), max(1.0, cell * 0.02)))
        painter.drawEllipse(centre, radius * 0.9, radius * 0.9)
        painter.setPen(QPen(ink, max(1.0, cell * 0.03)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, radius * 0.78, radius * 0.78)
    font = board_font(int(cell * 0.5))
    if theme.piece_style is not PieceStyle.CARVED:
        font.setBold(True)
    draw_text(painter, QRectF(centre.x() - radius, centre.y() - radius, radius * 2, radius * 2),
              piece_character(code), font, glyph, vector)


def render_piece(code: int, cell: int, device_pixel_ratio: float = 1.0, theme: Theme = DEFAULT_THEME) -> QPixmap:
    """A transparent pixmap of one piece for a board with ``cell`` pixels (the view's cache)."""
    diameter = max(4, int(cell * PIECE_RADIUS * 2) + 4)
    pixmap = QPixmap(int(diameter * device_pixel_ratio), int(diameter * device_pixel_ratio))
    pixmap.setDevicePixelRatio(device_pixel_ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    paint_piece(painter, code, QPointF(diameter / 2, diameter / 2), cell, theme=theme)
    painter.end()
    return pixmap


PieceDrawer = Callable[[QPainter, int, QPointF, float], None]
"""Draws one piece: ``(painter, code, centre, cell)``."""


def paint_pieces(painter: QPainter, geometry: BoardGeometry, board: Board, draw: PieceDrawer,
                 hidden: Callable[[Square], bool] = lambda _sq: False) -> None:
    """Every piece of ``board`` but those on ``hidden`` squares, each drawn by ``draw``."""
    for sq in range(SQUARE_COUNT):
        code = board.code_at(sq)
        if code and not hidden(sq):
            draw(painter, code, geometry.square_center(sq), geometry.cell)


def arrow_style(arrow: Arrow) -> tuple[QColor, QColor | None]:
    """An arrow's fill and outline (None: no outline): the first engine's lines by rank, the
    second engine's in a colour of their own with a dashed outline."""
    if arrow.book:
        return BOOK_ARROW_COLOR, BOOK_ARROW_COLOR.darker(160)
    if arrow.engine:
        return SECOND_ENGINE_ARROW_COLOR, SECOND_ENGINE_ARROW_COLOR.darker(150)
    return ARROW_COLORS[min(arrow.rank, len(ARROW_COLORS) - 1)], None


def arrow_shape(arrow: Arrow, geometry: BoardGeometry) -> ArrowShape:
    """Where ``arrow`` goes: from the edge of the piece on its from-square (the piece stays in
    sight) to the target's centre, as wide as its rank allows, with the label beside the middle of
    the shaft, off the moving piece."""
    cell = geometry.cell
    centre = geometry.square_center(arrow.move.from_square)
    end = geometry.square_center(arrow.move.to_square)
    dx, dy = end.x() - centre.x(), end.y() - centre.y()
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    clear = cell * (PIECE_RADIUS + 0.04)
    start = QPointF(centre.x() + ux * clear, centre.y() + uy * clear)
    width = cell * ARROW_WIDTHS[min(arrow.rank, len(ARROW_WIDTHS) - 1)]
    label_w, label_h = cell * 0.78, cell * 0.3
    middle = QPointF((start.x() + end.x()) / 2, (start.y() + end.y()) / 2)
    nx, ny = -uy, ux
    side = cell * 0.32 + (label_h if abs(ux) > abs(uy) else label_w) / 2
    label_centre = QPointF(middle.x() + nx * side, middle.y() + ny * side)
    label_rect = QRectF(label_centre.x() - label_w / 2, label_centre.y() - label_h / 2, label_w, label_h)
    return ArrowShape(start, end, width, label_rect)


def paint_arrows(painter: QPainter, geometry: BoardGeometry, arrows: tuple[Arrow, ...], vector: bool = False) -> None:
    """Candidate arrows, the best on top (the second engine's under the first's), each labelled."""
    cell = geometry.cell
    for arrow in sorted(arrows, key=lambda a: (not a.book, -a.engine, -a.rank)):
        color, outline = arrow_style(arrow)
        shape = arrow_shape(arrow, geometry)
        if outline is None:
            painter.setPen(Qt.PenStyle.NoPen)
        else:
            painter.setPen(QPen(outline, max(1.0, cell * 0.03), Qt.PenStyle.DashLine))
        painter.setBrush(color)
        painter.drawPath(arrow_path(shape.start, shape.end, shape.width, cell * 0.36))
        if arrow.label:
            font = QFont(painter.font())
            font.setPixelSize(max(8, int(cell * 0.24)))
            font.setBold(True)
            painter.setPen(Qt.PenStyle.NoPen if outline is None else QPen(outline, 1, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(255, 255, 255, 225))
            painter.drawRoundedRect(shape.label_rect, 4, 4)
            draw_text(painter, shape.label_rect, arrow.label, font, color.darker(170), vector)


def paint_drawings(painter: QPainter, geometry: BoardGeometry, drawings: Drawings) -> None:
    """A person's circled squares (a ring round the piece) and arrows (from the edge of the piece
    on the from-square to the target's centre), in their colours, over the pieces."""
    cell = geometry.cell
    for circle in drawings.circles:
        color = DRAWN_COLORS.get(circle.color, DRAWN_COLORS[DEFAULT_COLOR])
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(color, max(2.0, cell * 0.08)))
        radius = cell * (PIECE_RADIUS + 0.02)
        painter.drawEllipse(geometry.square_center(circle.square), radius, radius)
    painter.setPen(Qt.PenStyle.NoPen)
    for drawn in drawings.arrows:
        shape = arrow_shape(Arrow(Move(drawn.start, drawn.end)), geometry)
        painter.setBrush(DRAWN_COLORS.get(drawn.color, DRAWN_COLORS[DEFAULT_COLOR]))
        painter.drawPath(arrow_path(shape.start, shape.end, cell * DRAWN_ARROW_WIDTH, cell * 0.36))


def arrow_path(start: QPointF, end: QPointF, width: float, head: float) -> QPainterPath:
    """A filled arrow from ``start`` to ``end`` with a shaft ``width`` and a head ``head`` long."""
    dx, dy = end.x() - start.x(), end.y() - start.y()
    length = math.hypot(dx, dy)
    path = QPainterPath()
    if length < 1e-6:
        return path
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    head = min(head, length * 0.6)
    neck = QPointF(end.x() - ux * head, end.y() - uy * head)
    half, head_half = width / 2, width * 1.6
    path.moveTo(start.x() + nx * half, start.y() + ny * half)
    path.lineTo(neck.x() + nx * half, neck.y() + ny * half)
    path.lineTo(neck.x() + nx * head_half, neck.y() + ny * head_half)
    path.lineTo(end)
    path.lineTo(neck.x() - nx * head_half, neck.y() - ny * head_half)
    path.lineTo(neck.x() - nx * half, neck.y() - ny * half)
    path.lineTo(start.x() - nx * half, start.y() - ny * half)
    path.closeSubpath()
    return path


def paint_scene(painter: QPainter, width: float, height: float, scene: BoardScene, vector: bool = False) -> None:
    """The whole picture of ``scene`` in a ``width`` × ``height`` area on a plain page."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    geometry = BoardGeometry(width, height, scene.flipped)
    painter.fillRect(QRectF(0, 0, width, height), PICTURE_BACKGROUND)
    paint_board(painter, geometry, scene.coordinates, vector, scene.theme)
    paint_highlights(painter, geometry, scene.highlights)
    paint_last_move(painter, geometry, scene.last_move)
    if scene.fog is None:
        paint_check(painter, geometry, scene.board)
    fog = scene.fog or frozenset()
    paint_pieces(painter, geometry, scene.board,
                 lambda p, code, centre, cell: paint_piece(p, code, centre, cell, vector, scene.theme),
                 lambda sq: sq in fog)
    paint_fog(painter, geometry, scene.fog)
    paint_arrows(painter, geometry, scene.arrows, vector)
    paint_drawings(painter, geometry, scene.drawings)
