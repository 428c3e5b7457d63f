"""The position editor: set up any position, see at once whether it can occur, and start from it.

Pieces are placed from a palette (one button per piece of each side, and an eraser): a left click
on a square puts the chosen piece there (clicking the same piece again removes it), a right click
always clears the square, and a piece dragged to another square moves there. The side to move is chosen below. Every change re-checks the position
with :mod:`xqdesk.position_check` — the same rules and words the FEN reader uses — and lists every
problem with its reason; "Start game" is enabled only for a valid position. The FEN field shows
the position as it is edited and reads a pasted FEN.

The editor holds raw piece codes rather than a :class:`~xqdesk.board.Board`, because a position
being set up is usually impossible for a while (no black king yet …) and a board refuses those.
"""
from __future__ import annotations

from typing import Optional, Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN, format_fen, parse_fen
from xqdesk.pieces import ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, RED, Color, PieceType
from xqdesk.position_check import PositionProblem, ProblemKind, find_position_problems
from xqdesk.squares import FILE_NAMES, SQUARE_COUNT, square_file, square_name
from xqdesk.ui.base.i18n import Language, current_language, follow_language, side_word, tr
from xqdesk.ui.base.settings import EngineProfile
from xqdesk.ui.board.board_view import (
    BLACK_INK,
    BOARD_COLOR,
    LINE_COLOR,
    PIECE_EDGE,
    PIECE_FACE,
    PIECE_RADIUS,
    RED_INK,
    BoardGeometry,
)
from xqdesk.ui.board.piece_glyphs import board_font, interface_font, piece_character

PALETTE_ORDER: tuple[PieceType, ...] = (KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, PAWN)
PIECE_LABELS: dict[PieceType, str] = {KING: "King", ADVISOR: "Advisor", ELEPHANT: "Elephant", HORSE: "Horse",
                                      CHARIOT: "Chariot", CANNON: "Cannon", PAWN: "Pawn"}
PROBLEM_COLOR = QColor(190, 30, 30)
VALID_COLOR = QColor(30, 130, 50)


def problem_text(problem: PositionProblem) -> str:
    """A position problem in the interface language (English: the checker's own words)."""
    if current_language() is Language.ENGLISH:
        return problem.text
    side = "" if problem.color is None else side_word(problem.color)
    where = "" if problem.square is None else square_name(problem.square)
    piece = "" if problem.piece_type is None else tr(PIECE_LABELS[problem.piece_type])
    if problem.kind is ProblemKind.MISSING_KING:
        return tr("{side} has no king").format(side=side)
    if problem.kind is ProblemKind.TOO_MANY:
        if problem.piece_type == KING:
            return tr("{side} has {count} kings").format(side=side, count=problem.count)
        limit = 5 if problem.piece_type == PAWN else 2
        return tr("{side} has {count} {piece}s, at most {limit} allowed").format(
            side=side, count=problem.count, piece=piece, limit=limit)
    if problem.kind is ProblemKind.MISPLACED:
        if problem.piece_type == ADVISOR:
            return tr("{side} advisor on {square} is off the palace diagonals").format(side=side, square=where)
        if problem.piece_type == ELEPHANT:
            return tr("{side} elephant on {square} is not on an elephant point").format(side=side, square=where)
        if problem.piece_type == PAWN:
            return tr("{side} pawn on {square} is behind its start").format(side=side, square=where)
        return tr("{side} {piece} on {square} is outside its palace").format(side=side, piece=piece, square=where)
    if problem.kind is ProblemKind.KINGS_FACING:
        file = FILE_NAMES[square_file(problem.square or 0)]
        return tr("the two kings face each other on file {file}").format(file=file)
    mover = tr("Black") if problem.color == RED else tr("Red")
    return tr("{mover} is to move but the other king is in check").format(mover=mover)


