"""象棋桥 XiangQi Bridge's binary records: ``.cbr`` (one game) and ``.cbl`` (a library of games), read.

A CBR record (all integers little-endian, text UTF-16LE and NUL-padded):

- bytes 0..15 ``CCBridge Record`` and a NUL; text fields: title at 180 (128 bytes), event 692 (64),
  round 756 (64), date 884 (64), site 948 (64), Red 1076 (64), Red's team 1140 (64), Black 1300
  (64), Black's team 1364 (64), commentator 1652 (64);
- byte 2076 the result (1 Red won, 2 Black won, 3 drawn); 2116 (2 bytes) the side to move (1 Red,
  2 Black); 2120..2209 the board, a byte a square, top row (Black's side) first, left to right:
  high nibble 1 Red / 2 Black, low nibble 1..7 chariot, horse, elephant, advisor, king, cannon, pawn;
- from 2214 the move tree, records of 4 bytes (flags, reserved, from, to; a square is its index in
  the board above), each followed by a 4-byte length and a UTF-16LE comment when flag 0x04 is set.
  The first record is the start position (only its comment counts). Records are in pre-order:
  a move, the line after it unless flag 0x01 ends it, then an alternative to it when flag 0x02 says
  one follows — the tree of XQF, whose reader (:func:`~xqdesk.formats.xqf.add_move_tree`) checks
  the moves.

A CBL library: ``CCBridgeLibrary``, the number of index slots at byte 60, the library's name at 64
(512 bytes), then an index of 276 bytes a slot from 66,624 (each entry: the kind 7, the slot's
number, 1 when it holds a game, the record's size, then the game's GUID in UTF-16) and the records
from ``66624 + slots * 276`` on 4,096-byte boundaries (a long record runs on into the next slot, so
a slot that does not start with the record magic is a continuation, not the end).
"""
from __future__ import annotations

from pathlib import Path

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError, RecordFormatError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, source_name
from xqdesk.formats.outcome_text import outcome_from_result
from xqdesk.formats.record_file import RecordFileError, read_record_bytes
from xqdesk.formats.xqf import add_move_tree
from xqdesk.formats.xqf_binary import XqfNode
from xqdesk.game import Game
from xqdesk.pieces import ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, RED, Piece
from xqdesk.ruleset import STANDARD
from xqdesk.squares import square

RECORD_MAGIC = b"CCBridge Record"
LIBRARY_MAGIC = b"CCBridgeLibrary"
TREE_START = 2214
LIBRARY_SLOT = 4096
LIBRARY_INDEX_START = 66624
LIBRARY_INDEX_ENTRY = 276
_TEXT_FIELDS = (("Title", 180, 128), ("Event", 692, 64), ("Round", 756, 64), ("Date", 884, 64),
                ("Site", 948, 64), ("Red", 1076, 64), ("RedTeam", 1140, 64), ("Black", 1300, 64),
                ("BlackTeam", 1364, 64), ("Annotator", 1652, 64))
_RESULTS = {1: "1-0", 2: "0-1", 3: "1/2-1/2"}
_PIECES = {1: CHARIOT, 2: HORSE, 3: ELEPHANT, 4: ADVISOR, 5: KING, 6: CANNON, 7: PAWN}
_END_LINE, _HAS_ALTERNATIVE, _HAS_COMMENT = 0x01, 0x02, 0x04
_MARK_DAMAGE = 3
"""A slot boundary whose 15 bytes differ from ``CCBridge Record`` in at most this many places holds
a record with a damaged mark (a record's own bytes there never come so close)."""


def _text(data: bytes, offset: int, size: int) -> str:
    raw = data[offset:offset + size]
    for end in range(0, len(raw) - 1, 2):
        if raw[end] == 0 and raw[end + 1] == 0:
            raw = raw[:end]
            break
    return raw.decode("utf-16-le", errors="replace").strip()


