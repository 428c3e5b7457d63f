"""Move notation, both ways: ICCS, Fairy-Stockfish UCI squares, WXF, Chinese and SAN.

>>> board = Board()
>>> format_move(board, Move.from_iccs("h2e2"), Notation.CHINESE)
'炮二平五'
>>> parse_move(board, "Ｃ２＝５")
Move.from_iccs('h2e2')

``format_move`` takes a legal move and the position before it; ``parse_move`` takes any text
and returns the one legal move it names, or raises :class:`~xqdesk.errors.IllegalMoveError`
(:class:`~xqdesk.errors.AmbiguousMoveError` when several fit) with the text and the FEN in the
message. One module per notation; the tandem-piece convention is documented in
:mod:`xqdesk.notation.tandem`.
"""
from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Iterable

from xqdesk.move import Move
from xqdesk.notation.chinese import format_chinese, parse_chinese
from xqdesk.notation.coordinates import (
    ICCS_PATTERN,
    UCI_PATTERN,
    format_iccs,
    format_uci,
    iccs_move,
    parse_iccs,
    parse_uci,
    uci_move,
)
from xqdesk.notation.move_text_errors import unreadable_move, unwritable_move
from xqdesk.notation.normalize import has_cjk, to_ascii_forms
from xqdesk.notation.san import format_san, is_san, parse_san
from xqdesk.notation.wxf import format_wxf, parse_wxf

if TYPE_CHECKING:
    from xqdesk.board import Board

__all__ = ["Notation", "detect_notation", "format_line", "format_move", "parse_line", "parse_move"]


class Notation(Enum):
    """The move notations xqdesk reads and writes."""

    ICCS = "iccs"
    """``h2e2`` (also read: ``H2-E2``); xqdesk's own and Pikafish-style UCI engines' format."""
    UCI = "uci"
    """``h3e3``: Fairy-Stockfish's squares, ranks 1..10."""
    WXF = "wxf"
    """``C2.5``, ``H8+7``, ``C+.5``."""
    CHINESE = "chinese"
    """``炮二平五``, ``马８进７``, ``前炮退二``."""
    SAN = "san"
    """``Che3``, ``Hxg3``: algebraic notation as pychess.org and Fairy-Stockfish write it (ranks 1..10)."""


_FORMATTERS = {
    Notation.ICCS: lambda board, move: format_iccs(move),
    Notation.UCI: lambda board, move: format_uci(move),
    Notation.WXF: format_wxf,
    Notation.CHINESE: format_chinese,
    Notation.SAN: format_san,
}
_PARSERS = {
    Notation.ICCS: parse_iccs,
    Notation.UCI: parse_uci,
    Notation.WXF: parse_wxf,
    Notation.CHINESE: parse_chinese,
    Notation.SAN: parse_san,
}


def format_move(board: Board, move: Move, notation: Notation = Notation.ICCS) -> str:
    """``move`` written in ``notation``; ``board`` is the position before it and ``move`` must be
    legal there (not re-checked, for speed: use :func:`format_line` for untrusted moves)."""
    return _FORMATTERS[notation](board, move)


def parse_move(board: Board, text: str, notation: Notation | None = None) -> Move:
    """The one legal move of ``board`` that ``text`` names in ``notation`` (guessed when None).

    Raises IllegalMoveError (AmbiguousMoveError when several legal moves fit)."""
    if not isinstance(text, str):
        raise unreadable_move(text, board, "a move text must be a string")
    if notation is not None:
        return _PARSERS[notation](board, text)
    if has_cjk(text):
        return parse_chinese(board, text)
    iccs = iccs_move(text)
    uci = uci_move(text)
    if iccs is None and uci is None:
        return parse_san(board, text) if is_san(text) else parse_wxf(board, text)
    # "a3d3" spells a move in both coordinate notations: ICCS wins when it is legal.
    if iccs is not None and board.is_legal(iccs):
        return iccs
    if uci is not None and board.is_legal(uci):
        return uci
    if is_san(text) and text[:1].isupper():  # 'E1e3': an elephant's SAN, not coordinates
        return parse_san(board, text)
    return parse_iccs(board, text) if iccs is not None else parse_uci(board, text)


def detect_notation(text: str) -> Notation:
    """The notation ``text`` looks like on its own (``'a3d3'`` reads as ICCS; use
    :func:`parse_move` with no notation to also try Fairy-Stockfish squares)."""
    if has_cjk(text):
        return Notation.CHINESE
    cleaned = to_ascii_forms(text)
    if ICCS_PATTERN.fullmatch(cleaned):
        return Notation.ICCS
    if UCI_PATTERN.fullmatch(cleaned):
        return Notation.UCI
    return Notation.SAN if is_san(cleaned) else Notation.WXF


def format_line(board: Board, moves: Iterable[Move], notation: Notation = Notation.ICCS) -> list[str]:
    """A line of moves from ``board`` (an engine's PV, a game) written in ``notation``.

    Each move is checked: an illegal one raises IllegalMoveError naming its place in the line.
    ``board`` itself is not changed."""
    position = board.copy()
    texts = []
    for number, move in enumerate(moves, 1):
        if not position.is_legal(move):
            raise unwritable_move(move, position, f"move {number} of the line is not legal here: "
                                                  f"{position.why_illegal(move)}")
        texts.append(format_move(position, move, notation))
        position.push(move)
    return texts


def parse_line(board: Board, texts: Iterable[str], notation: Notation | None = None) -> list[Move]:
    """The moves a line of texts names, played one after the other from ``board`` (unchanged)."""
    position = board.copy()
    moves = []
    for text in texts:
        move = parse_move(position, text, notation)
        moves.append(move)
        position.push(move)
    return moves