class EditorBoard(QWidget):
    """Draws the editor's position (valid or not) and reports clicks on squares."""

    square_pressed = Signal(int, bool)  # square, True for a left click (place) / False: right (clear)
    piece_dragged = Signal(int, int)  # from square, to square: a piece dragged with the left button

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._codes: tuple[int, ...] = (0,) * SQUARE_COUNT
        self._marked: frozenset[int] = frozenset()
        self._pressed: Optional[int] = None
        self._flipped = False
        self.setMinimumSize(180, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, 440)

    def set_codes(self, codes: Sequence[int]) -> None:
        self._codes = tuple(codes)
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        self._flipped = flipped
        self.update()

    def set_marked(self, squares: Sequence[int]) -> None:
        """Ring these squares (the pieces a problem is about)."""
        self._marked = frozenset(squares)
        self.update()

    @property
    def marked(self) -> frozenset[int]:
        return self._marked

    def geometry_model(self) -> BoardGeometry:
        return BoardGeometry(float(self.width()), float(self.height()), self._flipped)

    def square_center(self, sq: int) -> QPointF:
        """Where square ``sq`` is drawn, in widget coordinates."""
        return self.geometry_model().square_center(sq)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        sq = self.geometry_model().square_at(event.position())
        if event.button() == Qt.MouseButton.RightButton and sq is not None:
            self.square_pressed.emit(sq, False)
        elif event.button() == Qt.MouseButton.LeftButton:
            self._pressed = sq
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton and self._pressed is not None:
            start, self._pressed = self._pressed, None
            sq = self.geometry_model().square_at(event.position())
            if sq == start:
                self.square_pressed.emit(sq, True)
            elif sq is not None and self._codes[start]:
                self.piece_dragged.emit(start, sq)
        super().mouseReleaseEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        geometry = self.geometry_model()
        cell = geometry.cell
        painter.fillRect(self.rect(), self.palette().window())
        painter.fillRect(QRectF(geometry.point(-0.6, -0.6), geometry.point(8.6, 9.6)), BOARD_COLOR)
        painter.setPen(QPen(LINE_COLOR, max(1.0, cell * 0.03)))
        for row in range(10):
            painter.drawLine(geometry.point(0, row), geometry.point(8, row))
        for column in range(9):
            if column in (0, 8):
                painter.drawLine(geometry.point(column, 0), geometry.point(column, 9))
            else:
                painter.drawLine(geometry.point(column, 0), geometry.point(column, 4))
                painter.drawLine(geometry.point(column, 5), geometry.point(column, 9))
        for top in (0, 7):
            painter.drawLine(geometry.point(3, top), geometry.point(5, top + 2))
            painter.drawLine(geometry.point(5, top), geometry.point(3, top + 2))
        font = board_font(max(1, int(cell * 0.62)))
        painter.setFont(font)
        radius = cell * PIECE_RADIUS
        for sq, code in enumerate(self._codes):
            if not code:
                continue
            centre = geometry.square_center(sq)
            ink = RED_INK if code > 0 else BLACK_INK
            painter.setPen(QPen(PIECE_EDGE, max(1.0, cell * 0.04)))
            painter.setBrush(PIECE_FACE)
            painter.drawEllipse(centre, radius, radius)
            painter.setPen(QPen(ink, max(1.0, cell * 0.03)))
            painter.drawEllipse(centre, radius * 0.82, radius * 0.82)
            box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, piece_character(code))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(PROBLEM_COLOR, max(2.0, cell * 0.08)))
        for sq in self._marked:
            painter.drawEllipse(geometry.square_center(sq), radius * 1.1, radius * 1.1)
        painter.end()


