"""WXF notation: ``C2.5``, ``H8+7``, ``R1+1``, tandem pieces ``C+.5`` / ``C-.5``.

Written as the World Xiangqi Federation document says: upper-case piece letter (K A E H R C P),
the origin file counted from the mover's right, ``+`` forward / ``-`` backward / ``.`` sideways,
then ranks moved or the target file (see :mod:`xqdesk.notation.descriptive`). Tandem pieces
follow the convention in :mod:`xqdesk.notation.tandem`: ``C+.5``, ``P-+1``; three pawns ``P+``,
``P3`` (middle), ``P-``; four or five ``++``, ``P+``, [``P3``], ``P-``, ``--``; with tandem pawns on
two files the file replaces the letter: ``3+.4``, ``33.4``, ``7-.6``.

Read leniently: any letter case (Black's moves in lower case too), ``=`` for ``.``, nothing for
sideways (``C25``), full-width characters (``Ｃ２＝５``, ``＋Ｐ＋１``), the mark before the letter
(``+P+1``), the letters B and N (FEN's elephant and horse), and Fairy-Stockfish's tandem pawns:
the pawn's number on its file (front first) and then the file, ``25=4`` (a repeated digit, ``33``,
is WXF's middle pawn when the file holds three).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from xqdesk.move import Move
from xqdesk.notation.descriptive import Direction, MoveSelector, describe_move, file_of_number, resolve_selector
from xqdesk.notation.move_text_errors import unreadable_move
from xqdesk.notation.normalize import to_ascii_forms
from xqdesk.notation.tandem import MarkKind, TandemMark, squares_on_file
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN

if TYPE_CHECKING:
    from xqdesk.board import Board

PIECE_LETTERS = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", CHARIOT: "R", CANNON: "C", PAWN: "P"}
_LETTER_TYPES = {letter: piece_type for piece_type, letter in PIECE_LETTERS.items()}
_LETTER_TYPES.update({"B": ELEPHANT, "N": HORSE})
_DIRECTIONS = {"+": Direction.FORWARD, "-": Direction.BACKWARD, ".": Direction.SIDEWAYS}
_MARKS = {"+": TandemMark(MarkKind.WXF_PLUS), "-": TandemMark(MarkKind.WXF_MINUS)}

_L = "([KAEBHNRCP])"
_TAIL = r"([-+.])([1-9])"
_PLAIN = re.compile(_L + r"([1-9])([-+.]?)([1-9])")
_MARK_AFTER_LETTER = re.compile(_L + "([-+])" + _TAIL)
_MARK_BEFORE_LETTER = re.compile("([-+])" + _L + _TAIL)
_OUTERMOST_PAWN = re.compile(r"(\+\+|--)" + _TAIL)
_PAWN_WITH_FILE = re.compile(r"([1-9])([-+1-9])" + _TAIL)
_FORMS = (_PLAIN, _MARK_AFTER_LETTER, _MARK_BEFORE_LETTER, _OUTERMOST_PAWN, _PAWN_WITH_FILE)


def format_wxf(board: Board, move: Move) -> str:
    """The WXF text of ``move``, a legal move of ``board`` (position before the move)."""
    description = describe_move(board, move)
    letter = PIECE_LETTERS[description.piece_type]
    file = str(description.file_number)
    tail = description.direction.value + str(description.amount)
    place = description.place
    if place is None:
        return letter + file + tail
    index, count = place.rank_from_front, place.pieces_on_file
    if place.file_qualified:
        marker = "+" if index == 0 else "-" if index == count - 1 else file
        return file + marker + tail
    if count <= 3:
        return letter + ("+" if index == 0 else "-" if index == count - 1 else file) + tail
    if index == 0:
        return "++" + tail
    if index == count - 1:
        return "--" + tail
    return letter + ("+" if index == 1 else "-" if index == count - 2 else file) + tail


def parse_wxf(board: Board, text: str) -> Move:
    """The legal move of ``board`` that the WXF ``text`` names; raises IllegalMoveError or
    AmbiguousMoveError (messages carry the text and the FEN)."""
    return resolve_selector(board, read_wxf(board, text), text)


def read_wxf(board: Board, text: str) -> MoveSelector:
    """The selector a WXF ``text`` spells (not yet matched against legal moves)."""
    fields = wxf_fields(text)
    if fields is None:
        raise unreadable_move(text, board, "not WXF notation (expected like 'C2.5', 'H8+7' or 'C+.5')")
    pattern, groups = fields
    if pattern is _PLAIN:
        letter, file, direction, amount = groups
        piece_type = _LETTER_TYPES[letter]
        mark = _middle_mark_if_odd_group(board, piece_type, int(file))
        return MoveSelector(piece_type, int(file), mark, _DIRECTIONS[direction or "."], int(amount))
    if pattern is _MARK_AFTER_LETTER:
        letter, mark_text, direction, amount = groups
        return MoveSelector(_LETTER_TYPES[letter], None, _MARKS[mark_text], _DIRECTIONS[direction], int(amount))
    if pattern is _MARK_BEFORE_LETTER:
        mark_text, letter, direction, amount = groups
        return MoveSelector(_LETTER_TYPES[letter], None, _MARKS[mark_text], _DIRECTIONS[direction], int(amount))
    if pattern is _OUTERMOST_PAWN:
        marks, direction, amount = groups
        kind = MarkKind.FOREMOST if marks == "++" else MarkKind.REARMOST
        return MoveSelector(PAWN, None, TandemMark(kind), _DIRECTIONS[direction], int(amount))
    first, second, direction, amount = groups  # _PAWN_WITH_FILE
    if second in _MARKS:
        return MoveSelector(PAWN, int(first), _MARKS[second], _DIRECTIONS[direction], int(amount))
    if first == second and _pawns_on_file(board, int(first)) == 3:
        return MoveSelector(PAWN, int(first), TandemMark(MarkKind.MIDDLE), _DIRECTIONS[direction], int(amount))
    if int(first) > 5:
        raise unreadable_move(text, board, f"no pawn is number {first} of a file")
    # Fairy-Stockfish's form: the pawn's number on its file, front first, then the file.
    return MoveSelector(PAWN, int(second), TandemMark(MarkKind.NTH, int(first)), _DIRECTIONS[direction],
                        int(amount))


@lru_cache(maxsize=16384)
def wxf_fields(text: str) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """Which WXF form ``text`` has and its parts (cleaned), or None if it is not WXF."""
    cleaned = to_ascii_forms(text).upper().replace("=", ".")
    for pattern in _FORMS:
        match = pattern.fullmatch(cleaned)
        if match:
            return pattern, match.groups()
    return None


def _middle_mark_if_odd_group(board: Board, piece_type: int, number: int) -> TandemMark | None:
    """WXF names the middle one of three or five pawns on a file by the plain file number."""
    if piece_type == PAWN and _pawns_on_file(board, number) in (3, 5):
        return TandemMark(MarkKind.MIDDLE)
    return None


def _pawns_on_file(board: Board, number: int) -> int:
    """How many pawns of the side to move stand on its file ``number`` (1..9)."""
    color = board.turn
    return len(squares_on_file(board, PAWN if color else -PAWN, file_of_number(color, number)))
