"""The 32 piece slots of the Windows GUIs' formats (XQF's piece places, DhtmlXQ's ``binit``): for
each side, in this order, 车马相仕帅仕相马车炮炮兵兵兵兵兵; Red's 16 slots, then Black's."""
from __future__ import annotations

from typing import Optional

from xqdesk.board import Board
from xqdesk.errors import RecordFormatError
from xqdesk.pieces import ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, RED, PieceType
from xqdesk.squares import Square, square_file, square_rank

SLOT_ORDER: tuple[PieceType, ...] = (
    CHARIOT, HORSE, ELEPHANT, ADVISOR, KING, ADVISOR, ELEPHANT, HORSE, CHARIOT,
    CANNON, CANNON, PAWN, PAWN, PAWN, PAWN, PAWN,
)
"""The piece of each slot, for each side."""


def slot_squares(board: Board, format_name: str) -> list[Optional[Square]]:
    """The square of each of the 32 slots (None: the piece is off the board), filled as XQStudio
    and dpxq fill them — Red's pieces from the i-file, Black's from the a-file — so the start
    position gets exactly the slots those programs write. RecordFormatError (naming
    ``format_name``) when a side has more pieces of a kind than the format has slots for."""
    slots: list[Optional[Square]] = [None] * 32
    for color, offset in ((RED, 0), (BLACK, 16)):
        for sq in sorted(board.pieces(color), key=lambda sq: (-square_file(sq) if color == RED else square_file(sq),
                                                              square_rank(sq))):
            piece = board.piece_at(sq)
            if piece is None:
                continue
            slot = next((offset + i for i, kind in enumerate(SLOT_ORDER)
                         if kind == piece.piece_type and slots[offset + i] is None), None)
            if slot is None:
                raise RecordFormatError(f"{format_name} has no slot for another {piece.symbol()!r} in {board.fen()!r}")
            slots[slot] = sq
    return slots