class PositionEditor(QWidget):
    """Palette, board, side to move, validity with reasons, FEN in and out, and "Start game"."""

    position_changed = Signal()
    start_game_requested = Signal(str)  # the FEN of the valid position

    def __init__(self, parent: Optional[QWidget] = None, fen: str = STARTING_FEN) -> None:
        super().__init__(parent)
        self._codes: list[int] = [0] * SQUARE_COUNT
        self._turn: Color = RED
        self._problems: list[PositionProblem] = []
        self._fen_error = ""

        self.board = EditorBoard()
        self.board.square_pressed.connect(self._on_square_pressed)
        self.board.piece_dragged.connect(self.move_piece)

        self.palette_group = QButtonGroup(self)
        self.palette_group.setExclusive(True)
        palette = QGridLayout()
        self.palette_buttons: dict[int, QToolButton] = {}
        for row, color in enumerate((RED, BLACK)):
            for column, piece_type in enumerate(PALETTE_ORDER):
                code = piece_type if color == RED else -piece_type
                button = QToolButton()
                button.setCheckable(True)
                button.setText(piece_character(code))
                button.setFont(board_font(22))
                button.setStyleSheet(f"color: {(RED_INK if color == RED else BLACK_INK).name()};")
                button.setMinimumSize(34, 34)
                self.palette_group.addButton(button, code + 100)
                self.palette_buttons[code] = button
                palette.addWidget(button, row, column)
        self.eraser_button = QToolButton()
        self.eraser_button.setCheckable(True)
        self.palette_group.addButton(self.eraser_button, 100)
        palette.addWidget(self.eraser_button, 0, len(PALETTE_ORDER), 2, 1)
        self.palette_buttons[RED * KING].setChecked(True)

        self.side_label = QLabel()
        self.red_button = QRadioButton()
        self.black_button = QRadioButton()
        self.red_button.setChecked(True)
        self.red_button.toggled.connect(self._on_side_toggled)
        side_row = QHBoxLayout()
        side_row.addWidget(self.side_label)
        side_row.addWidget(self.red_button)
        side_row.addWidget(self.black_button)
        side_row.addStretch(1)

        self.clear_button = QPushButton()
        self.clear_button.clicked.connect(self.clear)
        self.start_position_button = QPushButton()
        self.start_position_button.clicked.connect(lambda: self.set_fen(STARTING_FEN))
        preset_row = QHBoxLayout()
        preset_row.addWidget(self.clear_button)
        preset_row.addWidget(self.start_position_button)
        preset_row.addStretch(1)

        self.fen_edit = QLineEdit()
        self.fen_edit.returnPressed.connect(self._on_fen_entered)
        self.load_fen_button = QPushButton()
        self.load_fen_button.clicked.connect(self._on_fen_entered)
        fen_row = QHBoxLayout()
        fen_row.addWidget(self.fen_edit, 1)
        fen_row.addWidget(self.load_fen_button)

        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setFont(interface_font())
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self._on_start_clicked)

        layout = QVBoxLayout(self)
        layout.addWidget(self.board, 1)
        layout.addLayout(palette)
        layout.addLayout(side_row)
        layout.addLayout(preset_row)
        layout.addLayout(fen_row)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignRight)
        self.retranslate()
        follow_language(self, self.retranslate)
        self.set_fen(fen)

    def retranslate(self) -> None:
        self.eraser_button.setText(tr("Eraser"))
        self.side_label.setText(tr("Side to move"))
        self.red_button.setText(tr("Red"))
        self.black_button.setText(tr("Black"))
        self.clear_button.setText(tr("Clear board"))
        self.start_position_button.setText(tr("Start position"))
        self.load_fen_button.setText(tr("Load FEN"))
        self.start_button.setText(tr("Start game"))
        for code, button in self.palette_buttons.items():
            button.setToolTip(f"{side_word(code > 0)} {tr(PIECE_LABELS[abs(code)])}")
        self._show_state()

    # -- the position ------------------------------------------------------------------------
    @property
    def codes(self) -> tuple[int, ...]:
        """The 90 piece codes being edited, by square."""
        return tuple(self._codes)

    @property
    def turn(self) -> Color:
        return self._turn

    def fen(self) -> str:
        """The edited position as FEN (whether or not it is valid)."""
        return format_fen(self._codes, self._turn, 0, 1)

    def problems(self) -> list[PositionProblem]:
        """Every reason the position cannot occur (empty: it is valid)."""
        return list(self._problems)

    def is_valid(self) -> bool:
        return not self._problems

    def set_fen(self, fen: str) -> None:
        """Load a FEN, possible or not (its problems are listed to be mended); a malformed one
        leaves the position as it was and says why."""
        try:
            fields = parse_fen(fen, check_position=False)
        except InvalidFenError as error:
            self._fen_error = str(error)
            self._show_state()
            return
        self._fen_error = ""
        self._codes = list(fields.codes)
        self._set_turn(fields.turn)
        self._changed()

    def clear(self) -> None:
        """Take every piece off the board."""
        self._fen_error = ""
        self._codes = [0] * SQUARE_COUNT
        self._changed()

    def place(self, sq: int, code: int) -> None:
        """Put the piece ``code`` on ``sq`` (0 empties it)."""
        if not -KING <= code <= KING:
            raise ValueError(f"not a piece code: {code!r}")
        self._codes[sq] = code
        self._fen_error = ""
        self._changed()

    def move_piece(self, from_square: int, to_square: int) -> None:
        """Move whatever stands on ``from_square`` to ``to_square`` (replacing what was there)."""
        code = self._codes[from_square]
        self._codes[from_square] = 0
        self._codes[to_square] = code
        self._fen_error = ""
        self._changed()

    def set_turn(self, turn: Color) -> None:
        self._set_turn(turn)
        self._changed()

    def chosen_code(self) -> int:
        """The palette's choice: a piece code, or 0 for the eraser."""
        return self.palette_group.checkedId() - 100

    def choose(self, code: int) -> None:
        """Select a piece (or the eraser, 0) in the palette."""
        button = self.eraser_button if code == 0 else self.palette_buttons[code]
        button.setChecked(True)

    def _set_turn(self, turn: Color) -> None:
        self._turn = turn
        (self.red_button if turn == RED else self.black_button).setChecked(True)

    def _changed(self) -> None:
        self._problems = find_position_problems(self._codes, self._turn)
        self.board.set_codes(self._codes)
        self.board.set_marked([p.square for p in self._problems if p.square is not None])
        self.fen_edit.setText(self.fen())
        self._show_state()
        self.position_changed.emit()

    def _show_state(self) -> None:
        lines = []
        if self._fen_error:
            lines.append(tr("Invalid FEN: {reason}").format(reason=self._fen_error))
        lines.extend(problem_text(problem) for problem in self._problems)
        if lines:
            self.problems_label.setText("\n".join(lines))
            color = PROBLEM_COLOR
        else:
            self.problems_label.setText(tr("The position is valid."))
            color = VALID_COLOR
        self.problems_label.setStyleSheet(f"color: {color.name()};")
        self.start_button.setEnabled(not self._problems)

    # -- user input ---------------------------------------------------------------------------
    def _on_square_pressed(self, sq: int, place: bool) -> None:
        code = self.chosen_code() if place else 0
        if place and code and self._codes[sq] == code:
            code = 0  # clicking a piece with itself takes it away
        self.place(sq, code)

    def _on_side_toggled(self, red_checked: bool) -> None:
        turn = RED if red_checked else BLACK
        if turn != self._turn:
            self._turn = turn
            self._changed()

    def _on_fen_entered(self) -> None:
        self.set_fen(self.fen_edit.text().strip())

    def _on_start_clicked(self) -> None:
        if self.is_valid():
            self.start_game_requested.emit(self.fen())


