"""The Chinese characters of the board and the bundled fonts that draw them.

No CJK font may be installed, so xqdesk ships two OFL font subsets (``resources/fonts``):
``Xqdesk Kai`` (a brush-style face for pieces, river text and file numbers) and ``Xqdesk Sans``
(Latin + GB 2312, for the interface and Chinese move notation). :func:`load_fonts` registers them
with Qt once; the family getters then name them.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, PieceType
from xqdesk.resource_files import read_resource

BOARD_FONT_FILE = "fonts/XqdeskKai-Bold.ttf"
UI_FONT_FILE = "fonts/XqdeskSans-Regular.otf"

RED_CHARACTERS: dict[PieceType, str] = {
    KING: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马", CHARIOT: "车", CANNON: "炮", PAWN: "兵",
}
BLACK_CHARACTERS: dict[PieceType, str] = {
    KING: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马", CHARIOT: "车", CANNON: "炮", PAWN: "卒",
}
#: Red's file numbers, indexed by ICCS file (file a = 九 … file i = 一).
RED_FILE_NUMBERS = "九八七六五四三二一"
#: Black's file numbers, indexed by ICCS file (file a = 1 … file i = 9).
BLACK_FILE_NUMBERS = "123456789"
RIVER_LEFT = "楚河"
RIVER_RIGHT = "汉界"


def piece_character(code: int) -> str:
    """The character for a course piece code (positive Red, negative Black)."""
    table = RED_CHARACTERS if code > 0 else BLACK_CHARACTERS
    try:
        return table[abs(code)]
    except KeyError:
        raise ValueError(f"not a piece code: {code!r}") from None


@dataclass(frozen=True)
class LoadedFonts:
    """The family names Qt gave the bundled fonts."""

    board_family: str
    ui_family: str


_loaded: LoadedFonts | None = None


def _add_font(relative: str) -> str:
    font_id = QFontDatabase.addApplicationFontFromData(QByteArray(read_resource(relative)))
    if font_id < 0:
        raise RuntimeError(f"Qt could not load the bundled font {relative!r}")
    return QFontDatabase.applicationFontFamilies(font_id)[0]


def load_fonts() -> LoadedFonts:
    """Register the bundled fonts with Qt (once; needs a QGuiApplication) and return their families."""
    global _loaded
    if _loaded is None:
        if QApplication.instance() is None:
            raise RuntimeError("load_fonts() needs a QApplication")
        _loaded = LoadedFonts(_add_font(BOARD_FONT_FILE), _add_font(UI_FONT_FILE))
    return _loaded


def board_font(pixel_size: int) -> QFont:
    """The brush-style bold font for pieces and board text, at ``pixel_size`` (at least 1)."""
    font = QFont(load_fonts().board_family)
    font.setPixelSize(max(1, pixel_size))
    font.setBold(True)
    return font


def interface_font(point_size: float = 10.0) -> QFont:
    """The interface font: bundled Sans (Latin and Chinese) — the same look on every machine."""
    font = QFont(load_fonts().ui_family)
    font.setPointSizeF(point_size)
    return font