def _square(index: int) -> int:
    """A board index (top row first) as a square, or -1 off the board."""
    if not 0 <= index < 90:
        return -1
    return square(index % 9, 9 - index // 9)


def _start_fen(data: bytes) -> str:
    rows = []
    for row in range(10):
        text, empty = "", 0
        for column in range(9):
            value = data[2120 + row * 9 + column]
            color = {1: RED, 2: BLACK}.get(value >> 4)
            kind = _PIECES.get(value & 0x0F)
            if color is None or kind is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + Piece(kind, color).symbol()
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    side = "b" if int.from_bytes(data[2116:2118], "little") == 2 else "w"
    return "/".join(rows) + f" {side} - - 0 1"


def _tree(data: bytes) -> tuple[XqfNode, str | None]:
    """The move tree from byte 2214 (the root holds the opening comment) and the damage met."""
    position = TREE_START

    def record() -> tuple[XqfNode, int]:
        nonlocal position
        if position + 4 > len(data):
            raise RecordFormatError(f"the record ends inside a move at byte {position}")
        flags, _reserved, origin, target = data[position:position + 4]
        position += 4
        comment = ""
        if flags & _HAS_COMMENT:
            size = int.from_bytes(data[position:position + 4], "little")
            if position + 4 + size > len(data):
                raise RecordFormatError(f"a comment of {size} bytes at byte {position} runs past the record")
            comment = _text(data, position + 4, size)
            position += 4 + size
        return XqfNode(_square(origin), _square(target), comment), flags

    root = XqfNode(-1, -1)
    if position + 4 > len(data):
        return root, None
    try:
        opening, flags = record()
        root.comment = opening.comment
        pending: list[XqfNode] = []
        parent: XqfNode | None = None if flags & _END_LINE else root
        while parent is not None:
            if data[position:position + 4] == b"\0\0\0\0":
                break  # padding: the tree ends here
            node, flags = record()
            parent.children.append(node)
            if flags & _HAS_ALTERNATIVE:
                pending.append(parent)
            parent = node if not flags & _END_LINE else (pending.pop() if pending else None)
    except RecordFormatError as error:
        return root, f"damaged move tree: {error}"
    return root, None


def decode_cbr(data: bytes, source: str, number: int, result: GameFile) -> None:
    """Add the game of one CBR record (``data`` from its magic on) to ``result`` as game ``number``."""
    if not data.startswith(RECORD_MAGIC) or len(data) < TREE_START:
        result.errors.append(GameReadError(source, number, "header", "", f"not a XiangQi Bridge record (starts "
                                                                         f"{data[:16]!r}, {len(data)} bytes)"))
        return
    headers = {tag: text for tag, offset, size in _TEXT_FIELDS if (text := _text(data, offset, size))}
    outcome_token = _RESULTS.get(data[2076])
    if outcome_token:
        headers["Result"] = outcome_token
    fen = _start_fen(data)
    try:
        board = Board(fen, ruleset=STANDARD)
    except InvalidFenError as error:
        result.errors.append(GameReadError(source, number, "header", "", f"the start position: {error}"))
        return
    root, damage = _tree(data)
    game = Game(headers=headers, start_fen=STARTING_FEN if board.fen() == STARTING_FEN else board.fen(),
                comment=root.comment, outcome=outcome_from_result(outcome_token) if outcome_token else None,
                ruleset=STANDARD)
    errors: list[GameReadError] = []
    add_move_tree(game, root.children, board, source, errors, number)
    if damage:
        errors.append(GameReadError(source, number, "move tree", "", damage))
    result.games.append(game)
    result.errors.extend(errors)


def read_cbr(path: str | Path) -> GameFile:
    """Read a ``.cbr`` file: one game."""
    source = source_name(path)
    result = GameFile(source, encoding="utf-16-le")
    decode_cbr(Path(path).read_bytes(), source, 1, result)
    return result


def library_name(data: bytes) -> str:
    """The name a CBL library gives itself."""
    return _text(data, 64, 512)


def read_cbl(path: str | Path) -> GameFile:
    """Read a ``.cbl`` library: every game in it, in order. Linear in the file's size.

    Records are found by their mark (``CCBridge Record``) wherever they begin, not only where the
    header's slot count puts them, so damage to the header or bytes inserted or lost before a
    record cost no intact game: a record off its 4,096-byte slot is read and the damage before it
    reported, a slot count that cannot be right is reported, a damaged library mark is reported (the
    file is read as a library when it holds a record mark), and when the index lists more games
    in the file than the records found (a record whose mark is damaged), the missing count is
    reported."""
    source = source_name(path)
    result = GameFile(source, encoding="utf-16-le")
    try:
        data = read_record_bytes(path)
    except RecordFileError as error:
        result.errors.append(file_error(source, "whole file", error.reason))
        return result
    marked = data.startswith(LIBRARY_MAGIC)
    if len(data) < 64 or not (marked or data.find(RECORD_MAGIC, len(LIBRARY_MAGIC)) >= 0):
        result.errors.append(GameReadError(source, 1, "header", "", f"not a XiangQi Bridge library (starts "
                                                                    f"{data[:16]!r})"))
        return result
    if not marked:  # a damaged mark: the records it holds are still found by theirs
        result.errors.append(file_error(source, "byte 0", f"the library's mark is damaged ({data[:15]!r}); its "
                                                          f"records are read where they begin"))
    slots = int.from_bytes(data[60:64], "little")
    first = LIBRARY_INDEX_START + slots * LIBRARY_INDEX_ENTRY
    starts, damaged_marks = _record_starts(data, first)
    if starts and first > starts[0]:
        result.errors.append(file_error(source, "byte 60", f"the header's slot count {slots:,} puts the first "
                                                           f"record at byte {first:,}, past the first one found "
                                                           f"(byte {starts[0]:,}): the header is damaged; the "
                                                           f"records are read where they begin"))
    elif starts:
        misplaced = next((start for start in starts if (start - first) % LIBRARY_SLOT), None)
        if misplaced is not None:
            result.errors.append(file_error(source, f"byte {misplaced:,}", "a record does not begin on its 4,096-byte "
                                                                           "slot: bytes were added or lost before "
                                                                           "it; the records are read where they "
                                                                           "begin"))
    for number, start in enumerate(starts, start=1):
        end = starts[number] if number < len(starts) else len(data)
        if start in damaged_marks:
            result.errors.append(GameReadError(source, number, f"byte {start:,}", "",
                                               f"the record's mark is damaged ({data[start:start + 15]!r}); "
                                               f"read as a record all the same"))
            decode_cbr(RECORD_MAGIC + data[start + len(RECORD_MAGIC):end], source, number, result)
        else:
            decode_cbr(data[start:end], source, number, result)
    listed = _games_listed(data, slots, first)
    if listed is not None and listed > len(starts):
        result.errors.append(file_error(source, "index", f"the index lists {listed} games in the file's slots but "
                                                         f"{len(starts)} records were found: the others are "
                                                         f"damaged past reading (their record mark is gone)"))
    if not starts:
        result.errors.append(file_error(source, f"byte {first}", "the library holds no game record"))
    return result


def _record_starts(data: bytes, first: int) -> tuple[list[int], set[int]]:
    """Where the records of a library begin, in order, and which of them have a damaged mark: every
    ``CCBridge Record`` in the data, and every slot boundary (4,096 bytes on from the header's first
    record or from a record found) whose 15 bytes differ from the mark in at most
    :data:`_MARK_DAMAGE` places. Linear in the data's size."""
    exact = []
    found = data.find(RECORD_MAGIC, len(LIBRARY_MAGIC))
    while found >= 0:
        exact.append(found)
        found = data.find(RECORD_MAGIC, found + len(RECORD_MAGIC))
    anchors = sorted(set(exact) | ({first} if first < len(data) else set()))
    damaged: set[int] = set()
    for index, anchor in enumerate(anchors):
        stop = anchors[index + 1] if index + 1 < len(anchors) else len(data)
        for slot in range(anchor, stop, LIBRARY_SLOT):
            mark = data[slot:slot + len(RECORD_MAGIC)]
            if mark != RECORD_MAGIC and len(mark) == len(RECORD_MAGIC) and sum(
                    a != b for a, b in zip(mark, RECORD_MAGIC)) <= _MARK_DAMAGE:
                damaged.add(slot)
    return sorted(set(exact) | damaged), damaged


def _games_listed(data: bytes, slots: int, first: int) -> int | None:
    """How many games the library's index lists in slots that begin inside the file (entries whose
    kind is 7 and whose in-use flag is 1; a library cut short at a record's start lists games it no
    longer holds), or None when the slot count does not fit the file (the index cannot be trusted)."""
    end = LIBRARY_INDEX_START + slots * LIBRARY_INDEX_ENTRY
    if end > len(data):
        return None
    listed = 0
    for entry in range(LIBRARY_INDEX_START, end, LIBRARY_INDEX_ENTRY):
        slot = int.from_bytes(data[entry + 4:entry + 8], "little")
        if (data[entry:entry + 4] == b"\x07\0\0\0" and data[entry + 8:entry + 12] == b"\x01\0\0\0"
                and first + slot * LIBRARY_SLOT < len(data)):
            listed += 1
    return listed
