"""The board widget: draws a position and turns clicks and drags into moves.

It shows what it is given (``set_position``) and never changes the game itself: a person's legal
move comes out as ``move_chosen``; an illegal attempt is refused with ``move_refused(reason)``.
Everything scales with the widget: the grid, river text, palace diagonals, file numbers for both
sides, the pieces (bundled Chinese glyphs), the selection, legal destinations, last move, a king in
check and engine candidate arrows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush, QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QPixmap,
    QRadialGradient, QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.squares import (
    FILES, RANKS, SQUARE_COUNT, Square, square, square_file, square_rank,
)
from xqdesk.ui.i18n import tr
from xqdesk.ui.piece_glyphs import (
    BLACK_FILE_NUMBERS, RED_FILE_NUMBERS, RIVER_LEFT, RIVER_RIGHT, board_font, piece_character,
)

BOARD_COLOR = QColor("#e9c98f")
LINE_COLOR = QColor("#4a2f14")
PIECE_FACE = QColor("#f8ebc8")
PIECE_EDGE = QColor("#8a6a3a")
RED_INK = QColor("#c0251b")
BLACK_INK = QColor("#1c1c1c")
SELECTED_COLOR = QColor(30, 120, 255, 200)
DESTINATION_COLOR = QColor(20, 140, 60, 190)
LAST_MOVE_COLOR = QColor(40, 110, 220, 170)
CHECK_COLOR = QColor(230, 20, 20)
FOG_COLOR = QColor(105, 110, 120, 215)
"""Unseen squares in fog of war: a grey veil, drawn over the lines."""
#: Candidate-arrow colours by MultiPV rank (best first).
ARROW_COLORS = (QColor(30, 110, 230, 190), QColor(30, 160, 80, 170), QColor(230, 140, 20, 160),
                QColor(150, 60, 200, 150), QColor(120, 120, 120, 140))

PIECE_RADIUS = 0.45  # in cells
DRAG_START_DISTANCE = 4  # pixels


def illegal_move_reason(board: Board, move: Move) -> str:
    """Why ``move`` is refused on ``board``, for the status bar (the board judges and explains)."""
    why = board.why_illegal(move) or "not a legal move here"
    return tr("Illegal move: {reason}").format(reason=f"{move.iccs()}: {why}")


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


class BoardView(QWidget):
    """Draws a :class:`~xqdesk.board.Board` and lets a person move the pieces of ``movable_colors``."""

    move_chosen = Signal(object)  # a legal Move made by the person
    move_refused = Signal(str)  # why an attempted move was refused
    square_clicked = Signal(int)  # any press on a square (for editors and tools)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._board = Board()
        self._last_move: Move | None = None
        self._flipped = False
        self._movable: frozenset[Color] = frozenset((RED, BLACK))
        self._arrows: tuple[Arrow, ...] = ()
        self._selected: Square | None = None
        self._press_position: QPointF | None = None
        self._drag_position: QPointF | None = None
        self._dragging = False
        self._piece_cache: dict[tuple[int, int, float], QPixmap] = {}
        self._fog: frozenset[Square] | None = None
        self.setMinimumSize(200, 220)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)

    # --- what is shown ---------------------------------------------------------------------
    def set_position(self, board: Board, last_move: Move | None = None) -> None:
        """Show a copy of ``board``; ``last_move`` (the move that led to it) is marked."""
        self._board = board.copy()
        self._last_move = last_move
        self._clear_selection()
        self.update()

    def board(self) -> Board:
        """A copy of the position shown."""
        return self._board.copy()

    def set_fog(self, unseen: frozenset[Square] | set[Square] | None) -> None:
        """Fog of war: cover ``unseen`` squares (their pieces are not drawn, no check is shown and a
        click there tells nothing); None shows the whole board."""
        fog = None if unseen is None else frozenset(unseen)
        if fog != self._fog:
            self._fog = fog
            self.update()

    def fog(self) -> frozenset[Square] | None:
        """The squares under fog (None when the whole board is shown)."""
        return self._fog

    def _hidden(self, sq: Square) -> bool:
        return self._fog is not None and sq in self._fog

    def set_flipped(self, flipped: bool) -> None:
        """Black at the bottom when ``flipped``."""
        if flipped != self._flipped:
            self._flipped = flipped
            self.update()

    def is_flipped(self) -> bool:
        return self._flipped

    def set_movable_colors(self, colors: frozenset[Color] | set[Color]) -> None:
        """The colours a person may move now (empty while an engine or a replay has the board)."""
        self._movable = frozenset(colors)
        if self._selected is not None and self._board.turn not in self._movable:
            self._clear_selection()
        self.update()

    def movable_colors(self) -> frozenset[Color]:
        return self._movable

    def set_arrows(self, arrows: list[Arrow] | tuple[Arrow, ...]) -> None:
        """Candidate moves to draw (replaces the previous ones)."""
        arrows = tuple(arrows)
        if arrows != self._arrows:
            self._arrows = arrows
            self.update()

    def arrows(self) -> tuple[Arrow, ...]:
        return self._arrows

    def selected_square(self) -> Square | None:
        return self._selected

    def geometry_model(self) -> BoardGeometry:
        return BoardGeometry(self.width(), self.height(), self._flipped)

    def square_center(self, sq: Square) -> QPointF:
        """Widget pixel position of a square's centre (for tests and tools)."""
        return self.geometry_model().square_center(sq)

    def legal_destinations(self) -> list[Square]:
        """Where the selected piece may go."""
        if self._selected is None:
            return []
        return [move.to_square for move in self._board.legal_moves if move.from_square == self._selected]

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(540, 594)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return int(width * 1.1)

    # --- input -----------------------------------------------------------------------------
    def _clear_selection(self) -> None:
        self._selected = None
        self._dragging = False
        self._drag_position = None
        self._press_position = None

    def _own_piece(self, sq: Square) -> bool:
        code = self._board.code_at(sq)
        return code != 0 and (code > 0) == self._board.turn and self._board.turn in self._movable

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            if event.button() == Qt.MouseButton.RightButton:
                self._clear_selection()
                self.update()
            return
        position = event.position()
        sq = self.geometry_model().square_at(position)
        if sq is None:
            return
        self.square_clicked.emit(sq)
        if self._own_piece(sq):
            self._selected = sq
            self._press_position = position
            self._dragging = False
            self.update()
            return
        if self._selected is not None:
            self._attempt(Move(self._selected, sq))
            return
        code = 0 if self._hidden(sq) else self._board.code_at(sq)
        if code != 0 and self._board.turn not in self._movable:
            self.move_refused.emit(tr("Not your move now: {side} is played by an engine or a replay")
                                   .format(side=tr("Red" if self._board.turn == RED else "Black")))
        elif code != 0:
            self.move_refused.emit(tr("Illegal move: {reason}").format(
                reason=tr("Red to move" if self._board.turn == RED else "Black to move")))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._press_position is None or self._selected is None:
            return
        position = event.position()
        if not self._dragging:
            delta = position - self._press_position
            if abs(delta.x()) + abs(delta.y()) < DRAG_START_DISTANCE:
                return
            self._dragging = True
        self._drag_position = position
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            return
        was_dragging = self._dragging
        self._dragging = False
        self._drag_position = None
        self._press_position = None
        if was_dragging and self._selected is not None:
            target = self.geometry_model().square_at(event.position())
            if target is not None and target != self._selected:
                self._attempt(Move(self._selected, target))
                return
        self.update()

    def _attempt(self, move: Move) -> None:
        board = self._board
        self._clear_selection()
        if board.is_legal(move):
            self.move_chosen.emit(move)
        else:
            self.move_refused.emit(illegal_move_reason(board, move))
        self.update()

    # --- painting --------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        self._piece_cache.clear()
        super().resizeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        geometry = self.geometry_model()
        painter.fillRect(self.rect(), self.palette().window())
        self._paint_board(painter, geometry)
        self._paint_last_move(painter, geometry)
        self._paint_check(painter, geometry)
        self._paint_pieces(painter, geometry)
        self._paint_fog(painter, geometry)
        self._paint_selection(painter, geometry)
        self._paint_arrows(painter, geometry)
        self._paint_dragged_piece(painter, geometry)
        painter.end()

    def _paint_board(self, painter: QPainter, geometry: BoardGeometry) -> None:
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
            self._paint_position_mark(painter, geometry, column, row)
        self._paint_river(painter, geometry)
        self._paint_file_numbers(painter, geometry)

    @staticmethod
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

    @staticmethod
    def _paint_river(painter: QPainter, geometry: BoardGeometry) -> None:
        cell = geometry.cell
        painter.setFont(board_font(int(cell * 0.62)))
        painter.setPen(LINE_COLOR)
        left = QRectF(geometry.point(0.5, 4), geometry.point(3.5, 5))
        right = QRectF(geometry.point(4.5, 4), geometry.point(7.5, 5))
        painter.drawText(left, Qt.AlignmentFlag.AlignCenter, "  ".join(RIVER_LEFT))
        painter.drawText(right, Qt.AlignmentFlag.AlignCenter, "  ".join(RIVER_RIGHT))

    def _paint_file_numbers(self, painter: QPainter, geometry: BoardGeometry) -> None:
        cell = geometry.cell
        painter.setFont(board_font(int(cell * 0.34)))
        red_row, black_row = (-0.66, 9.66) if geometry.flipped else (9.66, -0.66)
        for file in range(FILES):
            column = 8 - file if geometry.flipped else file
            for row, text, ink in ((red_row, RED_FILE_NUMBERS[file], RED_INK),
                                   (black_row, BLACK_FILE_NUMBERS[file], BLACK_INK)):
                centre = geometry.point(column, row)
                rect = QRectF(centre.x() - cell / 2, centre.y() - cell * 0.25, cell, cell * 0.5)
                painter.setPen(ink)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_last_move(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if self._last_move is None:
            return
        cell = geometry.cell
        pen = QPen(LAST_MOVE_COLOR, max(1.5, cell * 0.05))
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for sq in (self._last_move.from_square, self._last_move.to_square):
            centre = geometry.square_center(sq)
            half, arm = cell * 0.48, cell * 0.16
            for dx in (-1, 1):
                for dy in (-1, 1):
                    corner = QPointF(centre.x() + dx * half, centre.y() + dy * half)
                    painter.drawLine(corner, QPointF(corner.x() - dx * arm, corner.y()))
                    painter.drawLine(corner, QPointF(corner.x(), corner.y() - dy * arm))

    def _paint_fog(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if not self._fog:
            return
        half = geometry.cell * 0.5
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(FOG_COLOR)
        for sq in self._fog:
            centre = geometry.square_center(sq)
            painter.drawRect(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half))

    def _paint_check(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if self._fog is not None or not self._board.is_check():  # in fog, check would tell too much
            return
        king = self._board.king_square(self._board.turn)
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

    def _piece_pixmap(self, code: int, cell: float) -> QPixmap:
        ratio = self.devicePixelRatioF()
        key = (code, int(cell), ratio)
        pixmap = self._piece_cache.get(key)
        if pixmap is None:
            pixmap = render_piece(code, int(cell), ratio)
            self._piece_cache[key] = pixmap
        return pixmap

    def _draw_piece(self, painter: QPainter, code: int, centre: QPointF, cell: float) -> None:
        pixmap = self._piece_pixmap(code, cell)
        size = pixmap.width() / pixmap.devicePixelRatio()
        painter.drawPixmap(QPointF(centre.x() - size / 2, centre.y() - size / 2), pixmap)

    def _paint_pieces(self, painter: QPainter, geometry: BoardGeometry) -> None:
        cell = geometry.cell
        dragged = self._selected if self._dragging else None
        for sq in range(SQUARE_COUNT):
            code = self._board.code_at(sq)
            if code and sq != dragged and not self._hidden(sq):
                self._draw_piece(painter, code, geometry.square_center(sq), cell)

    def _paint_selection(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if self._selected is None:
            return
        cell = geometry.cell
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(SELECTED_COLOR, max(2.0, cell * 0.07)))
        centre = geometry.square_center(self._selected)
        painter.drawEllipse(centre, cell * (PIECE_RADIUS + 0.03), cell * (PIECE_RADIUS + 0.03))
        for target in self.legal_destinations():
            centre = geometry.square_center(target)
            if self._board.code_at(target):
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(DESTINATION_COLOR, max(2.0, cell * 0.07)))
                painter.drawEllipse(centre, cell * (PIECE_RADIUS + 0.03), cell * (PIECE_RADIUS + 0.03))
            else:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(DESTINATION_COLOR)
                painter.drawEllipse(centre, cell * 0.12, cell * 0.12)

    def _paint_arrows(self, painter: QPainter, geometry: BoardGeometry) -> None:
        cell = geometry.cell
        for arrow in sorted(self._arrows, key=lambda a: -a.rank):  # best arrow on top
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
                painter.setFont(font)
                rect = QRectF(end.x() - cell * 0.4, end.y() - cell * 0.16, cell * 0.8, cell * 0.32)
                painter.setBrush(QColor(255, 255, 255, 220))
                painter.drawRoundedRect(rect, 4, 4)
                painter.setPen(color.darker(160))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, arrow.label)

    def _paint_dragged_piece(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if not self._dragging or self._selected is None or self._drag_position is None:
            return
        code = self._board.code_at(self._selected)
        if code:
            self._draw_piece(painter, code, self._drag_position, geometry.cell * 1.08)


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


def render_piece(code: int, cell: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """A transparent pixmap of one piece (disc, rings and character) for a board with ``cell`` pixels."""
    diameter = max(4, int(cell * PIECE_RADIUS * 2) + 4)
    pixmap = QPixmap(int(diameter * device_pixel_ratio), int(diameter * device_pixel_ratio))
    pixmap.setDevicePixelRatio(device_pixel_ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    centre = QPointF(diameter / 2, diameter / 2)
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
    painter.setFont(board_font(int(cell * 0.5)))
    painter.setPen(ink)
    painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, radius * 2, radius * 2),
                     Qt.AlignmentFlag.AlignCenter, piece_character(code))
    painter.end()
    return pixmap
