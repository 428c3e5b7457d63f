"""Rebuild the bundled font subsets (a maintainer tool; the app itself never runs it).

xqdesk must draw Chinese characters on machines without any CJK font, so it ships two
small subsets of SIL Open Font License fonts, renamed as the OFL asks of modified versions:

- ``XqdeskKai-Bold.ttf``: LXGW WenKai Bold, only the characters drawn on the board
  (piece names, river text, file numbers).
- ``XqdeskSans-Regular.otf``: Noto Sans CJK SC Regular, ASCII, Latin-1, CJK punctuation and
  the 6,763 hanzi of GB 2312 — enough for the Chinese interface and Chinese move notation.

Usage (needs ``fonttools``; the sources come from Debian's fonts-lxgw-wenkai and fonts-noto-cjk):

    python resources/fonts/build_fonts.py LXGWWenKai-Bold.ttf NotoSansCJK-Regular.ttc
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent

BOARD_TEXT = (
    "帅仕相马车炮兵将士象卒"  # pieces
    "帥俥傌砲將車馬包"  # traditional variants, for completeness
    "楚河汉界"  # river
    "一二三四五六七八九"  # Red's file numbers
    "123456789０１２３４５６７８９"  # Black's file numbers
    "进退平前后中红黑"
)

NOTO_SC_INDEX = 2  # position of "Noto Sans CJK SC" in NotoSansCJK-Regular.ttc


def gb2312_characters() -> str:
    """All characters of GB 2312 (symbols, level-1 and level-2 hanzi)."""
    chars = []
    for high in range(0xA1, 0xF8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(chars)


def ui_characters() -> str:
    latin = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(chr(c) for c in range(0xA0, 0x100))
    extra = "–—‘’“”…·•←→↑↓⇄★☆✓✗×÷±" + "".join(chr(c) for c in range(0xFF01, 0xFF5F))
    return latin + extra + gb2312_characters() + BOARD_TEXT


def rename(font: TTFont, family: str, style: str) -> None:
    """Give the subset its own names: OFL fonts may not keep Reserved Font Names when modified."""
    name_table = font["name"]
    full = f"{family} {style}"
    postscript = f"{family.replace(' ', '')}-{style}"
    keep = {0, 13, 14}  # copyright, license, license URL
    name_table.names = [record for record in name_table.names if record.nameID in keep]
    for name_id, value in ((1, family), (2, style), (3, f"xqdesk:{postscript}"), (4, full),
                           (6, postscript), (16, family), (17, style)):
        name_table.setName(value, name_id, 3, 1, 0x409)
        name_table.setName(value, name_id, 1, 0, 0)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [postscript]
        top = cff.topDictIndex[0]
        for key, value in (("FullName", full), ("FamilyName", family)):
            if hasattr(top, key):
                setattr(top, key, value)


def make_subset(font: TTFont, text: str, family: str, style: str, out: Path) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    rename(font, family, style)
    font.save(out)
    print(f"{out.name}: {out.stat().st_size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("wenkai_bold", type=Path, help="LXGWWenKai-Bold.ttf")
    parser.add_argument("noto_sans_cjk", type=Path, help="NotoSansCJK-Regular.ttc")
    args = parser.parse_args()
    make_subset(TTFont(args.wenkai_bold), BOARD_TEXT, "Xqdesk Kai", "Bold", HERE / "XqdeskKai-Bold.ttf")
    noto = TTCollection(args.noto_sans_cjk).fonts[NOTO_SC_INDEX]
    make_subset(noto, ui_characters(), "Xqdesk Sans", "Regular", HERE / "XqdeskSans-Regular.otf")


if __name__ == "__main__":
    main()
