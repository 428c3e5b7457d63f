"""FEN for Xiangqi: ``rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1``.

Ranks are written from Black's side (rank 9) down to Red's (rank 0). On input we also accept the
letters E/H for elephant/horse, ``r`` for Red to move, and missing fields after the board.
"""
from __future__ import annotations

from dataclasses import dataclass

from xqdesk.errors import InvalidFenError
from xqdesk.pieces import (ADVISOR, BLACK, ELEPHANT, KING, PAWN, PIECE_NAMES, RED, Color, Piece)
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT, square, square_file, square_name, square_rank

STARTING_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_MAX_COUNT = {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1}
# (rank counted from the own back rank, file) of the seven points an elephant can reach.
_ELEPHANT_POINTS = frozenset({(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)})


@dataclass(frozen=True)
class FenFields:
    """What a FEN says: ``codes`` (90 signed piece codes indexed by square), side, counters."""

    codes: tuple[int, ...]
    turn: Color
    halfmove_clock: int
    fullmove_number: int


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


def parse_fen(text: str) -> FenFields:
    """Parse a FEN string; raises :class:`InvalidFenError` saying what is wrong and where."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidFenError(f"empty FEN: {text!r}")
    fields = text.split()
    placement = fields[0]
    ranks = placement.split("/")
    if len(ranks) != RANKS:
        raise InvalidFenError(f"FEN {text!r} has {len(ranks)} ranks, expected {RANKS}")
    codes = [0] * SQUARE_COUNT
    for row, rank_text in enumerate(ranks):
        rank = RANKS - 1 - row
        file = 0
        for ch in rank_text:
            if ch.isdigit():
                file += int(ch)
                continue
            try:
                piece = Piece.from_symbol(ch)
            except ValueError:
                raise InvalidFenError(
                    f"FEN {text!r}: unknown piece letter {ch!r} in rank {rank} ({rank_text!r})") from None
            if file < FILES:
                codes[square(file, rank)] = piece.code
            file += 1
        if file != FILES:
            raise InvalidFenError(
                f"FEN {text!r}: rank {rank} ({rank_text!r}) has {_count_files(rank_text)} files, expected {FILES}")
    turn = RED
    rest = fields[1:]
    if rest:
        side = rest[0].lower()
        if side in ("w", "r", "red"):
            turn = RED
        elif side in ("b", "black"):
            turn = BLACK
        else:
            raise InvalidFenError(f"FEN {text!r}: side to move {rest[0]!r} is not 'w' or 'b'")
        rest = rest[1:]
    numbers = [field for field in rest if field != "-"]
    counters = []
    for field in numbers[:2]:
        if not field.isdigit():
            raise InvalidFenError(f"FEN {text!r}: move counter {field!r} is not a number")
        counters.append(int(field))
    halfmove = counters[0] if counters else 0
    fullmove = counters[1] if len(counters) > 1 else 1
    check_placement(codes, context=f"FEN {text!r}")
    return FenFields(tuple(codes), turn, halfmove, max(fullmove, 1))


def _count_files(rank_text: str) -> int:
    return sum(int(ch) if ch.isdigit() else 1 for ch in rank_text)


def check_placement(codes: list[int] | tuple[int, ...], context: str) -> None:
    """Raise InvalidFenError unless each side has one king in its palace and every piece stands
    where it could ever stand, with no more pieces of a kind than a side starts with."""
    counts: dict[int, int] = {}
    for sq, code in enumerate(codes):
        if code == 0:
            continue
        piece = Piece.from_code(code)
        counts[code] = counts.get(code, 0) + 1
        problem = placement_problem(piece, sq)
        if problem:
            raise InvalidFenError(f"{context}: {problem}")
    for color, side in ((RED, "red"), (BLACK, "black")):
        kings = counts.get(KING if color else -KING, 0)
        if kings != 1:
            raise InvalidFenError(f"{context}: {kings} {side} kings, expected 1")
        for piece_type, most in _MAX_COUNT.items():
            n = counts.get(piece_type if color else -piece_type, 0)
            if n > most:
                raise InvalidFenError(f"{context}: {n} {side} {PIECE_NAMES[piece_type]}s, at most {most}")


def board_fen(codes: list[int] | tuple[int, ...]) -> str:
    """The placement field for 90 square codes."""
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        text, empty = "", 0
        for file in range(FILES):
            code = codes[square(file, rank)]
            if code == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += Piece.from_code(code).symbol()
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def format_fen(codes: list[int] | tuple[int, ...], turn: Color, halfmove_clock: int, fullmove_number: int) -> str:
    """A full FEN: placement, ``w``/``b``, ``- -``, and the two counters."""
    return f"{board_fen(codes)} {'w' if turn == RED else 'b'} - - {halfmove_clock} {fullmove_number}"
