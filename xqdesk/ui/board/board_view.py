"""The board widget: draws a position and turns clicks and drags into moves.

It shows what it is given (``set_position``) and never changes the game itself: a person's legal
move comes out as ``move_chosen``; an illegal attempt is refused with ``move_refused(reason)``.
Everything scales with the widget: the grid, river text, palace diagonals, file numbers for both
sides, the pieces (bundled Chinese glyphs), the selection, legal destinations, last move, a king in
check, highlighted squares, engine candidate arrows and a person's own drawings — all drawn by :mod:`xqdesk.ui.board.board_render`,
which draws pictures of the board too.

**Drawing** (as on lichess and in ChessBase): a right-button drag from one square to another draws
an arrow, a right click circles the square; the same arrow or circle again removes it. The colour
is green, red with Shift or Ctrl held, blue with Alt, yellow with Shift and Alt. The view shows what
it is given (``set_drawings``) and says what a person drew with ``drawings_edited``; the window keeps
them in the viewed move's comment (:mod:`xqdesk.drawings`).
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from xqdesk.board import Board
from xqdesk.drawings import Drawings, DrawnArrow, DrawnCircle
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.squares import Square
from xqdesk.ui.base.i18n import side_word, tr
from xqdesk.ui.base.move_reasons import illegal_move_reason as _illegal_move_reason
from xqdesk.ui.board.board_render import (  # re-exported: the board's look is defined there
    ARROW_COLORS,
    BLACK_INK,
    BOARD_COLOR,
    CHECK_COLOR,
    FOG_COLOR,
    LAST_MOVE_COLOR,
    LINE_COLOR,
    PIECE_EDGE,
    PIECE_FACE,
    PIECE_RADIUS,
    RED_INK,
    Arrow,
    ArrowShape,
    BoardGeometry,
    BoardScene,
    arrow_path,
    arrow_shape,
    arrow_style,
    paint_arrows,
    paint_board,
    paint_check,
    paint_drawings,
    paint_fog,
    paint_highlights,
    paint_last_move,
    paint_pieces,
    render_piece,
)
from xqdesk.ui.board.themes import DEFAULT_THEME, Theme

SELECTED_COLOR = QColor(30, 120, 255, 200)
DESTINATION_COLOR = QColor(20, 140, 60, 190)
DRAG_START_DISTANCE = 4  # pixels

__all__ = ["BoardView", "Arrow", "ArrowShape", "arrow_shape", "arrow_style", "BoardGeometry", "render_piece", "arrow_path", "illegal_move_reason",
           "ARROW_COLORS", "BLACK_INK", "BOARD_COLOR", "CHECK_COLOR", "FOG_COLOR", "LAST_MOVE_COLOR", "LINE_COLOR",
           "PIECE_EDGE", "PIECE_FACE", "PIECE_RADIUS", "RED_INK"]


def illegal_move_reason(board: Board, move: Move, notation: Notation = Notation.ICCS) -> str:
    """Why ``move`` is refused on ``board``, for the status bar (the board judges and explains),
    in the interface language with the move in ``notation``."""
    return _illegal_move_reason(board, move, notation)


def drawing_color(modifiers: Qt.KeyboardModifier) -> str:
    """The colour letter of a drawing made with ``modifiers`` held (lichess's keys): Shift or Ctrl
    red, Alt blue, Shift (or Ctrl) with Alt yellow, none green."""
    red = bool(modifiers & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier))
    blue = bool(modifiers & Qt.KeyboardModifier.AltModifier)
    return "Y" if red and blue else "R" if red else "B" if blue else "G"


class BoardView(QWidget):
    """Draws a :class:`~xqdesk.board.Board` and lets a person move the pieces of ``movable_colors``."""

    move_chosen = Signal(object)  # a legal Move made by the person
    move_refused = Signal(str)  # why an attempted move was refused
    square_clicked = Signal(int)  # any press on a square (for editors and tools)
    drawings_edited = Signal(object)  # the Drawings after a person drew or removed an arrow or circle

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._board = Board()
        self._last_move: Move | None = None
        self._flipped = False
        self._movable: frozenset[Color] = frozenset((RED, BLACK))
        self._arrows: tuple[Arrow, ...] = ()
        self._book_arrows: tuple[Arrow, ...] = ()
        self._drawings = Drawings()
        self._drawing_from: Square | None = None
        self._drawing_to: Square | None = None
        self._selected: Square | None = None
        self._press_position: QPointF | None = None
        self._drag_position: QPointF | None = None
        self._dragging = False
        self._piece_cache: dict[tuple[int, int, float], QPixmap] = {}
        self._fog: frozenset[Square] | None = None
        self._highlights: frozenset[Square] = frozenset()
        self._coordinates = True
        self._theme: Theme = DEFAULT_THEME
        self._notation = Notation.ICCS
        self._refusal = ""
        self._board_cache: tuple[tuple[int, int, bool, bool, str, float], QPixmap] | None = None
        self.setMinimumSize(200, 220)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)

    # --- what is shown ---------------------------------------------------------------------
    def set_position(self, board: Board, last_move: Move | None = None) -> None:
        """Show a copy of ``board``; ``last_move`` (the move that led to it) is marked. The book
        arrows and drawings of another position go."""
        if board.fen() != self._board.fen():
            self._book_arrows = ()
            self._drawings = Drawings()
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

    def set_refusal(self, reason: str) -> None:
        """Why the side to move cannot be moved now, said when a person tries ('': the default)."""
        self._refusal = reason

    def set_notation(self, notation: Notation) -> None:
        """The notation refused moves are written in."""
        self._notation = notation

    def set_theme(self, theme: Theme) -> None:
        """Draw the board and pieces in ``theme``."""
        if theme != self._theme:
            self._theme = theme
            self._piece_cache.clear()
            self.update()

    def theme(self) -> Theme:
        return self._theme

    def arrow_shape(self, arrow: Arrow) -> ArrowShape:
        """Where ``arrow`` is drawn in the widget (see :class:`ArrowShape`)."""
        return arrow_shape(arrow, self.geometry_model())

    def set_arrows(self, arrows: list[Arrow] | tuple[Arrow, ...]) -> None:
        """Candidate moves to draw (replaces the previous ones)."""
        arrows = tuple(arrows)
        if arrows != self._arrows:
            self._arrows = arrows
            self.update()

    def arrows(self) -> tuple[Arrow, ...]:
        return self._arrows

    def set_book_arrows(self, arrows: list[Arrow] | tuple[Arrow, ...]) -> None:
        """The opening book's moves to draw, under the engines' arrows (replaces the previous ones)."""
        arrows = tuple(arrows)
        if arrows != self._book_arrows:
            self._book_arrows = arrows
            self.update()

    def book_arrows(self) -> tuple[Arrow, ...]:
        return self._book_arrows

    def set_drawings(self, drawings: Drawings) -> None:
        """The arrows and circles a person drew, to show over the pieces (replaces the previous ones)."""
        if drawings != self._drawings:
            self._drawings = drawings
            self.update()

    def drawings(self) -> Drawings:
        return self._drawings

    def set_highlights(self, squares: frozenset[Square] | set[Square]) -> None:
        """Squares to mark with a translucent disc (replaces the previous ones)."""
        highlights = frozenset(squares)
        if highlights != self._highlights:
            self._highlights = highlights
            self.update()

    def highlights(self) -> frozenset[Square]:
        return self._highlights

    def set_coordinates(self, shown: bool) -> None:
        """Show the file numbers of both sides around the board, or not."""
        if shown != self._coordinates:
            self._coordinates = shown
            self.update()

    def has_coordinates(self) -> bool:
        return self._coordinates

    def scene(self) -> BoardScene:
        """What the view shows, as a picture would show it (no selection, no dragged piece)."""
        return BoardScene(self._board.copy(), self._last_move, self._flipped, self._arrows, self._highlights,
                          self._coordinates, self._fog, self._theme, self._drawings)

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
                self._drawing_from = self._drawing_to = self.geometry_model().square_at(event.position())
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
        if code != 0 and self._board.turn not in self._movable and self._refusal:
            self.move_refused.emit(tr("Illegal move: {reason}").format(reason=self._refusal))
        elif code != 0 and self._board.turn not in self._movable:
            self.move_refused.emit(tr("Not your move now: {side} is played by an engine or a replay")
                                   .format(side=side_word(self._board.turn)))
        elif code != 0:
            self.move_refused.emit(tr("Illegal move: {reason}").format(
                reason=tr("Red to move" if self._board.turn == RED else "Black to move")))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._drawing_from is not None:
            target = self.geometry_model().square_at(event.position())
            if target is not None and target != self._drawing_to:
                self._drawing_to = target
                self.update()
            return
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
        if event.button() == Qt.MouseButton.RightButton:
            self._finish_drawing(event)
            return
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

    def _finish_drawing(self, event: QMouseEvent) -> None:
        """A right-button drag ends: an arrow from the pressed square to this one, or on the same
        square a circle; drawn again, it goes."""
        start = self._drawing_from
        self._drawing_from = self._drawing_to = None
        end = self.geometry_model().square_at(event.position())
        self.update()
        if start is None or end is None:
            return
        color = drawing_color(event.modifiers())
        if start == end:
            drawings = self._drawings.toggled_circle(DrawnCircle(start, color))
        else:
            drawings = self._drawings.toggled_arrow(DrawnArrow(start, end, color))
        self._drawings = drawings
        self.drawings_edited.emit(drawings)

    def _attempt(self, move: Move) -> None:
        board = self._board
        self._clear_selection()
        if board.is_legal(move):
            self.move_chosen.emit(move)
        else:
            self.move_refused.emit(illegal_move_reason(board, move, self._notation))
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
        painter.drawPixmap(0, 0, self._board_pixmap(geometry))
        paint_highlights(painter, geometry, self._highlights)
        paint_last_move(painter, geometry, self._last_move)
        if self._fog is None:  # in fog, check would tell too much
            paint_check(painter, geometry, self._board)
        dragged = self._selected if self._dragging else None
        paint_pieces(painter, geometry, self._board, self._draw_piece,
                     lambda sq: sq == dragged or self._hidden(sq))
        paint_fog(painter, geometry, self._fog)
        self._paint_selection(painter, geometry)
        paint_arrows(painter, geometry, self._book_arrows + self._arrows)
        paint_drawings(painter, geometry, self._drawings_shown())
        self._paint_dragged_piece(painter, geometry)
        painter.end()

    def _drawings_shown(self) -> Drawings:
        """The drawings, with the arrow being drawn (a right-button drag under way) on top."""
        start, end = self._drawing_from, self._drawing_to
        if start is None or end is None or start == end:
            return self._drawings
        return Drawings(self._drawings.arrows + (DrawnArrow(start, end),), self._drawings.circles)

    def _board_pixmap(self, geometry: BoardGeometry) -> QPixmap:
        """The empty board drawn once per size, side, coordinates and theme (the wood's grain
        is too slow to draw on every move)."""
        ratio = self.devicePixelRatioF()
        key = (self.width(), self.height(), self._flipped, self._coordinates, self._theme.key, ratio)
        if self._board_cache is None or self._board_cache[0] != key:
            pixmap = QPixmap(max(1, int(self.width() * ratio)), max(1, int(self.height() * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            board_painter = QPainter(pixmap)
            board_painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            board_painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            paint_board(board_painter, geometry, self._coordinates, theme=self._theme)
            board_painter.end()
            self._board_cache = (key, pixmap)
        return self._board_cache[1]

    def _piece_pixmap(self, code: int, cell: float) -> QPixmap:
        ratio = self.devicePixelRatioF()
        key = (code, int(cell), ratio)
        pixmap = self._piece_cache.get(key)
        if pixmap is None:
            pixmap = render_piece(code, int(cell), ratio, self._theme)
            self._piece_cache[key] = pixmap
        return pixmap

    def _draw_piece(self, painter: QPainter, code: int, centre: QPointF, cell: float) -> None:
        pixmap = self._piece_pixmap(code, cell)
        size = pixmap.width() / pixmap.devicePixelRatio()
        painter.drawPixmap(QPointF(centre.x() - size / 2, centre.y() - size / 2), pixmap)

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

    def _paint_dragged_piece(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if not self._dragging or self._selected is None or self._drag_position is None:
            return
        code = self._board.code_at(self._selected)
        if code:
            self._draw_piece(painter, code, self._drag_position, geometry.cell * 1.08)

