"""Pictures of the board: a position as PNG or SVG, on the clipboard, and a game or line as an
animated GIF.

Every picture is drawn by :func:`~xqdesk.ui.board.board_render.paint_scene`, the renderer of the window's
board, so a picture looks like the board on screen. PNG and GIF frames are painted on a ``QImage``;
SVG through ``QSvgGenerator`` (QtSvg ships with PySide6-Essentials) in vector mode: pieces are
shapes and the Chinese glyphs outlines from the bundled fonts, so the file needs no font where it
is shown. GIF files are written by Pillow. A ``QGuiApplication`` must exist: the command line makes
an offscreen one with :func:`ensure_gui_application`.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMimeData, QRectF, QSize
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from xqdesk.errors import InputError
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.squares import Square
from xqdesk.ui.board.board_render import BOARD_ASPECT, Arrow, BoardScene, paint_scene

DEFAULT_WIDTH = 540
MIN_WIDTH, MAX_WIDTH = 60, 4000
PICTURE_SUFFIXES = (".png", ".svg")
SVG_DPI = 96
"""Dots per inch the SVG declares, so it shows at its width in CSS pixels."""
DEFAULT_GIF_DELAY = 1.0
"""Seconds each position of an animated GIF is shown (unless chosen)."""


class PictureError(InputError):
    """A picture that cannot be made as asked (size, file type, plies); the message says why."""


def ensure_gui_application() -> QGuiApplication:
    """The running QGuiApplication, or a new one on the offscreen platform (unless another
    platform is set): fonts and painting need one, a display does not."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance()
    return app if isinstance(app, QGuiApplication) else QGuiApplication([])


def picture_size(width: int) -> QSize:
    """The pixel size of a board picture ``width`` wide (the board is 10 × 11 cells)."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise PictureError(f"picture width {width!r} is outside {MIN_WIDTH}..{MAX_WIDTH} pixels")
    return QSize(width, round(width * BOARD_ASPECT))


def render_image(scene: BoardScene, width: int = DEFAULT_WIDTH) -> QImage:
    """``scene`` painted on a new ARGB image ``width`` pixels wide."""
    size = picture_size(width)
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    paint_scene(painter, size.width(), size.height(), scene)
    painter.end()
    return image


def render_svg(scene: BoardScene, width: int = DEFAULT_WIDTH, title: str = "xqdesk") -> bytes:
    """``scene`` as an SVG document ``width`` units wide (vector pieces, glyphs as outlines)."""
    size = picture_size(width)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    generator.setResolution(SVG_DPI)
    generator.setTitle(title)
    generator.setDescription(scene.board.fen())
    painter = QPainter(generator)
    paint_scene(painter, size.width(), size.height(), scene, vector=True)
    painter.end()
    buffer.close()
    return bytes(buffer.data().data())


def save_picture(scene: BoardScene, path: str | Path, width: int = DEFAULT_WIDTH) -> Path:
    """Write ``scene`` to ``path`` as PNG or SVG, by its extension; PictureError for another one,
    OSError when it cannot be written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_bytes(render_svg(scene, width))
    elif suffix == ".png":
        if not render_image(scene, width).save(str(path)):  # PNG, by the suffix
            raise OSError(f"could not write {str(path)!r}")
    else:
        raise PictureError(f"{path.name}: a picture is written as .png or .svg, not {suffix or 'no extension'!r}")
    return path


def copy_picture(scene: BoardScene, width: int = DEFAULT_WIDTH) -> QMimeData:
    """Put ``scene`` on the clipboard as an image, with its SVG beside it; returns the data put."""
    data = QMimeData()
    data.setImageData(render_image(scene, width))
    data.setData("image/svg+xml", QByteArray(render_svg(scene, width)))
    QGuiApplication.clipboard().setMimeData(data)
    return data


def to_pillow(image: QImage) -> Image.Image:
    """A Pillow RGB copy of a Qt image."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    data = bytes(rgba.constBits())
    picture = Image.frombuffer("RGBA", (rgba.width(), rgba.height()), data, "raw", "RGBA", rgba.bytesPerLine(), 1)
    return picture.convert("RGB")


def line_scenes(game: Game, moves: Sequence[Move], start_ply: int = 0, end_ply: int | None = None, *,
                flipped: bool = False, coordinates: bool = True,
                highlights: frozenset[Square] = frozenset()) -> list[BoardScene]:
    """One scene per position of the line ``moves`` (played from ``game``'s start) from ply
    ``start_ply`` to ``end_ply`` (None: the end), each marking the move that led to it."""
    end = len(moves) if end_ply is None else end_ply
    if not 0 <= start_ply <= end <= len(moves):
        raise PictureError(f"plies {start_ply}..{end} are outside the line's 0..{len(moves)}")
    board = game.start_board()
    scenes = []
    for ply in range(end + 1):
        if ply >= start_ply:
            last = moves[ply - 1] if ply else None
            scenes.append(BoardScene(board.copy(), last, flipped, (), highlights, coordinates))
        if ply < end:
            board.push(moves[ply])
    return scenes


GIF_PALETTE_SAMPLES = 8
"""Frames (spread over the line) whose colours make the animation's one palette."""


def gif_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One 255-colour palette for every frame, from a few frames spread over the line (the board,
    the pieces, the move marks): frames quantized to it need no palette of their own."""
    step = max(1, len(frames) // GIF_PALETTE_SAMPLES)
    samples = list(frames[::step][:GIF_PALETTE_SAMPLES]) + [frames[-1]]
    width, height = samples[0].size
    sheet = Image.new("RGB", (width, height * len(samples)))
    for index, frame in enumerate(samples):
        sheet.paste(frame, (0, height * index))
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def save_gif(scenes: Sequence[BoardScene], path: str | Path, width: int = DEFAULT_WIDTH,
             delay: float = DEFAULT_GIF_DELAY, progress: Callable[[int, int], None] | None = None, *,
             on_frame: Callable[[], None] | None = None) -> Path:
    """Write ``scenes`` as an animated GIF (one frame each, ``delay`` seconds apart, looping).
    ``progress(done, total)`` hears of each frame drawn and may raise to stop (nothing is written
    then); ``on_frame()`` is told of each frame drawn too (the command line's progress). Frames
    share one palette (small files, and no per-frame colour search)."""
    if not scenes:
        raise PictureError("an animated GIF needs at least one position")
    if not 0.02 <= delay <= 60:
        raise PictureError(f"GIF delay {delay!r} s is outside 0.02..60 seconds")
    path = Path(path)
    if path.suffix.lower() != ".gif":
        raise PictureError(f"{path.name}: an animation is written as .gif")
    total = len(scenes) + 1  # the frames, then writing them
    frames = []
    for index, scene in enumerate(scenes):
        frames.append(to_pillow(render_image(scene, width)))
        if progress is not None:
            progress(index + 1, total)
        if on_frame is not None:
            on_frame()
    palette = gif_palette(frames)
    quantized = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    quantized[0].save(path, format="GIF", save_all=True, append_images=quantized[1:], duration=round(delay * 1000),
                      loop=0, disposal=1)
    if progress is not None:
        progress(total, total)
    return path


def scene_with(scene: BoardScene, arrows: Sequence[Arrow] = (), highlights: frozenset[Square] = frozenset()) -> BoardScene:
    """``scene`` with more arrows and highlighted squares."""
    return BoardScene(scene.board, scene.last_move, scene.flipped, tuple(scene.arrows) + tuple(arrows),
                      scene.highlights | highlights, scene.coordinates, scene.fog, drawings=scene.drawings)
