"""Drawing a board with a ``QPainter``: the one renderer of the window's board and of pictures.

:func:`paint_scene` draws a :class:`BoardScene` (a position with its last move, highlighted squares,
arrows, orientation and coordinates) on any paint device: the board widget, a ``QImage`` (PNG, GIF
frames, the clipboard) or a ``QSvgGenerator``. With ``vector=True`` (SVG) pieces are drawn as
shapes and every character as outlines taken from the bundled fonts, so the SVG shows the same
glyphs on a machine without them; on screen text is drawn as text (hinted) and pieces come from a
pixmap cache (see :class:`~xqdesk.ui.board_view.BoardView`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPixmap, QRadialGradient,
)

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT, Square, square, square_file, square_rank
from xqdesk.ui.piece_glyphs import (
    BLACK_FILE_NUMBERS, RED_FILE_NUMBERS, RIVER_LEFT, RIVER_RIGHT, board_font, piece_character,
)

BOARD_COLOR = QColor("#e9c98f")
LINE_COLOR = QColor("#4a2f14")
PIECE_FACE = QColor("#f8ebc8")
PIECE_EDGE = QColor("#8a6a3a")
RED_INK = QColor("#c0251b")
BLACK_INK = QColor("#1c1c1c")
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

PIECE_RADIUS = 0.45  # in cells
BOARD_ASPECT = 1.1
"""Height over width of a board picture (the board is 10 × 11 cells with its margins)."""


@dataclass(frozen=True)
class Arrow:
    """A candidate move to draw: ``rank`` 0 is the engine's best line; ``label`` is drawn at the head."""

    move: Move
    rank: int = 0
    label: str = ""


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
    arrows, Black at the bottom when ``flipped``, the file numbers when ``coordinates``, and the
    squares under fog (None: the whole board)."""

    board: Board
    last_move: Move | None = None
    flipped: bool = False
    arrows: tuple[Arrow, ...] = ()
    highlights: frozenset[Square] = frozenset()
    coordinates: bool = True
    fog: frozenset[Square] | None = None


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


def paint_board(painter: QPainter, geometry: BoardGeometry, coordinates: bool = True, vector: bool = False) -> None:
    """The wooden board: grid, palaces, position marks, river text and (``coordinates``) file numbers."""
    cell = geometry.cell
    outer = QRectF(geometry.point(-0.9, -0.9), geometry.point(8.9, 9.9))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(BOARD_COLOR)
    painter.drawRoundedRect(outer, cell * 0.15, cell * 0.15)

    thin = QPen(LINE_COLOR, max(1.0, cell * 0.025))
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
    thick = QPen(LINE_COLOR, max(2.0, cell * 0.06))
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
    draw_text(painter, left, "  ".join(RIVER_LEFT), river_font, LINE_COLOR, vector)
    draw_text(painter, right, "  ".join(RIVER_RIGHT), river_font, LINE_COLOR, vector)
    if coordinates:
        _paint_file_numbers(painter, geometry, vector)


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


def _paint_file_numbers(painter: QPainter, geometry: BoardGeometry, vector: bool) -> None:
    cell = geometry.cell
    font = board_font(int(cell * 0.34))
    red_row, black_row = (-0.66, 9.66) if geometry.flipped else (9.66, -0.66)
    for file in range(FILES):
        column = 8 - file if geometry.flipped else file
        for row, text, ink in ((red_row, RED_FILE_NUMBERS[file], RED_INK),
                               (black_row, BLACK_FILE_NUMBERS[file], BLACK_INK)):
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


def paint_piece(painter: QPainter, code: int, centre: QPointF, cell: float, vector: bool = False) -> None:
    """One piece (disc, rings and character) centred on ``centre`` for a board with ``cell`` pixels."""
    radius = cell * PIECE_RADIUS
    ink = RED_INK if code > 0 else BLACK_INK
    shade = QRadialGradient(QPointF(centre.x() - radius * 0.3, centre.y() - radius * 0.3), radius * 1.4)
    shade.setColorAt(0.0, PIECE_FACE.lighter(108))
    shade.setColorAt(1.0, PIECE_FACE.darker(118))
    painter.setPen(QPen(PIECE_EDGE, max(1.0, cell * 0.03)))
    painter.setBrush(QBrush(shade))
    painter.drawEllipse(centre, radius, radius)
    painter.setPen(QPen(ink, max(1.0, cell * 0.03)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(centre, radius * 0.82, radius * 0.82)
    draw_text(painter, QRectF(centre.x() - radius, centre.y() - radius, radius * 2, radius * 2),
              piece_character(code), board_font(int(cell * 0.5)), ink, vector)


def render_piece(code: int, cell: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """A transparent pixmap of one piece for a board with ``cell`` pixels (the view's cache)."""
    diameter = max(4, int(cell * PIECE_RADIUS * 2) + 4)
    pixmap = QPixmap(int(diameter * device_pixel_ratio), int(diameter * device_pixel_ratio))
    pixmap.setDevicePixelRatio(device_pixel_ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    paint_piece(painter, code, QPointF(diameter / 2, diameter / 2), cell)
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


def paint_arrows(painter: QPainter, geometry: BoardGeometry, arrows: tuple[Arrow, ...], vector: bool = False) -> None:
    """Candidate arrows, the best on top, each with its label at the head."""
    cell = geometry.cell
    for arrow in sorted(arrows, key=lambda a: -a.rank):
        color = ARROW_COLORS[min(arrow.rank, len(ARROW_COLORS) - 1)]
        start = geometry.square_center(arrow.move.from_square)
        end = geometry.square_center(arrow.move.to_square)
        width = cell * (0.16 if arrow.rank == 0 else 0.11)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawPath(arrow_path(start, end, width, cell * 0.42))
        if arrow.label:
            font = QFont(painter.font())
            font.setPixelSize(max(8, int(cell * 0.26)))
            font.setBold(True)
            rect = QRectF(end.x() - cell * 0.4, end.y() - cell * 0.16, cell * 0.8, cell * 0.32)
            painter.setBrush(QColor(255, 255, 255, 220))
            painter.drawRoundedRect(rect, 4, 4)
            draw_text(painter, rect, arrow.label, font, color.darker(160), vector)


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
    paint_board(painter, geometry, scene.coordinates, vector)
    paint_highlights(painter, geometry, scene.highlights)
    paint_last_move(painter, geometry, scene.last_move)
    if scene.fog is None:
        paint_check(painter, geometry, scene.board)
    fog = scene.fog or frozenset()
    paint_pieces(painter, geometry, scene.board,
                 lambda p, code, centre, cell: paint_piece(p, code, centre, cell, vector), lambda sq: sq in fog)
    paint_fog(painter, geometry, scene.fog)
    paint_arrows(painter, geometry, scene.arrows, vector)
