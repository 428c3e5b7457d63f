"""Why a set-up position cannot occur in a game: every problem, not just the first.

The FEN reader (:mod:`xqdesk.fen`) stops at the first problem; the position editor needs them all,
worded the same way, while the user is still placing pieces. So the per-piece rule and its text come
from :func:`xqdesk.fen.placement_problem`, the most pieces of a kind a side may have are counted from
the starting position, and the two checks a FEN reader leaves to the board — the kings facing each
other and the side that just moved standing in check — are added here.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from xqdesk.fen import STARTING_FEN, parse_fen, placement_problem
from xqdesk.movegen import king_attacked
from xqdesk.pieces import KING, PIECE_NAMES, PIECE_TYPES, RED, Color, Piece, color_name
from xqdesk.squares import FILE_NAMES, SQUARE_COUNT, square_file

#: The most pieces of each signed code a side may have: what it starts with.
MOST_PIECES: dict[int, int] = dict(Counter(code for code in parse_fen(STARTING_FEN).codes if code))


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

