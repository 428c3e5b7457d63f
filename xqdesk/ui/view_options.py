"""How the window shows the board, each choice remembered in the settings: its orientation,
coordinates and theme."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from xqdesk.ui.board_view import BoardView
from xqdesk.ui.eval_bar import EvalBar
from xqdesk.ui.settings import SavedSettings
from xqdesk.ui.themes import THEMES, theme_named


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
                                    ("Show coordinates", self.toggle_coordinates, None)):
            action = QAction(parent)
            action.setCheckable(True)
            action.triggered.connect(slot)
            if shortcut is not None:
                action.setShortcut(QKeySequence(shortcut))
            self.actions[key] = action
        self.actions["Flip board"].setChecked(board.is_flipped())
        self.actions["Show coordinates"].setChecked(board.has_coordinates())
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

    def toggle_coordinates(self) -> None:
        """Show or hide the file numbers, on the board and in the pictures it exports."""
        shown = not self._board.has_coordinates()
        self._board.set_coordinates(shown)
        self.actions["Show coordinates"].setChecked(shown)
        self._settings.update(show_coordinates=shown)
