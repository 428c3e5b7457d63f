"""Standard algebraic notation (SAN) for Xiangqi, as WinBoard, cutechess, pychess.org and
Fairy-Stockfish write it in PGN: ``Che3``, ``Hxg3``, ``Rxi5``, ``Ade1``, ``Cxe7+``.

A move is the piece letter (K A E H R C P; B and N are read for the elephant and the horse, and a
move with no letter is a pawn's), the origin file and/or rank only when another piece of the same
kind could go to the same square (file first, as in chess), ``x`` for a capture, the target
square and ``+`` for check (``#`` for mate). Files are ``a``..``i`` from Red's left.

Ranks come in two dialects: WinBoard numbers them ``0``..``9`` from Red's side (as ICCS does),
pychess.org and Fairy-Stockfish ``1``..``10``. :func:`format_san` writes the ``1``..``10`` dialect
(``rank_base=1``) unless told otherwise; :func:`san_candidates` reads either.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xqdesk.move import Move
from xqdesk.notation.move_text_errors import ambiguous_move, unreadable_move
from xqdesk.notation.normalize import to_ascii_forms
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, PieceType
from xqdesk.squares import FILE_NAMES, square_file, square_rank

if TYPE_CHECKING:
    from xqdesk.board import Board

SAN_PATTERN = re.compile(
    r"(?P<piece>[KAEBHNRCP])?(?P<file>[a-i])?(?P<rank>10|[0-9])?(?P<capture>[x:])?"
    r"(?P<to_file>[a-i])(?P<to_rank>10|[0-9])(?P<check>[+#])?[!?]*")
"""One SAN move, either rank dialect."""

SAN_LETTERS: dict[PieceType, str] = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", CHARIOT: "R",
                                     CANNON: "C", PAWN: "P"}
_LETTER_TYPES: dict[str, PieceType] = {letter: kind for kind, letter in SAN_LETTERS.items()} | {
    "B": ELEPHANT, "N": HORSE}


def is_san(text: str) -> bool:
    """Whether ``text`` has the shape of a SAN move (in either rank dialect)."""
    return SAN_PATTERN.fullmatch(to_ascii_forms(text)) is not None


def san_rank_numbers(text: str) -> list[int]:
    """The rank numbers written in a SAN move (origin rank if any, then target rank)."""
    match = SAN_PATTERN.fullmatch(to_ascii_forms(text))
    if match is None:
        return []
    return [int(match.group(name)) for name in ("rank", "to_rank") if match.group(name)]


def san_candidates(board: Board, text: str, rank_base: int) -> list[Move]:
    """The legal moves of ``board`` that SAN ``text`` can name when ranks count from ``rank_base``
    (0 for WinBoard, 1 for pychess.org and Fairy-Stockfish). Empty when none fits or the text is
    not SAN."""
    match = SAN_PATTERN.fullmatch(to_ascii_forms(text))
    if match is None:
        return []
    piece_type = _LETTER_TYPES[match.group("piece")] if match.group("piece") else PAWN
    to_rank = int(match.group("to_rank")) - rank_base
    if not 0 <= to_rank <= 9:
        return []
    to_file = FILE_NAMES.index(match.group("to_file"))
    from_file = FILE_NAMES.index(match.group("file")) if match.group("file") else None
    from_rank = int(match.group("rank")) - rank_base if match.group("rank") else None
    found = []
    for move in board.legal_moves:
        if square_file(move.to_square) != to_file or square_rank(move.to_square) != to_rank:
            continue
        piece = board.piece_at(move.from_square)
        if piece is None or piece.piece_type != piece_type:
            continue
        if from_file is not None and square_file(move.from_square) != from_file:
            continue
        if from_rank is not None and square_rank(move.from_square) != from_rank:
            continue
        found.append(move)
    return found


def parse_san(board: Board, text: str, rank_base: int = 1) -> Move:
    """The one legal move SAN ``text`` names with ranks from ``rank_base``; raises IllegalMoveError
    (AmbiguousMoveError when several fit)."""
    if not is_san(text):
        raise unreadable_move(text, board, "not SAN (expected like 'Che3', 'Hxg3', 'Rih10')")
    moves = san_candidates(board, text, rank_base)
    if not moves:
        dialect = "1-10" if rank_base else "0-9"
        raise unreadable_move(text, board, f"no legal move fits this SAN move (ranks {dialect})")
    if len(moves) > 1:
        raise ambiguous_move(text, board, moves)
    return moves[0]


def format_san(board: Board, move: Move, rank_base: int = 1) -> str:
    """The SAN of ``move``, a legal move of ``board``, with ranks from ``rank_base`` (1: the
    pychess.org / Fairy-Stockfish dialect, 0: WinBoard's)."""
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise unreadable_move(move.iccs(), board, "no piece on the move's origin square")
    rivals = [other.from_square for other in board.legal_moves
              if other.to_square == move.to_square and other.from_square != move.from_square
              and (rival := board.piece_at(other.from_square)) is not None
              and rival.piece_type == piece.piece_type]
    origin = ""
    if rivals:
        own_file, own_rank = square_file(move.from_square), square_rank(move.from_square)
        if all(square_file(sq) != own_file for sq in rivals):
            origin = FILE_NAMES[own_file]
        elif all(square_rank(sq) != own_rank for sq in rivals):
            origin = str(own_rank + rank_base)
        else:
            origin = FILE_NAMES[own_file] + str(own_rank + rank_base)
    capture = "x" if board.is_capture(move) else ""
    target = FILE_NAMES[square_file(move.to_square)] + str(square_rank(move.to_square) + rank_base)
    board.push(move)
    try:
        suffix = ("#" if not any(True for _ in board.legal_moves) else "+") if board.is_check() else ""
    finally:
        board.pop()
    return SAN_LETTERS[piece.piece_type] + origin + capture + target + suffix
