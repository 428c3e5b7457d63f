"""The four-part descriptive move shared by WXF (``H8+7``) and Chinese (``马八进七``) notation.

A descriptive move says: which piece (type, plus its file or a tandem mark), which way it goes
(forward, backward, sideways) and a number. Pieces that move straight (king, chariot, cannon,
pawn) give the number of ranks moved when going forward or back, and the target file when going
sideways; pieces that move diagonally (advisor, elephant, horse) always give the target file.

Files are numbered 1..9 from each player's own right: Red's file 1 is ICCS file ``i`` and 9 is
``a``; Black's file 1 is ICCS file ``a`` and 9 is ``i``. "Forward" is towards the opponent.

This module turns a legal move into a :class:`MoveDescription` and a parsed
:class:`MoveSelector` back into the one legal move it names; the notation modules only spell them.
"""
from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from xqdesk.move import Move
from xqdesk.notation.move_text_errors import ambiguous_move, unreadable_move, unwritable_move
from xqdesk.notation.tandem import TandemMark, TandemPlace, candidate_squares, squares_on_file, tandem_place
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, KING, PAWN, PIECE_NAMES, Color, PieceType, color_name
from xqdesk.squares import FILES, RANKS, Square

if TYPE_CHECKING:
    from xqdesk.board import Board


class Direction(Enum):
    """Which way a piece goes, seen from its own side."""

    FORWARD = "+"
    BACKWARD = "-"
    SIDEWAYS = "."


STRAIGHT_MOVERS = frozenset({KING, CHARIOT, CANNON, PAWN})
"""Pieces whose forward/backward number counts ranks; the others give a target file."""


def file_number(color: Color, file: int) -> int:
    """The 1..9 number of ICCS file ``file`` (0..8) counted from ``color``'s own right."""
    return FILES - file if color else file + 1


def file_of_number(color: Color, number: int) -> int:
    """The ICCS file (0..8) of ``color``'s file number ``number`` (1..9)."""
    return FILES - number if color else number - 1


class MoveDescription(NamedTuple):
    """A legal move as the descriptive notations say it."""

    piece_type: PieceType
    color: Color
    file_number: int
    """The origin file, 1..9 from the mover's right (written unless a tandem mark replaces it)."""
    place: TandemPlace | None
    """Set when the origin file holds several such pieces and a mark must say which one."""
    direction: Direction
    amount: int
    """Ranks moved (straight movers going forward/back) or the target file number (1..9)."""


class MoveSelector(NamedTuple):
    """What a descriptive move text says, before it is matched against a position."""

    piece_type: PieceType
    file_number: int | None
    mark: TandemMark | None
    direction: Direction
    amount: int


def destination(from_square: Square, piece_type: PieceType, color: Color, direction: Direction,
                amount: int) -> Square | None:
    """Where a ``piece_type`` on ``from_square`` lands for ``direction`` and ``amount``; None when
    that piece cannot move so (the result still has to be checked for legality)."""
    if not 1 <= amount <= 9:
        return None
    file, rank = from_square % FILES, from_square // FILES
    forward = 1 if color else -1
    if direction is Direction.BACKWARD:
        forward = -forward
    if piece_type in STRAIGHT_MOVERS:
        if direction is Direction.SIDEWAYS:
            to_file = file_of_number(color, amount)
            return None if to_file == file else rank * FILES + to_file
        to_rank = rank + forward * amount
        return to_rank * FILES + file if 0 <= to_rank < RANKS else None
    if direction is Direction.SIDEWAYS:
        return None
    to_file = file_of_number(color, amount)
    step = abs(to_file - file)
    if piece_type == ADVISOR:
        ranks = 1 if step == 1 else 0
    elif piece_type == ELEPHANT:
        ranks = 2 if step == 2 else 0
    else:  # HORSE
        ranks = 2 if step == 1 else 1 if step == 2 else 0
    to_rank = rank + forward * ranks
    if ranks == 0 or not 0 <= to_rank < RANKS:
        return None
    return to_rank * FILES + to_file


def describe_move(board: Board, move: Move) -> MoveDescription:
    """The description of ``move``, a legal move of ``board`` (legality is not re-checked, but a
    move that does not start on a piece of the side to move raises IllegalMoveError)."""
    from_square, to_square = move.from_square, move.to_square
    code = board.code_at(from_square)
    color = code > 0
    if code == 0 or color != board.turn:
        raise unwritable_move(move, board, f"no piece of the side to move on {move.iccs()[:2]}")
    piece_type = code if color else -code
    file, rank = from_square % FILES, from_square // FILES
    to_file, to_rank = to_square % FILES, to_square // FILES
    if to_rank == rank:
        direction = Direction.SIDEWAYS
    elif (to_rank > rank) == color:
        direction = Direction.FORWARD
    else:
        direction = Direction.BACKWARD
    if piece_type in STRAIGHT_MOVERS and direction is not Direction.SIDEWAYS:
        amount = abs(to_rank - rank)
    else:
        amount = file_number(color, to_file)
    place = None if piece_type == KING else tandem_place(board, from_square)
    if place is not None and piece_type in (ADVISOR, ELEPHANT):
        place = place if _file_alone_is_ambiguous(board, move, piece_type, color, direction, amount) else None
    return MoveDescription(piece_type, color, file_number(color, file), place, direction, amount)


def _file_alone_is_ambiguous(board: Board, move: Move, piece_type: PieceType, color: Color,
                             direction: Direction, amount: int) -> bool:
    """Whether another same piece on the file could make the move its file number describes.

    For advisors and elephants on standard points this never happens (the front one can only go
    back, the rear one only forward), so they are written with their file, not a mark."""
    code = board.code_at(move.from_square)
    for sq in squares_on_file(board, code, move.from_square % FILES):
        if sq != move.from_square:
            to = destination(sq, piece_type, color, direction, amount)
            if to is not None and board.is_legal(Move(sq, to)):
                return True
    return False


def resolve_selector(board: Board, selector: MoveSelector, text: str) -> Move:
    """The one legal move of ``board`` that ``selector`` (read from ``text``) names.

    Raises IllegalMoveError when none fits and AmbiguousMoveError when several do."""
    color = board.turn
    file = None if selector.file_number is None else file_of_number(color, selector.file_number)
    squares = candidate_squares(board, color, selector.piece_type, file, selector.mark)
    if not squares:
        piece_name = f"{color_name(color)} {PIECE_NAMES[selector.piece_type]}"
        if selector.mark is None:
            where = f"on file {selector.file_number}"
        elif file is None:
            where = f"that the mark {selector.mark.kind.value!r} picks (it needs a file holding several)"
        else:
            where = f"matching the mark {selector.mark.kind.value!r} on file {selector.file_number}"
        raise unreadable_move(text, board, f"no {piece_name} {where}")
    reachable = []
    for sq in squares:
        to = destination(sq, selector.piece_type, color, selector.direction, selector.amount)
        if to is not None:
            reachable.append(Move(sq, to))
    moves = [move for move in reachable if board.is_legal(move)]
    if len(moves) == 1:
        return moves[0]
    if moves:
        raise ambiguous_move(text, board, moves)
    if len(reachable) == 1:
        move = reachable[0]
        raise unreadable_move(text, board, f"{move.iccs()} is not legal: {board.why_illegal(move)}")
    raise unreadable_move(text, board, f"no {color_name(color)} {PIECE_NAMES[selector.piece_type]} there can move that way")

