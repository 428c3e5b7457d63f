"""The variation tree: the whole game tree at a glance, beside the move list.

The main line's moves are the top level; a move that the record has alternatives to holds them
as its children, each alternative holding the rest of its variation (and that variation's own
alternatives, nested the same way). A click on any move shows its position (entering the
variation it belongs to); the move on show is selected. ✎ marks a move with a comment.

The tree is rebuilt when the game changes while it is on screen, and once it is shown again
otherwise, so a long engine game does not pay for a hidden tree.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from xqdesk.board import Board
from xqdesk.game import ChildNode, GameNode
from xqdesk.notation import Notation, format_move
from xqdesk.pieces import RED
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.game.game_controller import GameController

NODE_ROLE = Qt.ItemDataRole.UserRole + 2


def move_label(board: Board, node: ChildNode, notation: Notation) -> str:
    """``12. 炮二平五`` for Red, ``12… 马８进７`` for Black (``board``: the position before)."""
    assert node.move is not None
    number = board.fullmove_number
    text = format_move(board, node.move, notation)
    mark = " ✎" if node.comment.strip() else ""
    return f"{number}. {text}{mark}" if board.turn == RED else f"{number}… {text}{mark}"


class VariationTree(QWidget):
    """The tree of the controller's game; see the module docstring."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._notation = Notation.CHINESE
        self._nodes: list[GameNode] = []  # item data holds an index into this list
        self._items: dict[int, QTreeWidgetItem] = {}  # id(node) -> item
        self._dirty = True
        self._built: tuple[tuple[int, bool], ...] | None = None  # the tree the items show (see _shape)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(1)
        self.tree.setHeaderHidden(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setUniformRowHeights(True)
        self.tree.itemClicked.connect(self._on_clicked)
        self.tree.itemActivated.connect(self._on_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        controller.game_changed.connect(self._on_game_changed)
        controller.comment_changed.connect(lambda _ply: self._on_game_changed())
        controller.position_changed.connect(self._select_current)
        follow_language(self, self._relabel)
        self.retranslate()
        self.rebuild()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        self.rebuild()

    # --- reading it (tests, tools) --------------------------------------------------------------
    def item_of(self, node: GameNode) -> QTreeWidgetItem | None:
        """The item showing ``node`` (None for the start, or before the tree is built)."""
        return self._items.get(id(node))

    def top_level_texts(self) -> list[str]:
        items = (self.tree.topLevelItem(row) for row in range(self.tree.topLevelItemCount()))
        return [item.text(0) for item in items if item is not None]

    def current_node(self) -> GameNode | None:
        """The node of the selected item (None when nothing is selected)."""
        item = self.tree.currentItem()
        return None if item is None else self._nodes[int(item.data(0, NODE_ROLE))]

    # --- building -------------------------------------------------------------------------------
    def _shape(self) -> tuple[tuple[int, bool], ...]:
        """What the items depend on: every node of the game (and whether it has a comment)."""
        shape = []
        pending: list[GameNode] = [self._controller.game()]
        while pending:
            node = pending.pop()
            shape.append((id(node), bool(node.comment.strip())))
            pending.extend(reversed(node.variations))
        return tuple(shape)

    def _on_game_changed(self) -> None:
        self._dirty = True
        if self.isVisible():
            self._update()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._dirty:
            self._update()

    def _update(self) -> None:
        """Rebuild when the tree changed (a move, a variation, a comment), else just select."""
        self._dirty = False
        if self._shape() != self._built:
            self.rebuild()
        else:
            self._select_current()

    def rebuild(self) -> None:
        """Build the items of the whole tree again, and select the move on show."""
        self._dirty = False
        self._built = self._shape()
        game = self._controller.game()
        self.tree.clear()
        self._nodes, self._items = [], {}
        if not game.variations:
            return
        # (item the line's first move goes under (None: the top level), its first node, the board
        # before it, whether it is the main line)
        pending: list[tuple[QTreeWidgetItem | None, ChildNode, Board, bool]] = [
            (None, game.variations[0], game.start_board(), True)]
        while pending:
            container, node, board, main = pending.pop()
            holder = container
            current: ChildNode | None = node
            first = True
            while current is not None:
                item = QTreeWidgetItem([move_label(board, current, self._notation)])
                parent_item = container if first else holder
                if parent_item is None:
                    self.tree.addTopLevelItem(item)
                else:
                    parent_item.addChild(item)
                if first and not main:
                    holder = item  # a variation's first move holds the rest of the variation
                item.setData(0, NODE_ROLE, len(self._nodes))
                self._nodes.append(current)
                self._items[id(current)] = item
                parent = current.parent
                if parent is not None and parent.variations and parent.variations[0] is current:
                    for alternative in reversed(parent.variations[1:]):
                        pending.append((item, alternative, board.copy(), False))
                assert current.move is not None
                board.push(current.move)
                current = current.variations[0] if current.variations else None
                first = False
        self._select_current()

    def _select_current(self) -> None:
        item = self.item_of(self._controller.node())
        self.tree.blockSignals(True)
        try:
            if item is None:
                self.tree.setCurrentIndex(self.tree.rootIndex())
                self.tree.clearSelection()
                return
            parent = item.parent()
            while parent is not None:
                parent.setExpanded(True)
                parent = parent.parent()
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item, QAbstractItemView.ScrollHint.EnsureVisible)
        finally:
            self.tree.blockSignals(False)

    def _on_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        node = self._nodes[int(item.data(0, NODE_ROLE))]
        if node is not self._controller.node():
            self._controller.view_node(node)

    def retranslate(self) -> None:
        self.tree.setToolTip(tr("Click a move to show its position"))

    def _relabel(self) -> None:
        self.retranslate()
        self.rebuild()