EDITOR_SIZE = (900, 700)
"""The editor dialog's first size (shrunk to fit a smaller screen): the board readable, every control shown."""


class PositionEditorDialog(QDialog):
    """The editor in a dialog: accepted with "Start game"; :attr:`fen` is the chosen position and
    :meth:`seats` who plays each side there (a person, or one of ``engines``)."""

    def __init__(self, fen: str = STARTING_FEN, parent: Optional[QWidget] = None,
                 engines: Sequence[EngineProfile] = ()) -> None:
        super().__init__(parent)
        self.editor = PositionEditor(self, fen)
        self.fen: Optional[str] = None
        self.editor.start_game_requested.connect(self._on_start)
        self.red_seat, self.black_seat = QComboBox(), QComboBox()
        self.red_caption, self.black_caption = QLabel(), QLabel()
        for box in (self.red_seat, self.black_seat):
            box.addItem("", None)
            for profile in engines:
                box.addItem(profile.name, profile)
        seats = QHBoxLayout()
        for caption, box in ((self.red_caption, self.red_seat), (self.black_caption, self.black_seat)):
            seats.addWidget(caption)
            seats.addWidget(box, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor, 1)
        layout.addLayout(seats)
        layout.addWidget(buttons)
        self.retranslate()
        follow_language(self, self.retranslate)
        width, height = EDITOR_SIZE
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None:
            width, height = min(width, screen.width() - 40), min(height, screen.height() - 60)
        self.resize(max(width, self.minimumSizeHint().width()), max(height, self.minimumSizeHint().height()))

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Position editor"))
        self.red_caption.setText(tr("Red"))
        self.black_caption.setText(tr("Black"))
        for box in (self.red_seat, self.black_seat):
            box.setItemText(0, tr("Person"))

    def seats(self) -> tuple[Optional[EngineProfile], Optional[EngineProfile]]:
        """Who plays Red and Black in the game the editor starts (None: a person)."""
        return self.red_seat.currentData(), self.black_seat.currentData()

    def _on_start(self, fen: str) -> None:
        self.fen = fen
        self.accept()
