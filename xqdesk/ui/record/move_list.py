"""The move list: numbered rounds (Red's move, Black's move) in Chinese, WXF or ICCS notation,
the viewed move highlighted, click to jump, ←/→/Home/End to step, a ✎ on moves with a comment and
``(+N)`` on moves the record has N alternatives to, a review's marks (?!, ?, ??) with the better
move after them. It shows the viewed line: the main line, or a
variation entered with the moves leading to it. (The result is shown by :mod:`xqdesk.ui.record.game_info`,
comments and variations by :mod:`xqdesk.ui.record.comment_editor` and :mod:`xqdesk.ui.record.variation_list`.)

It only reads the :class:`~xqdesk.ui.game.game_controller.GameController` and asks it to jump; it never
changes the game.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QGuiApplication, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from xqdesk.board import Board
from xqdesk.game import ChildNode, Game
from xqdesk.move import Move
from xqdesk.notation import Notation, format_line, format_move
from xqdesk.pieces import BLACK
from xqdesk.review import REVIEW_NAGS, parse_best, strip_commands
from xqdesk.ui.base.i18n import language_notifier, tr
from xqdesk.ui.game.game_controller import GameController

CURRENT_MOVE_BRUSH = QBrush(QColor(255, 214, 102))
PLY_ROLE = Qt.ItemDataRole.UserRole + 1

NOTATION_LABELS = ((Notation.CHINESE, "Chinese"), (Notation.WXF, "WXF"), (Notation.ICCS, "ICCS"))


CONTEXT_MENU_TEXTS = ("Copy the line from here", "Promote the variation to the main line", "Delete the variation",
                      "Cut the game from here")
"""The move list's context menu, in order (English; shown through ``tr``)."""


class MoveTable(QTableWidget):
    """The table itself: one row per round, Red's and Black's move side by side."""

    key_navigation = Signal(int)  # Qt.Key pressed: Left, Right, Home, End, Up, Down

    NAVIGATION_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End,
                       Qt.Key.Key_Up, Qt.Key.Key_Down)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in self.NAVIGATION_KEYS:
            self.key_navigation.emit(event.key())
            event.accept()
            return
        super().keyPressEvent(event)


