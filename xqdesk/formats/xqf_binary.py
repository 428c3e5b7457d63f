"""Decoding of XQStudio's binary XQF files into a raw move tree.

Layout (all integers little-endian; a header of 1,024 bytes, then the move tree):

- bytes 0..15: ``'XQ'``, version, key mask, product id (4), key bytes A..D, key sum, key XY,
  key XYf, key XYt. Version 0x0A and below is plain; 0x0B and later obfuscate the piece places,
  the move squares, the comment lengths and every byte of the tree with keys derived from these.
- bytes 16..47: where the 32 pieces stand (``x * 10 + y``, x = file 0..8 from Red's left, y = rank
  0..9 from Red's side; 90 or more = off the board), in the order chariot, horse, elephant, advisor,
  king, advisor, elephant, horse, chariot, cannon, cannon, five pawns — Red's then Black's.
- byte 50: side to move (0 Red, 1 Black); byte 51: result (0 unknown, 1 Red won, 2 Black won,
  3 or 4 drawn); bytes 56..59: where the tree starts (0 means 1,024).
- Pascal strings (a length byte, then GB18030 text): title at 80, event 208, date 272, site 288,
  Red 304, Black 320, opening 336, Red's time 400, Black's time 416, annotator 464, author 480.
- The tree: records of 4 bytes (from, to, flags, reserved), each optionally followed by a 4-byte
  comment length and the comment. The first record is the root (its squares mean nothing; its
  comment is the game's opening comment). Records are in pre-order: a node, its first child's
  subtree when the "has next" flag is set, then its next sibling (an alternative move) when the
  "has variation" flag is set.

This module knows nothing of the rules; :mod:`xqdesk.formats.xqf` turns the tree into a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from xqdesk.errors import RecordFormatError
from xqdesk.formats.piece_slots import SLOT_ORDER
from xqdesk.pieces import Piece
from xqdesk.squares import Square, square

HEADER_SIZE = 1024
_COPYRIGHT = b"[(C) Copyright Mr. Dong Shiwei.]"
PIECE_ORDER = SLOT_ORDER
_TEXT_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("Title", 80, 64), ("Event", 208, 64), ("Date", 272, 16), ("Site", 288, 16),
    ("Red", 304, 16), ("Black", 320, 16), ("Opening", 336, 64), ("RedTime", 400, 16),
    ("BlackTime", 416, 16), ("Annotator", 464, 16), ("Author", 480, 16),
)
RESULT_CODES = {1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}


@dataclass(eq=False)
class XqfNode:
    """One record of the tree: the move's squares (meaningless at the root), its comment and the
    moves that may follow it (the first is the main continuation, the others its alternatives)."""

    from_square: int
    to_square: int
    comment: str = ""
    children: list[XqfNode] = field(default_factory=list)


@dataclass
class XqfRecord:
    """Everything an XQF file holds, before any rule is applied.

    ``placement`` maps squares to pieces; ``red_to_move`` is the header's side-to-move byte;
    ``result`` a PGN result token or None; ``error`` describes a damaged tree (the nodes read
    before the damage are kept in ``root``)."""

    version: int
    headers: dict[str, str]
    placement: dict[Square, Piece]
    red_to_move: bool
    result: str | None
    root: XqfNode
    error: str | None = None


@dataclass(frozen=True)
class _Keys:
    """The deobfuscation keys of one file (all zero for version 0x0A and below)."""

    version: int
    piece: int
    source: int
    target: int
    comment: int
    stream: bytes

    @classmethod
    def from_header(cls, header: bytes) -> _Keys:
        version = header[2]
        if version <= 0x0A:
            return cls(version, 0, 0, 0, 0, bytes(32))
        mask = header[3]
        or_a, or_b, or_c, or_d = header[8:12]
        key_sum, key_xy, key_xyf, key_xyt = header[12:16]

        def scramble(value: int) -> int:
            return (((((value * value) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8)

        piece = scramble(key_xy) * key_xy & 0xFF
        source = scramble(key_xyf) * piece & 0xFF
        target = scramble(key_xyt) * source & 0xFF
        comment = (key_sum * 256 + key_xy) % 32000 + 767
        key_bytes = ((key_sum & mask) | or_a, (key_xy & mask) | or_b,
                     (key_xyf & mask) | or_c, (key_xyt & mask) | or_d)
        stream = bytes(char & key_bytes[i % 4] for i, char in enumerate(_COPYRIGHT))
        return cls(version, piece, source, target, comment, stream)


def _pascal_string(data: bytes, offset: int, size: int) -> str:
    length = min(data[offset], size - 1)
    raw = data[offset + 1:offset + 1 + length].split(b"\x00", 1)[0]
    return raw.decode("gb18030", errors="replace").strip()


def _decode_square(value: int) -> int:
    """An XQF ``x * 10 + y`` byte as a square, or -1 when it is off the board."""
    if value >= 90:
        return -1
    return square(value // 10, value % 10)


def _placement(header: bytes, keys: _Keys, name: str) -> dict[Square, Piece]:
    raw = header[16:48]
    if keys.version >= 0x0C:
        places = [0] * 32
        for index, value in enumerate(raw):
            places[(keys.piece + index + 1) % 32] = value
    else:
        places = list(raw)
    placement: dict[Square, Piece] = {}
    for index, value in enumerate(places):
        sq = _decode_square((value - keys.piece) & 0xFF)
        if sq < 0:
            continue
        piece = Piece(PIECE_ORDER[index % 16], index < 16)
        if sq in placement:
            raise RecordFormatError(f"{name}: two pieces on one square in the XQF header "
                                    f"({placement[sq].symbol()!r} and {piece.symbol()!r} at {sq!r})")
        placement[sq] = piece
    return placement


class _TreeReader:
    """Reads the records after the header, undoing the obfuscation byte by byte."""

    def __init__(self, data: bytes, start: int, keys: _Keys) -> None:
        self._data = data
        self._position = start
        self._keys = keys

    def _take(self, count: int, what: str) -> bytes:
        end = self._position + count
        if end > len(self._data):
            raise RecordFormatError(f"the file ends inside {what} at byte {self._position}")
        chunk = self._data[self._position:end]
        if self._keys.version > 0x0A:
            stream = self._keys.stream
            chunk = bytes((value - stream[(self._position + i) % 32]) & 0xFF
                          for i, value in enumerate(chunk))
        self._position = end
        return chunk

    def at_end(self) -> bool:
        return self._position >= len(self._data)

    def record(self) -> tuple[XqfNode, bool, bool]:
        """The next node and its (has next, has variation) flags."""
        raw_from, raw_to, flags, _reserved = self._take(4, "a move record")
        keys = self._keys
        if keys.version <= 0x0A:
            has_next, has_variation = bool(flags & 0xF0), bool(flags & 0x0F)
            comment_length = int.from_bytes(self._take(4, "a comment length"), "little")
        else:
            has_next, has_variation = bool(flags & 0x80), bool(flags & 0x40)
            comment_length = 0
            if flags & 0x20:
                comment_length = int.from_bytes(self._take(4, "a comment length"), "little") - keys.comment
        if comment_length < 0 or comment_length > len(self._data):
            raise RecordFormatError(f"impossible comment length {comment_length!r} at byte {self._position}")
        comment = ""
        if comment_length:
            comment = self._take(comment_length, "a comment").decode("gb18030", errors="replace")
        from_square = _decode_square((raw_from - 0x18 - keys.source) & 0xFF)
        to_square = _decode_square((raw_to - 0x20 - keys.target) & 0xFF)
        return XqfNode(from_square, to_square, comment.replace("\r\n", "\n").strip()), has_next, has_variation


def decode_xqf(data: bytes, name: str = "<xqf>") -> XqfRecord:
    """Decode the bytes of an XQF file. Raises RecordFormatError (naming ``name``) when the header
    is not XQF; damage in the move tree is reported in ``XqfRecord.error`` instead."""
    if len(data) < HEADER_SIZE or data[:2] != b"XQ":
        raise RecordFormatError(f"{name}: not an XQF file (starts {data[:4]!r}, {len(data)} bytes; "
                                f"expected 'XQ' and a {HEADER_SIZE}-byte header)")
    header = data[:HEADER_SIZE]
    keys = _Keys.from_header(header)
    if keys.version > 0x12:
        raise RecordFormatError(f"{name}: XQF version {keys.version:#04x} is newer than 0x12, the last known one")
    headers = {tag: text for tag, offset, size in _TEXT_FIELDS if (text := _pascal_string(header, offset, size))}
    placement = _placement(header, keys, name)
    tree_start = int.from_bytes(header[56:60], "little") or HEADER_SIZE
    reader = _TreeReader(data, tree_start, keys)
    root = XqfNode(-1, -1)
    record = XqfRecord(keys.version, headers, placement, header[50] == 0,
                       RESULT_CODES.get(header[51]), root)
    if tree_start > len(data):
        record.error = (f"{name}: damaged move tree: the header says it starts at byte {tree_start:,}, past the "
                        f"end of the file ({len(data):,} bytes)")
        return record
    if reader.at_end():
        return record
    try:
        first, has_next, has_variation = reader.record()
        root.comment = first.comment
        pending: list[XqfNode] = [root] if has_variation else []
        parent: XqfNode | None = root if has_next else (pending.pop() if pending else None)
        while parent is not None:
            node, has_next, has_variation = reader.record()
            parent.children.append(node)
            if has_variation:
                pending.append(parent)
            if has_next:
                parent = node
            else:
                parent = pending.pop() if pending else None
    except RecordFormatError as error:
        record.error = f"{name}: damaged move tree: {error}"
    return record
