"""The window's menus and toolbar as data: which actions (by the English source text of their
labels) stand in which menu, in which order, and the builders that lay them out."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMenuBar, QStyle, QToolBar, QToolButton

from xqdesk.ui.base.i18n import Language

MENUS: dict[str, list[str | None]] = {
    "&File": ["New game", None, "Open…", "Open match folder…", "Recent files", "Game list",
              "Open previous autosave", None, "Save", "Save as…", None, "Export position…", "Export game as GIF…", "Export game as PDF…", None, "Quit"],
    "&Edit": ["Copy FEN", "Paste FEN", "Copy moves", "Paste moves", "Paste game", "Copy position picture",
              None, "Edit position…"],
    "&Game": ["Person vs person", "Play Red against the engine", "Play Black against the engine",
              "Engine vs engine", "Engine tournament…", "Fog of war…", "Analysis", "Stop analysis", "Replay", None,
              "Take back",
              "Hint", "Resign", None, "Review game…", "Cancel review", "Next mistake", None, "Pause", "Resume",
              "Stop game"],
    "E&ngines": ["Manage engines…", "Analysis engines…", "Tablebase directory…"],
    "&View": ["Flip board", "Show coordinates", "Show book moves", None, "First move", "Previous move", "Next move", "Last move",
              "Play through", None, "Opening explorer", "Choose position index…",
              "Add games to the position index…", None, "Engine panel", "Board theme", "Mute sounds"],
    "&Language": [],
    "&Help": ["About xqdesk…"],
}
"""Menu title -> its entries (None: a separator). "Recent files" and "Board theme" are submenus."""

SUBMENUS = ("Recent files", "Board theme")

TOOLBAR: list[str | None] = ["New game", "Open…", None, "First move", "Previous move", "Next move", "Last move",
                             "Play through", None, "Take back", "Hint", "Resign", "Flip board"]

TOOLBAR_ICONS = {
    "First move": QStyle.StandardPixmap.SP_MediaSkipBackward,
    "Previous move": QStyle.StandardPixmap.SP_MediaSeekBackward,
    "Next move": QStyle.StandardPixmap.SP_MediaSeekForward,
    "Last move": QStyle.StandardPixmap.SP_MediaSkipForward,
    "Play through": QStyle.StandardPixmap.SP_MediaPlay,
}
"""Toolbar buttons shown as icons, so the toolbar fits an 800-px window without overflowing."""


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


def build_toolbar(actions: Mapping[str, QAction], style: QStyle) -> QToolBar:
    """The main toolbar after :data:`TOOLBAR`; the stepping buttons as ``style``'s icons
    (:data:`TOOLBAR_ICONS`, their text as tooltip)."""
    toolbar = QToolBar()
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    small = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
    toolbar.setIconSize(QSize(small, small))  # as tall as the text buttons beside them
    for key in TOOLBAR:
        if key is None:
            toolbar.addSeparator()
            continue
        action = actions[key]
        toolbar.addAction(action)
        icon = style.standardIcon(TOOLBAR_ICONS[key]) if key in TOOLBAR_ICONS else None
        if icon is not None and not icon.isNull():
            action.setIcon(icon)
            button = toolbar.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    return toolbar
