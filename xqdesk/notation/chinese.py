"""Chinese notation: ``炮二平五``, ``马８进７``, ``前炮退二``, ``后马进三``, ``前兵九平八``.

Written the way the course and xqbase write it: simplified characters (Red 帅 仕 相 马 车 炮 兵,
Black 将 士 象 马 车 炮 卒), 进 forward / 退 backward / 平 sideways, Red's numbers in Chinese
numerals 一..九 and Black's in full-width digits １..９ (``ascii_digits=True`` writes 1..9).
Files are counted from each player's own right (see :mod:`xqdesk.notation.descriptive`); tandem
pieces follow the convention in :mod:`xqdesk.notation.tandem`: 前/后, three pawns 前/中/后,
four or five 一..五 front to back, and the file added when two files hold tandem pawns
(``前兵九平八``).

Read leniently: traditional characters (車 馬 砲 帥 將 傌 俥 進 後, and 包), half- or full-width
digits and Chinese numerals for either side, the mark before or after the piece (``前车平三``,
``车前平三``), a file number instead of the pawn (``前九平八``), and xqbase's single 一..五 count
over two files of tandem pawns (``一兵平四``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from xqdesk.move import Move
from xqdesk.notation.descriptive import Direction, MoveSelector, describe_move, resolve_selector
from xqdesk.notation.move_text_errors import unreadable_move
from xqdesk.notation.normalize import to_simplified_forms
from xqdesk.notation.tandem import MarkKind, TandemMark
from xqdesk.pieces import ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, RED, Color

if TYPE_CHECKING:
    from xqdesk.board import Board

PIECE_CHARACTERS: dict[Color, dict[int, str]] = {
    RED: {KING: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马", CHARIOT: "车", CANNON: "炮", PAWN: "兵"},
    BLACK: {KING: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马", CHARIOT: "车", CANNON: "炮", PAWN: "卒"},
}
CHINESE_NUMERALS = "一二三四五六七八九"
FULL_WIDTH_DIGITS = "１２３４５６７８９"
DIRECTION_CHARACTERS = {Direction.FORWARD: "进", Direction.BACKWARD: "退", Direction.SIDEWAYS: "平"}
TANDEM_LABELS = {2: "前后", 3: "前中后", 4: "一二三四", 5: "一二三四五"}
"""Per number of same pieces on a file, the mark of each one front to back."""

_CHARACTER_TYPES = {ch: piece_type for side in PIECE_CHARACTERS.values() for piece_type, ch in side.items()}
_NUMBERS = {ch: n for n, ch in enumerate(CHINESE_NUMERALS, 1)} | {str(n): n for n in range(1, 10)}
_DIRECTIONS = {ch: direction for direction, ch in DIRECTION_CHARACTERS.items()}
_POSITION_MARKS = {"前": TandemMark(MarkKind.FRONT), "中": TandemMark(MarkKind.MIDDLE),
                   "后": TandemMark(MarkKind.REAR)}

_P = "([帅将仕士相象马车炮兵卒])"
_N = "([一二三四五六七八九1-9])"
_D = "([进退平])"
_PLAIN = re.compile(_P + _N + _D + _N)
_MARK_FIRST = re.compile("([前中后一二三四五1-5])" + _P + _N + "?" + _D + _N)
_MARK_AFTER_PIECE = re.compile(_P + "([前中后])" + _D + _N)
_MARK_AND_FILE_FOR_PAWN = re.compile("([前中后])" + _N + _D + _N)


def format_chinese(board: Board, move: Move, *, ascii_digits: bool = False) -> str:
    """The Chinese text of ``move``, a legal move of ``board`` (position before the move)."""
    description = describe_move(board, move)
    color = description.color
    if color:
        numbers = CHINESE_NUMERALS
    else:
        numbers = "123456789" if ascii_digits else FULL_WIDTH_DIGITS
    piece = PIECE_CHARACTERS[color][description.piece_type]
    tail = DIRECTION_CHARACTERS[description.direction] + numbers[description.amount - 1]
    file = numbers[description.file_number - 1]
    place = description.place
    if place is None:
        return piece + file + tail
    label = TANDEM_LABELS[place.pieces_on_file][place.rank_from_front]
    return label + piece + (file if place.file_qualified else "") + tail


def parse_chinese(board: Board, text: str) -> Move:
    """The legal move of ``board`` that the Chinese ``text`` names; raises IllegalMoveError or
    AmbiguousMoveError (messages carry the text and the FEN)."""
    return resolve_selector(board, read_chinese(board, text), text)


def read_chinese(board: Board, text: str) -> MoveSelector:
    """The selector a Chinese ``text`` spells (not yet matched against legal moves)."""
    selector = chinese_selector(text)
    if selector is None:
        raise unreadable_move(text, board, "not Chinese notation (expected like '炮二平五', '马8进7' or '前炮退二')")
    return selector


@lru_cache(maxsize=16384)
def chinese_selector(text: str) -> MoveSelector | None:
    """The selector ``text`` spells, or None if it is not Chinese notation (needs no position)."""
    cleaned = to_simplified_forms(text)
    match = _PLAIN.fullmatch(cleaned)
    if match:
        piece, file, direction, amount = match.groups()
        return MoveSelector(_CHARACTER_TYPES[piece], _NUMBERS[file], None, _DIRECTIONS[direction], _NUMBERS[amount])
    match = _MARK_FIRST.fullmatch(cleaned)
    if match:
        mark, piece, file, direction, amount = match.groups()
        tandem_mark = _POSITION_MARKS.get(mark) or TandemMark(MarkKind.NTH, _NUMBERS[mark])
        return MoveSelector(_CHARACTER_TYPES[piece], _NUMBERS[file] if file else None, tandem_mark,
                            _DIRECTIONS[direction], _NUMBERS[amount])
    match = _MARK_AFTER_PIECE.fullmatch(cleaned)
    if match:
        piece, mark, direction, amount = match.groups()
        return MoveSelector(_CHARACTER_TYPES[piece], None, _POSITION_MARKS[mark], _DIRECTIONS[direction],
                            _NUMBERS[amount])
    match = _MARK_AND_FILE_FOR_PAWN.fullmatch(cleaned)
    if match:
        mark, file, direction, amount = match.groups()
        return MoveSelector(PAWN, _NUMBERS[file], _POSITION_MARKS[mark], _DIRECTIONS[direction], _NUMBERS[amount])
    return None
