"""Board and piece themes: the colours of the board and the way pieces are drawn.

Three themes: a wooden board with carved pieces (the default), a plain high-contrast one (white
board, black lines, flat pieces with heavy outlines), and a traditional one with solid red and
black pieces bearing light glyphs. The window remembers the chosen theme's ``key``.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtGui import QColor

from xqdesk.ui.base.i18n import tr


class PieceStyle(enum.Enum):
    """How a piece is drawn: a shaded wooden disc with a carved ring, a flat disc with a heavy
    outline, or a solid disc in the side's colour with a light glyph."""

    CARVED = "carved"
    FLAT = "flat"
    SOLID = "solid"


@dataclass(frozen=True)
class Theme:
    """Colours of the board and the pieces; ``key`` names it in the settings."""

    key: str
    board: QColor
    board_grain: QColor | None
    line: QColor
    piece_face: QColor
    piece_edge: QColor
    red_ink: QColor
    black_ink: QColor
    piece_style: PieceStyle
    line_scale: float = 1.0

    def label(self) -> str:
        """The theme's name in the interface language."""
        return theme_label(self.key)


WOOD = Theme("wood", QColor("#e9c98f"), QColor("#d2a868"), QColor("#4a2f14"), QColor("#f8ebc8"),
             QColor("#8a6a3a"), QColor("#c0251b"), QColor("#1c1c1c"), PieceStyle.CARVED)
CONTRAST = Theme("contrast", QColor("#ffffff"), None, QColor("#000000"), QColor("#ffffff"),
                 QColor("#000000"), QColor("#d00000"), QColor("#000000"), PieceStyle.FLAT, line_scale=1.6)
TRADITIONAL = Theme("traditional", QColor("#f3e2b3"), None, QColor("#7a3b12"), QColor("#fff6dc"),
                    QColor("#5a2a0a"), QColor("#b3120c"), QColor("#161616"), PieceStyle.SOLID)

THEMES: tuple[Theme, ...] = (WOOD, CONTRAST, TRADITIONAL)
DEFAULT_THEME = WOOD


def theme_named(key: str) -> Theme:
    """The theme whose key is ``key``; the default one for an unknown key (an old settings file)."""
    return next((theme for theme in THEMES if theme.key == key), DEFAULT_THEME)


def theme_label(key: str) -> str:
    """A theme's name in the interface language."""
    labels = {"wood": tr("Wooden board, carved pieces"), "contrast": tr("Plain, high contrast"),
              "traditional": tr("Traditional red and black pieces")}
    return labels.get(key, key)
