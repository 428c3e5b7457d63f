"""Hand-made XQF files (plain version 0x0A) for tests: a header with the start position and a move
tree written record by record, so a test can craft any tree, depth or damage."""
from __future__ import annotations

from xqdesk.move import Move
from xqdesk.squares import FILES

HEADER_SIZE = 1024
_RED = (0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83)
_BLACK = (9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86)


def header(tree_start: int = 0, red_to_move: bool = True, result: int = 0, version: int = 0x0A) -> bytearray:
    """A 1,024-byte header of the start position (``tree_start`` 0 means right after it)."""
    data = bytearray(HEADER_SIZE)
    data[0:3] = b"XQ" + bytes([version])
    data[16:48] = bytes(_RED + _BLACK)
    data[50] = 0 if red_to_move else 1
    data[51] = result
    data[56:60] = tree_start.to_bytes(4, "little")
    return data


def record(move: Move | None, has_next: bool, has_variation: bool, comment: bytes = b"") -> bytes:
    """One tree record (the root when ``move`` is None)."""
    if move is None:
        squares = (0x18, 0x20)
    else:
        squares = tuple(sq % FILES * 10 + sq // FILES + offset
                        for sq, offset in ((move.from_square, 0x18), (move.to_square, 0x20)))
    flags = (0xF0 if has_next else 0) | (0x0F if has_variation else 0)
    return bytes([squares[0], squares[1], flags, 0]) + len(comment).to_bytes(4, "little") + comment


def main_line(moves: list[str]) -> bytes:
    """A whole file: the start position and one line of ICCS moves."""
    data = bytes(header()) + record(None, bool(moves), False)
    for index, text in enumerate(moves):
        data += record(Move.from_iccs(text), index + 1 < len(moves), False)
    return data


def deep_variations(depth: int) -> bytes:
    """A file whose variations nest ``depth`` deep: at each ply the main move has an alternative,
    and the alternative's line holds the next nested pair (pre-order: node, first child's subtree,
    then the next sibling)."""
    cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    data = bytes(header()) + record(None, True, False)
    # Each level: 'other' (a leaf with a sibling), then 'cycle' move (has next: the next level).
    for level in range(depth):
        data += record(Move.from_iccs("a3a4" if level % 2 == 0 else "a6a5"), False, True)
        data += record(Move.from_iccs(cycle[level % 4]), level + 1 < depth, False)
    return data
