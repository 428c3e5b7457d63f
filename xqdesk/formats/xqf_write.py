"""Writing XQF files as XQStudio writes them without obfuscation (version 0x0A), so a game
edited here opens in the Windows GUIs (XQStudio, 象棋桥, 兵河五四 …).

The layout is the one :mod:`xqdesk.formats.xqf_binary` reads, with every key zero: ``XQ``,
version 0x0A, the 32 piece places (``x * 10 + y``, 0xFF off the board), the side to move and the
result, the text fields as GB18030 Pascal strings, then the move tree in pre-order — the root
record (squares 0x18/0x20, its comment the game's opening comment), and each move as from + 0x18,
to + 0x20, flags (0xF0 a move follows, 0x0F an alternative follows), a reserved byte and a 4-byte
comment length with the comment. A comment before a variation's first move, for which XQF has no
place, starts that move's comment. Text that does not fit a field is cut at a character boundary.
"""
from __future__ import annotations

from pathlib import Path

from xqdesk.board import Board
from xqdesk.formats.atomic_write import write_bytes_atomically
from xqdesk.formats.piece_slots import slot_squares
from xqdesk.formats.xqf_binary import HEADER_SIZE
from xqdesk.game import ChildNode, Game
from xqdesk.pieces import RED
from xqdesk.squares import square_file, square_rank

XQF_VERSION = 0x0A
_TEXT_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("Title", 80, 64), ("Event", 208, 64), ("Date", 272, 16), ("Site", 288, 16),
    ("Red", 304, 16), ("Black", 320, 16), ("Opening", 336, 64), ("RedTime", 400, 16),
    ("BlackTime", 416, 16), ("Annotator", 464, 16), ("Author", 480, 16),
)
_RESULT_BYTES = {"1-0": 1, "0-1": 2, "1/2-1/2": 3}
_HAS_NEXT, _HAS_VARIATION = 0xF0, 0x0F
_OFF_BOARD = 0xFF


def _place(sq: int) -> int:
    return square_file(sq) * 10 + square_rank(sq)


def _placement(board: Board) -> bytes:
    return bytes(_OFF_BOARD if sq is None else _place(sq) for sq in slot_squares(board, "XQF"))


def _pascal(text: str, size: int) -> bytes:
    raw = text.encode("gb18030", errors="replace")
    while len(raw) > size - 1:
        text = text[:-1]
        raw = text.encode("gb18030", errors="replace")
    return bytes([len(raw)]) + raw + bytes(size - 1 - len(raw))


def _record(origin: int, target: int, flags: int, comment: str) -> bytes:
    text = comment.replace("\r\n", "\n").replace("\n", "\r\n").encode("gb18030", errors="replace")
    return bytes([origin & 0xFF, target & 0xFF, flags, 0]) + len(text).to_bytes(4, "little") + text


def format_xqf(game: Game) -> bytes:
    """The bytes of an XQF file holding ``game`` (its moves are not re-checked)."""
    board = game.start_board()
    header = bytearray(HEADER_SIZE)
    header[0:2] = b"XQ"
    header[2] = XQF_VERSION
    header[16:48] = _placement(board)
    header[50] = 0 if board.turn == RED else 1
    result = game.outcome.result() if game.outcome else game.headers.get("Result", "")
    header[51] = _RESULT_BYTES.get(result, 0)
    # bytes 56..59 (where the tree starts) stay 0, meaning right after the header, as XQStudio writes
    for tag, offset, size in _TEXT_FIELDS:
        if game.headers.get(tag):
            header[offset:offset + size] = _pascal(game.headers[tag], size)
    body = bytearray(_record(0x18, 0x20, _HAS_NEXT if game.variations else 0, game.comment))
    # Pre-order: a node, the line after it, then the next alternative to it.
    stack: list[ChildNode] = list(reversed(game.variations[:1]))
    while stack:
        node = stack.pop()
        siblings = node.parent.variations
        index = siblings.index(node)
        flags = (_HAS_NEXT if node.variations else 0) | (_HAS_VARIATION if index + 1 < len(siblings) else 0)
        comment = "\n".join(part for part in (node.starting_comment, node.comment) if part)
        body += _record(_place(node.move.from_square) + 0x18, _place(node.move.to_square) + 0x20, flags, comment)
        if index + 1 < len(siblings):
            stack.append(siblings[index + 1])
        if node.variations:
            stack.append(node.variations[0])
    return bytes(header) + bytes(body)


def write_xqf(path: str | Path, game: Game) -> None:
    """Write one game as an XQF file, replacing ``path`` whole or not at all."""
    write_bytes_atomically(path, format_xqf(game))