class MoveList(QWidget):
    """Shows the controller's game; clicking a move jumps there."""

    notation_changed = Signal(object)  # Notation

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._notation = Notation.CHINESE
        self._game: Game | None = None
        self._start_fen = ""
        self._end_board: Board = Board()
        self._black_first = False
        self._first_round = 1
        self._moves: list[Move] = []  # the moves shown, to update the table in place
        self._texts: list[str] = []
        self._cells: list[QTableWidgetItem] = []  # by ply - 1
        self._highlighted: QTableWidgetItem | None = None

        self._notation_label = QLabel()
        self._notation_box = QComboBox()
        for notation, _label in NOTATION_LABELS:
            self._notation_box.addItem("", notation)
        self._notation_box.currentIndexChanged.connect(self._on_notation_chosen)
        self.notation_bar = QWidget()
        """The notation choice (label and box): atop the list, or wherever a holder puts it (the
        window puts it in the corner of the tabs, as it serves the variation tree too)."""
        top = QHBoxLayout(self.notation_bar)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self._notation_label)
        top.addWidget(self._notation_box, 1)

        self.table = MoveTable(0, 2)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)
        self.table.cellClicked.connect(self._on_cell_clicked)
        self.table.key_navigation.connect(self._on_key)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._show_context_menu)


        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notation_bar)
        layout.addWidget(self.table, 1)

        controller.game_changed.connect(self.rebuild)
        controller.position_changed.connect(self._on_position_changed)
        controller.comment_changed.connect(self._on_comment_changed)
        language_notifier().language_changed.connect(self.retranslate)
        self.retranslate()
        self.rebuild()

    # --- public ----------------------------------------------------------------------------
    def notation(self) -> Notation:
        return self._notation

    def set_notation(self, notation: Notation) -> None:
        """Write the moves in ``notation`` (Chinese, WXF or ICCS)."""
        index = self._notation_box.findData(notation)
        if index < 0:
            raise ValueError(f"the move list cannot show notation {notation!r}")
        self._notation_box.setCurrentIndex(index)

    def context_actions(self) -> dict[str, QAction]:
        """The move list's context menu as it would open on the viewed move: the actions on the
        game tree, enabled where they apply (by English text, for tests)."""
        controller = self._controller
        in_variation = controller.variation_depth() > 0 and not controller.mode().is_play
        entries = zip(CONTEXT_MENU_TEXTS, (
            (self.copy_line_from_here, controller.ply() < controller.length()),
            (controller.promote_variation, in_variation),
            (controller.delete_variation, in_variation),
            (controller.cut_from_here, not controller.mode().is_play and bool(controller.node().variations)),
        ))
        actions = {}
        for text, (slot, enabled) in entries:
            action = QAction(tr(text), self)
            action.setEnabled(enabled)
            action.triggered.connect(slot)
            actions[text] = action
        return actions

    def line_text_from_here(self) -> str:
        """The viewed line's moves after the viewed position, in the list's notation."""
        controller = self._controller
        return " ".join(format_line(controller.board(), controller.line_moves()[controller.ply():], self._notation))

    def copy_line_from_here(self) -> None:
        """Put :meth:`line_text_from_here` on the clipboard."""
        QGuiApplication.clipboard().setText(self.line_text_from_here())

    def _show_context_menu(self, position: QPoint) -> None:
        item = self.table.itemAt(position)
        ply = item.data(PLY_ROLE) if item is not None else None
        if isinstance(ply, int):
            self._controller.go_to(ply)
        menu = QMenu(self)
        for action in self.context_actions().values():
            menu.addAction(action)
        menu.exec(self.table.viewport().mapToGlobal(position))
        menu.deleteLater()

    def move_texts(self) -> list[str]:
        """The moves as shown, in order (for copying and tests)."""
        return list(self._texts)

    def current_text(self) -> str:
        """The highlighted move's text ('' at the start position)."""
        return self._highlighted.text() if self._highlighted is not None else ""

    def cell_of_ply(self, ply: int) -> tuple[int, int]:
        """Row and column of the move that leads to ``ply`` (1-based ply)."""
        item = self._cells[ply - 1]
        return item.row(), item.column()

    def retranslate(self, _language: str = "") -> None:
        self._notation_label.setText(tr("Notation"))
        for index, (_notation, label) in enumerate(NOTATION_LABELS):
            self._notation_box.setItemText(index, tr(label))
        self.table.setHorizontalHeaderLabels([tr("Red"), tr("Black")])

    # --- building ---------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Bring the table up to date with the controller's game: moves added at the end or taken
        back are handled in place (a long game stays cheap); anything else is rebuilt."""
        game = self._controller.game()
        line = self._controller.line()
        moves = [node.move for node in line]
        same_start = game is self._game and game.start_fen == self._start_fen
        if same_start and moves[:len(self._moves)] == self._moves:
            self._append_rows(line, len(self._moves))
            self._refresh_markers(line)
        elif same_start and self._moves[:len(moves)] == moves:
            self._truncate(len(moves))
            self._refresh_markers(line)
        else:
            self._full_rebuild(game, line)
        self._on_position_changed()

    def _full_rebuild(self, game: Game, line: list[ChildNode]) -> None:
        self._game = game
        self._start_fen = game.start_fen
        self._end_board = game.start_board()
        self._black_first = self._end_board.turn == BLACK
        self._first_round = self._end_board.fullmove_number
        self._moves, self._texts, self._cells = [], [], []
        self._highlighted = None
        self.table.setRowCount(0)
        if self._black_first and line:
            self._ensure_rows(1)
            filler = QTableWidgetItem("…")
            filler.setData(PLY_ROLE, 0)
            self.table.setItem(0, 0, filler)
        self._append_rows(line, 0)

    def _ensure_rows(self, rows: int) -> None:
        old = self.table.rowCount()
        if rows > old:
            self.table.setRowCount(rows)
            for row in range(old, rows):
                self.table.setVerticalHeaderItem(row, QTableWidgetItem(str(self._first_round + row)))

    def _append_rows(self, line: list[ChildNode], start: int) -> None:
        if len(line) - start > 2:  # a game loaded: the rows at once, one row-height pass at the end
            rows = self.table.verticalHeader()
            rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
            try:
                self._ensure_rows((len(line) + (1 if self._black_first else 0) + 1) // 2)
                self._add_cells(line, start)
            finally:
                rows.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        else:
            self._add_cells(line, start)

    def _add_cells(self, line: list[ChildNode], start: int) -> None:
        for index in range(start, len(line)):
            node = line[index]
            text = format_move(self._end_board, node.move, self._notation)
            before = self._end_board.copy() if _better_move(node) is not None else None
            self._end_board.push(node.move)
            self._moves.append(node.move)
            self._texts.append(text)
            row, column = divmod(index + (1 if self._black_first else 0), 2)
            self._ensure_rows(row + 1)
            item = QTableWidgetItem()
            item.setData(PLY_ROLE, index + 1)
            _show_node(item, text, node, self._notation, before)
            self.table.setItem(row, column, item)
            self._cells.append(item)

    def _refresh_markers(self, line: list[ChildNode]) -> None:
        """Mark again the moves whose comment or alternatives may have changed (the last few)."""
        for index in range(max(0, len(line) - 2), len(line)):
            self._show(index, line[index])

    def refresh_marks(self) -> None:
        """Write every move's cell again (after a review added marks, comments and better moves)."""
        line = self._controller.line()
        board = self._controller.game().start_board()
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # one row-height pass at the end, not one per cell
        try:
            for index in range(min(len(self._cells), len(line))):
                node = line[index]
                before = board if _better_move(node) is not None else None
                _show_node(self._cells[index], self._texts[index], node, self._notation, before)
                board.push(node.move)
        finally:
            rows.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

    def _show(self, index: int, node: ChildNode) -> None:
        before = node.parent.board() if _better_move(node) is not None else None
        _show_node(self._cells[index], self._texts[index], node, self._notation, before)

    def _on_comment_changed(self, ply: int) -> None:
        line = self._controller.line()
        if 0 < ply <= min(len(self._cells), len(line)):
            self._show(ply - 1, line[ply - 1])

    def _truncate(self, length: int) -> None:
        while len(self._moves) > length:
            self._moves.pop()
            self._texts.pop()
            item = self._cells.pop()
            if item is self._highlighted:
                self._highlighted = None
            self._end_board.pop()
            self.table.takeItem(item.row(), item.column())
        slots = len(self._moves) + (1 if self._black_first else 0)
        self.table.setRowCount((slots + 1) // 2)

    def _on_position_changed(self) -> None:
        ply = self._controller.ply()
        if self._highlighted is not None:
            self._highlighted.setBackground(QBrush())
            self._highlighted = None
        if 0 < ply <= len(self._cells):
            item = self._cells[ply - 1]
            item.setBackground(CURRENT_MOVE_BRUSH)
            self._highlighted = item
            self.table.scrollToItem(item)
        else:
            self.table.scrollToTop()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._highlighted is not None:  # scrolling while hidden has no effect
            self.table.scrollToItem(self._highlighted)

    # --- input -------------------------------------------------------------------------------
    def _on_notation_chosen(self, index: int) -> None:
        notation = self._notation_box.itemData(index)
        if notation is not None and notation != self._notation:
            self._notation = notation
            self._start_fen = ""  # every text changes: rebuild
            self.rebuild()
            self.notation_changed.emit(notation)

    def _on_cell_clicked(self, row: int, column: int) -> None:
        item = self.table.item(row, column)
        if item is not None:
            self._controller.go_to(int(item.data(PLY_ROLE)))

    def _on_key(self, key: int) -> None:
        controller = self._controller
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Up):
            controller.back()
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_Down):
            controller.forward()
        elif key == Qt.Key.Key_Home:
            controller.to_start()
        elif key == Qt.Key.Key_End:
            controller.to_end()


NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
"""PGN's move NAGs as the symbols written after a move."""


def _better_move(node: ChildNode) -> Move | None:
    """The review's better move for a move it marked as an inaccuracy, mistake or blunder."""
    if not node.has_nags() or not any(nag in REVIEW_NAGS for nag in node.nags):
        return None
    return parse_best(node.comment)


def _show_node(item: QTableWidgetItem, text: str, node: ChildNode, notation: Notation,
               before: Board | None = None) -> None:
    """Write a move's cell: its text with its NAG symbol, the review's better move (``before``:
    the position the move was played in), ✎ when it has a comment (beyond a review's commands),
    (+N) for N recorded alternatives."""
    symbols = "".join(NAG_SYMBOLS[nag] for nag in sorted(node.nags) if nag in NAG_SYMBOLS) if node.has_nags() else ""
    marks = [text + symbols]
    note = strip_commands(node.comment)
    better = _better_move(node)
    tip = note
    if better is not None and before is not None and before.is_legal(better):
        better_text = format_move(before, better, notation)
        marks.append(f"→ {better_text}")
        tip = "\n".join(filter(None, [tr("Better: {move}").format(move=better_text), note]))
    if note:
        marks.append("✎")
    alternatives = len(node.parent.variations) - 1 if node.parent is not None else 0
    if alternatives:
        marks.append(f"(+{alternatives})")
    item.setText(" ".join(marks))
    item.setToolTip(tip)
