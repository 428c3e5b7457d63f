"""The window's menus and toolbar as data: which actions (by the English source text of their
labels) stand in which menu, in which order, and the builders that lay them out."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMenuBar, QToolBar

from xqdesk.ui.i18n import Language

MENUS: dict[str, list[str | None]] = {
    "&File": ["New game", None, "Open…", "Open match folder…", "Recent files", "Game list", None, "Save",
              "Save as…", None, "Export position…", "Export game as GIF…", "Export game as PDF…", None, "Quit"],
    "&Edit": ["Copy FEN", "Paste FEN", "Copy moves", "Paste moves", "Paste game", "Copy position picture",
              None, "Edit position…"],
    "&Game": ["Person vs person", "Play Red against the engine", "Play Black against the engine",
              "Engine vs engine", "Engine tournament…", "Fog of war…", "Analysis", "Stop analysis", "Replay", None,
              "Take back",
              "Hint", "Resign", None, "Review game…", "Cancel review", "Next mistake", None, "Pause", "Resume",
              "Stop game"],
    "E&ngines": ["Manage engines…", "Analysis engines…", "Tablebase directory…"],
    "&View": ["Flip board", "Show coordinates", None, "First move", "Previous move", "Next move", "Last move",
              "Play through", None, "Opening explorer", "Choose position index…",
              "Add games to the position index…", None, "Engine panel", "Board theme", "Mute sounds"],
    "&Language": [],
}
"""Menu title -> its entries (None: a separator). "Recent files" and "Board theme" are submenus."""

SUBMENUS = ("Recent files", "Board theme")

TOOLBAR: list[str | None] = ["New game", "Open…", None, "First move", "Previous move", "Next move", "Last move",
                             "Play through", None, "Take back", "Hint", "Resign", "Flip board"]


def build_menus(bar: QMenuBar, actions: Mapping[str, QAction],
                choose_language: Callable[[Language], None]) -> dict[str, QMenu]:
    """Fill ``bar`` after :data:`MENUS`; the menus and submenus by their keys (titles are set by
    the window's retranslation). The Language menu lists every language in its own name."""
    menus: dict[str, QMenu] = {}
    for title, keys in MENUS.items():
        menu = bar.addMenu("")
        menus[title] = menu
        for key in keys:
            if key is None:
                menu.addSeparator()
            elif key in SUBMENUS:
                menus[key] = menu.addMenu("")
            else:
                menu.addAction(actions[key])
    for language in Language:
        action = menus["&Language"].addAction(language.native_name)
        action.triggered.connect(lambda _checked=False, lang=language: choose_language(lang))
    return menus


def build_toolbar(actions: Mapping[str, QAction]) -> QToolBar:
    """The main toolbar after :data:`TOOLBAR`."""
    toolbar = QToolBar()
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    for key in TOOLBAR:
        if key is None:
            toolbar.addSeparator()
        else:
            toolbar.addAction(actions[key])
    return toolbar
