"""Coordinate notations: ICCS (``h2e2``) and Fairy-Stockfish's UCI squares (``h3e3``).

ICCS names files ``a``..``i`` from Red's left and ranks ``0``..``9`` from Red's side; it is also
the move format of Pikafish-style UCI engines and of xqdesk itself. On input it may be upper or
lower case, with or without the hyphen (``H2-E2``), in full-width characters.

Fairy-Stockfish (and pyffish) number ranks ``1``..``10`` instead: ICCS ``h2e2`` is ``h3e3`` there
and ``a9a8`` is ``a10a9``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from xqdesk.move import Move
from xqdesk.notation.move_text_errors import unreadable_move
from xqdesk.notation.normalize import to_ascii_forms
from xqdesk.squares import FILE_NAMES, FILES, square

if TYPE_CHECKING:
    from xqdesk.board import Board

ICCS_PATTERN = re.compile(r"([a-i])([0-9])-?([a-i])([0-9])", re.IGNORECASE)
UCI_PATTERN = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", re.IGNORECASE)

_UCI_SQUARE_NAMES = [FILE_NAMES[sq % FILES] + str(sq // FILES + 1) for sq in range(90)]


def format_iccs(move: Move) -> str:
    """``'h2e2'``: lower-case ICCS without the hyphen."""
    return move.iccs()


def format_uci(move: Move) -> str:
    """``'h3e3'``: Fairy-Stockfish's squares, ranks 1..10."""
    return _UCI_SQUARE_NAMES[move.from_square] + _UCI_SQUARE_NAMES[move.to_square]


@lru_cache(maxsize=16384)  # the 8,100 plain ICCS texts and their common spellings
def iccs_move(text: str) -> Move | None:
    """The move ``text`` spells in ICCS (legal or not), or None when it is not ICCS text."""
    match = ICCS_PATTERN.fullmatch(to_ascii_forms(text))
    if match is None:
        return None
    f0, r0, f1, r1 = match.groups()
    return Move(square(FILE_NAMES.index(f0.lower()), int(r0)), square(FILE_NAMES.index(f1.lower()), int(r1)))


@lru_cache(maxsize=16384)
def uci_move(text: str) -> Move | None:
    """The move ``text`` spells in Fairy-Stockfish squares (legal or not), or None."""
    match = UCI_PATTERN.fullmatch(to_ascii_forms(text))
    if match is None:
        return None
    f0, r0, f1, r1 = match.groups()
    return Move(square(FILE_NAMES.index(f0.lower()), int(r0) - 1),
                square(FILE_NAMES.index(f1.lower()), int(r1) - 1))


def parse_iccs(board: Board, text: str) -> Move:
    """The legal move of ``board`` that ``text`` spells in ICCS; raises IllegalMoveError."""
    move = iccs_move(text)
    if move is None:
        raise unreadable_move(text, board, "not ICCS text (expected like 'h2e2' or 'H2-E2')")
    if not board.is_legal(move):
        raise unreadable_move(text, board, f"{move.iccs()} is not legal: {board.why_illegal(move)}")
    return move


def parse_uci(board: Board, text: str) -> Move:
    """The legal move of ``board`` that ``text`` spells in Fairy-Stockfish squares (ranks 1..10)."""
    move = uci_move(text)
    if move is None:
        raise unreadable_move(text, board, "not Fairy-Stockfish UCI text (expected like 'h3e3', ranks 1-10)")
    if not board.is_legal(move):
        raise unreadable_move(text, board,
                              f"{format_uci(move)} (ICCS {move.iccs()}) is not legal: {board.why_illegal(move)}")
    return move
