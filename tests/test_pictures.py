"""Pictures of the board: PNG and SVG of a position, animated GIFs, from the renderer and the CLI."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import replace

import pytest
from datafiles import GAMES
from PIL import Image, ImageChops
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from xqdesk.cli import main
from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.squares import parse_square
from xqdesk.ui.board.board_render import Arrow, BoardGeometry
from xqdesk.ui.exports.pictures import (
    PictureError,
    line_scenes,
    render_image,
    save_gif,
    save_picture,
    scene_with,
    to_pillow,
)

GAME_FILE = GAMES / "notation_15" / "iccs.pgn"


@pytest.fixture
def game():
    return read_games(GAME_FILE).games[0]


def _scene(game, ply=6):
    return line_scenes(game, game.mainline_moves(), ply, ply)[0]


def _pixel(image: Image.Image, name: str, width: int, flipped: bool = False) -> tuple[int, ...]:
    centre = BoardGeometry(width, round(width * 1.1), flipped).square_center(parse_square(name))
    return image.getpixel((int(centre.x()), int(centre.y())))


def test_png_and_svg_files_decode_at_the_right_size(qapp, tmp_path, game):
    scene = _scene(game)
    png = save_picture(scene, tmp_path / "p.png", 300)
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == (300, 330)
    svg = save_picture(scene, tmp_path / "p.svg", 300)
    root = ElementTree.parse(svg).getroot()
    assert root.get("viewBox") == "0 0 300 330"
    tags = {element.tag.split("}")[-1] for element in root.iter()}
    assert "path" in tags and "text" not in tags and "image" not in tags  # glyphs as outlines, no bitmaps
    renderer = QSvgRenderer(str(svg))
    assert renderer.isValid()
    drawn = QImage(300, 330, QImage.Format.Format_ARGB32)
    drawn.fill(0)
    painter = QPainter(drawn)
    renderer.render(painter)
    painter.end()
    difference = ImageChops.difference(to_pillow(drawn), to_pillow(render_image(scene, 300)))
    histogram = difference.convert("L").histogram()
    assert sum(histogram[40:]) < 0.02 * 300 * 330  # the SVG looks like the PNG
    with pytest.raises(PictureError, match="p.bmp"):
        save_picture(scene, tmp_path / "p.bmp")
    with pytest.raises(PictureError, match="width"):
        render_image(scene, 10)


def test_orientation_coordinates_arrows_and_highlights_show(qapp, game):
    scene = _scene(game)
    plain = to_pillow(render_image(scene, 400))
    flipped = to_pillow(render_image(replace(scene, flipped=True), 400))
    bare = to_pillow(render_image(replace(scene, coordinates=False), 400))
    assert _pixel(plain, "e0", 400) == _pixel(flipped, "e0", 400, flipped=True)  # Red's king, either way up
    assert ImageChops.difference(plain, flipped).getbbox() is not None
    numbers_row = (0, 370, 400, 440)  # the band under the board holding Red's file numbers
    assert ImageChops.difference(plain.crop(numbers_row), bare.crop(numbers_row)).getbbox() is not None
    marked = to_pillow(render_image(scene_with(scene, [Arrow(Move.from_iccs("a0a2"))],
                                               frozenset({parse_square("e4")})), 400))
    assert _pixel(marked, "e4", 400) != _pixel(plain, "e4", 400)
    assert _pixel(marked, "a1", 400) != _pixel(plain, "a1", 400)


def test_gif_has_a_frame_per_position_and_the_chosen_delay(qapp, tmp_path, game):
    moves = game.mainline_moves()
    path = save_gif(line_scenes(game, moves), tmp_path / "game.gif", 120, delay=0.25)
    with Image.open(path) as image:
        assert image.n_frames == len(moves) + 1
        assert image.size == (120, 132)
        assert image.info["duration"] == 250
    with pytest.raises(PictureError, match="plies"):
        line_scenes(game, moves, 5, len(moves) + 1)


def test_image_and_gif_commands(tmp_path, capsys):
    out = tmp_path / "ply.png"
    assert main(["image", str(GAME_FILE), "--ply", "3", str(out), "--width", "200", "--flip",
                 "--arrow", "炮二平五", "--highlight", "e4"]) == 0
    with Image.open(out) as image:
        assert image.size == (200, 220)
    assert main(["image", str(GAME_FILE), str(tmp_path / "ply.svg"), "--no-coordinates"]) == 0
    assert (tmp_path / "ply.svg").read_bytes().startswith(b"<?xml")
    game = read_games(GAME_FILE).games[1]
    gif = tmp_path / "line.gif"
    assert main(["gif", str(GAME_FILE), str(gif), "--game", "2", "--from-ply", "4", "--to-ply", "12",
                 "--delay", "0.5", "--width", "100"]) == 0
    with Image.open(gif) as image:
        assert image.n_frames == 9 and image.info["duration"] == 500
    assert main(["gif", str(GAME_FILE), str(gif), "--game", "2", "--width", "100"]) == 0
    with Image.open(gif) as image:
        assert image.n_frames == len(game.mainline_moves()) + 1
    capsys.readouterr()
    assert main(["image", str(GAME_FILE), str(tmp_path / "x.png"), "--ply", "999"]) == 2
    assert "--ply 999" in capsys.readouterr().err
    assert main(["gif", str(GAME_FILE), str(tmp_path / "x.gif"), "--game", "40"]) == 2
    assert "--game 40" in capsys.readouterr().err
