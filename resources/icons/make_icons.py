"""Make xqdesk's application icon, written beside this script: the red general (帅) as the
window's board draws it, in the carved wooden theme.

    QT_QPA_PLATFORM=offscreen python resources/icons/make_icons.py

``xqdesk.svg`` (vector: the glyph as outlines from the bundled font) and ``xqdesk.png`` (256×256)
are what the window and ``xqdesk --install-desktop-entry`` use.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # run from a checkout

from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, QSize, Qt  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgGenerator  # noqa: E402

from xqdesk.pieces import KING, RED, Piece  # noqa: E402
from xqdesk.ui.app import ensure_application  # noqa: E402
from xqdesk.ui.board.board_render import PIECE_RADIUS, paint_piece  # noqa: E402

SIZE = 256
CELL = SIZE / (2 * PIECE_RADIUS) * 0.96  # the piece fills the icon, less a small margin


def paint_icon(painter: QPainter, vector: bool) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_piece(painter, Piece(KING, RED).code, QPointF(SIZE / 2, SIZE / 2), CELL, vector=vector)


def main() -> None:
    ensure_application()
    image = QImage(SIZE, SIZE, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    paint_icon(painter, vector=False)
    painter.end()
    image.save(str(HERE / "xqdesk.png"), "PNG")

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(SIZE, SIZE))
    generator.setViewBox(QRectF(0, 0, SIZE, SIZE))
    generator.setResolution(96)  # so the picture is 256 CSS pixels wide
    generator.setTitle("xqdesk")
    painter = QPainter(generator)
    paint_icon(painter, vector=True)
    painter.end()
    buffer.close()
    (HERE / "xqdesk.svg").write_bytes(bytes(buffer.data().data()))


if __name__ == "__main__":
    main()
