"""How the window shows the board, each choice remembered in the settings: its orientation,
coordinates, theme, and the opening book's moves drawn as arrows."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from xqdesk.board import Board
from xqdesk.position_index import MoveStats
from xqdesk.ui.base.settings import SavedSettings
from xqdesk.ui.board.board_view import Arrow, BoardView
from xqdesk.ui.board.eval_bar import EvalBar
from xqdesk.ui.board.themes import THEMES, theme_named


class ViewOptions(QObject):
    """The view choices and their checkable actions (:attr:`actions`, keyed by the English text of
    their labels; :attr:`theme_actions` by theme key)."""

    def __init__(self, board: BoardView, eval_bar: EvalBar, settings: SavedSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self._board = board
        self._eval_bar = eval_bar
        self._settings = settings
        self.actions: dict[str, QAction] = {}
        for key, slot, shortcut in (("Flip board", self.toggle_flip, "Ctrl+F"),
                                    ("Show coordinates", self.toggle_coordinates, None),
                                    ("Show book moves", self.toggle_book_moves, "Ctrl+B")):
            action = QAction(parent)
            action.setCheckable(True)
            action.triggered.connect(slot)
            if shortcut is not None:
                action.setShortcut(QKeySequence(shortcut))
            self.actions[key] = action
        self.actions["Flip board"].setChecked(board.is_flipped())
        self.actions["Show coordinates"].setChecked(board.has_coordinates())
        self.actions["Show book moves"].setChecked(settings.current.show_book_moves)
        self._book: tuple[Board, tuple[MoveStats, ...]] | None = None
        self.theme_actions: dict[str, QAction] = {}

    def fill_theme_menu(self, menu: QMenu) -> None:
        """*View → Board theme*: one checkable entry a theme, the chosen one remembered."""
        for theme in THEMES:
            action = menu.addAction("")
            action.setCheckable(True)
            action.setChecked(theme.key == self._board.theme().key)
            action.triggered.connect(lambda _checked=False, key=theme.key: self.set_theme(key))
            self.theme_actions[theme.key] = action

    def retranslate(self) -> None:
        for key, action in self.theme_actions.items():
            action.setText(theme_named(key).label())

    def set_theme(self, key: str) -> None:
        """Draw the board in the theme ``key`` and remember it."""
        theme = theme_named(key)
        self._board.set_theme(theme)
        for name, action in self.theme_actions.items():
            action.setChecked(name == theme.key)
        self._settings.update(theme=theme.key)

    def toggle_flip(self) -> None:
        self.set_flipped(not self._board.is_flipped())

    def set_flipped(self, flipped: bool) -> None:
        self._board.set_flipped(flipped)
        self._eval_bar.set_flipped(flipped)
        self.actions["Flip board"].setChecked(flipped)
        self._settings.update(flip_board=flipped)

    def toggle_book_moves(self) -> None:
        """Draw the masters' book moves on the board, or not."""
        shown = not self._settings.current.show_book_moves
        self._settings.update(show_book_moves=shown)
        self.actions["Show book moves"].setChecked(shown)
        self._draw_book()

    def show_book(self, board: Board, moves: tuple[MoveStats, ...]) -> None:
        """The book's moves for the position on show (the explorer looks them up off the GUI
        thread); drawn when *Show book moves* is on."""
        self._book = (board, moves)
        self._draw_book()

    def _draw_book(self) -> None:
        if not self._settings.current.show_book_moves or self._book is None:
            self._board.set_book_arrows([])
            return
        board, moves = self._book
        if board.fen() != self._board.board().fen():
            self._board.set_book_arrows([])  # the answer of a position no longer on show
            return
        self._board.set_book_arrows(book_arrows(moves))

    def toggle_coordinates(self) -> None:
        """Show or hide the file numbers, on the board and in the pictures it exports."""
        shown = not self._board.has_coordinates()
        self._board.set_coordinates(shown)
        self.actions["Show coordinates"].setChecked(shown)
        self._settings.update(show_coordinates=shown)


BOOK_ARROWS = 4
"""At most this many book moves are drawn: the most played."""
BOOK_ARROW_MIN_SHARE = 0.03
"""A book move played in fewer than this share of the position's games is not drawn."""


def book_arrows(moves: tuple[MoveStats, ...] | list[MoveStats]) -> list[Arrow]:
    """Arrows for the most played book moves, thicker the more they were played, each labelled
    with its share of the games."""
    total = sum(stat.games for stat in moves)
    shown = [stat for stat in moves if total and stat.games / total >= BOOK_ARROW_MIN_SHARE][:BOOK_ARROWS]
    return [Arrow(stat.move, rank, f"{100 * stat.games / total:.0f}%", book=True) for rank, stat in enumerate(shown)]
