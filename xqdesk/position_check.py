"""Why a set-up position cannot occur in a game: every problem, not just the first.

The one place these rules live: the FEN reader (:mod:`xqdesk.fen`) refuses a position with the
reasons found here, and the position editor lists them while the user is still placing pieces.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from xqdesk.movegen import king_attacked
from xqdesk.pieces import ADVISOR, ELEPHANT, KING, PAWN, PIECE_NAMES, PIECE_TYPES, RED, Color, Piece, color_name
from xqdesk.squares import FILE_NAMES, SQUARE_COUNT, square_file, square_name, square_rank

_START_COUNTS = {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1}
#: The most pieces of each signed code a side may have: what it starts with.
MOST_PIECES: dict[int, int] = {**_START_COUNTS, **{-code: n for code, n in _START_COUNTS.items()}}

# (rank counted from the own back rank, file) of the seven points an elephant can reach.
_ELEPHANT_POINTS = frozenset({(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)})


def placement_problem(piece: Piece, sq: int) -> str | None:
    """Why ``piece`` can never stand on ``sq`` (None when it can)."""
    file, rank = square_file(sq), square_rank(sq)
    side = "red" if piece.color == RED else "black"
    name = f"{side} {PIECE_NAMES[piece.piece_type]}"
    palace = 3 <= file <= 5 and (rank <= 2 if piece.color == RED else rank >= 7)
    own_rank = rank if piece.color == RED else 9 - rank  # 0 = own back rank
    if piece.piece_type == KING and not palace:
        return f"{name} outside its palace on {square_name(sq)}"
    if piece.piece_type == ADVISOR and not (palace and (file + own_rank) % 2 == 1):
        return f"{name} on {square_name(sq)}, a point no advisor can reach"
    if piece.piece_type == ELEPHANT and (own_rank, file) not in _ELEPHANT_POINTS:
        return f"{name} on {square_name(sq)}, a point no elephant can reach"
    if piece.piece_type == PAWN:
        if own_rank < 3 or (own_rank in (3, 4) and file % 2 == 1):
            return f"{name} on {square_name(sq)}, behind its starting point"
    return None




class ProblemKind(enum.Enum):
    """What kind of problem a :class:`PositionProblem` is."""

    MISSING_KING = "missing king"
    TOO_MANY = "too many pieces of a kind"
    MISPLACED = "piece where it can never stand"
    KINGS_FACING = "kings facing each other"
    WAITING_SIDE_IN_CHECK = "side not to move in check"


@dataclass(frozen=True)
class PositionProblem:
    """One reason a position is impossible, with the facts a translation needs.

    ``text`` is the English sentence (the FEN reader's words where it has them); ``color``,
    ``piece_type``, ``square`` and ``count`` are set when they apply to the kind.
    """

    kind: ProblemKind
    text: str
    color: Optional[Color] = None
    piece_type: Optional[int] = None
    square: Optional[int] = None
    count: Optional[int] = None


def find_position_problems(codes: Sequence[int], turn: Color) -> list[PositionProblem]:
    """Every problem of the position with 90 signed piece ``codes`` and ``turn`` to move.

    Order: misplaced pieces (by square), then per side missing king and excess pieces, then the
    kings facing, then the side not to move being in check. Empty list: the position is valid.
    """
    if len(codes) != SQUARE_COUNT:
        raise ValueError(f"a position has {SQUARE_COUNT} squares, got {len(codes)} codes: {list(codes)!r}")
    problems: list[PositionProblem] = []
    for sq, code in enumerate(codes):
        if code == 0:
            continue
        piece = Piece.from_code(code)
        text = placement_problem(piece, sq)
        if text is not None:
            problems.append(PositionProblem(ProblemKind.MISPLACED, text, piece.color, piece.piece_type, sq))

    counts = Counter(code for code in codes if code)
    for color in (RED, not RED):
        side = color_name(color)
        for piece_type in PIECE_TYPES:
            code = piece_type if color else -piece_type
            count, most = counts.get(code, 0), MOST_PIECES[code]
            if piece_type == KING and count == 0:
                problems.append(PositionProblem(ProblemKind.MISSING_KING, f"0 {side} kings, expected 1",
                                                color, KING, count=0))
            elif count > most:
                name = PIECE_NAMES[piece_type]
                limit = "expected 1" if piece_type == KING else f"at most {most}"
                problems.append(PositionProblem(ProblemKind.TOO_MANY, f"{count} {side} {name}s, {limit}",
                                                color, piece_type, count=count))

    kings = {color: [sq for sq, code in enumerate(codes) if code == (KING if color else -KING)]
             for color in (RED, not RED)}
    if len(kings[RED]) == 1 and len(kings[not RED]) == 1:
        red_king, black_king = kings[RED][0], kings[not RED][0]
        facing = square_file(red_king) == square_file(black_king) and not any(
            codes[sq] for sq in range(red_king + 9, black_king, 9))
        waiting = not turn
        waiting_king = red_king if waiting == RED else black_king
        if facing:
            file = FILE_NAMES[square_file(red_king)]
            problems.append(PositionProblem(ProblemKind.KINGS_FACING,
                                            f"the two kings face each other on file {file}",
                                            square=red_king))
        elif king_attacked(list(codes), waiting_king, waiting):
            problems.append(PositionProblem(
                ProblemKind.WAITING_SIDE_IN_CHECK,
                f"{color_name(turn)} is to move but the other king is in check",
                waiting, KING, waiting_king))
    return problems


def position_problems(codes: Sequence[int], turn: Color) -> list[str]:
    """The English sentences of :func:`find_position_problems` (empty when the position is valid)."""
    return [problem.text for problem in find_position_problems(codes, turn)]


def board_problems(board) -> list[str]:
    """:func:`position_problems` for a :class:`xqdesk.board.Board` (its squares and side to move)."""
    return position_problems([board.code_at(sq) for sq in range(SQUARE_COUNT)], board.turn)


__all__ = ["MOST_PIECES", "ProblemKind", "PositionProblem", "find_position_problems",
           "position_problems", "board_problems"]

