"""FEN for Xiangqi: ``rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1``.

Ranks are written from Black's side (rank 9) down to Red's (rank 0). On input we also accept the
letters E/H for elephant/horse, ``r`` for Red to move, and missing fields after the board.
A FEN of a position that cannot occur is refused with every reason :mod:`xqdesk.position_check` finds.
"""
from __future__ import annotations

from dataclasses import dataclass

from xqdesk.errors import InvalidFenError
from xqdesk.pieces import BLACK, RED, Color, Piece
from xqdesk.position_check import find_position_problems
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT, square

STARTING_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
_EMPTY_RUN = frozenset("123456789")
_MAX_COUNTER_DIGITS = 9
_QUOTE_LIMIT = 120


def _quoted(text: str) -> str:
    """``repr`` of a FEN for messages, cut short when it is long."""
    return repr(text) if len(text) <= _QUOTE_LIMIT else f"{text[:_QUOTE_LIMIT]!r}… ({len(text):,} characters)"


@dataclass(frozen=True)
class FenFields:
    """What a FEN says: ``codes`` (90 signed piece codes indexed by square), side, counters."""

    codes: tuple[int, ...]
    turn: Color
    halfmove_clock: int
    fullmove_number: int


def parse_fen(text: str, *, check_position: bool = True) -> FenFields:
    """Parse a FEN string; raises :class:`InvalidFenError` saying what is wrong and where.

    With ``check_position=False`` a well-formed FEN of an impossible position (two red kings, a
    pawn behind its start …) is returned as it stands, for the position editor to mend.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidFenError(f"empty FEN: {_quoted(text) if isinstance(text, str) else repr(text)}")
    fields = text.split()
    placement = fields[0]
    ranks = placement.split("/")
    if len(ranks) != RANKS:
        raise InvalidFenError(f"FEN {_quoted(text)} has {len(ranks)} ranks, expected {RANKS}")
    codes = [0] * SQUARE_COUNT
    for row, rank_text in enumerate(ranks):
        rank = RANKS - 1 - row
        file = 0
        for ch in rank_text:
            if ch in _EMPTY_RUN:  # ASCII 1-9 only: '²' or '٣' is no count of empty squares
                file += int(ch)
                continue
            try:
                piece = Piece.from_symbol(ch)
            except ValueError:
                raise InvalidFenError(
                    f"FEN {_quoted(text)}: unknown piece letter {ch!r} in rank {rank} ({_quoted(rank_text)})") from None
            if file < FILES:
                codes[square(file, rank)] = piece.code
            file += 1
        if file != FILES:
            raise InvalidFenError(
                f"FEN {_quoted(text)}: rank {rank} ({_quoted(rank_text)}) has {_count_files(rank_text)} files, expected {FILES}")
    turn = RED
    rest = fields[1:]
    if rest:
        side = rest[0].lower()
        if side in ("w", "r", "red"):
            turn = RED
        elif side in ("b", "black"):
            turn = BLACK
        else:
            raise InvalidFenError(f"FEN {_quoted(text)}: side to move {_quoted(rest[0])} is not 'w' or 'b'")
        rest = rest[1:]
    numbers = [field for field in rest if field != "-"]
    counters = []
    for field in numbers[:2]:
        if not (field.isascii() and field.isdigit()):
            raise InvalidFenError(f"FEN {_quoted(text)}: move counter {_quoted(field)} is not a number")
        if len(field.lstrip("0")) > _MAX_COUNTER_DIGITS:
            raise InvalidFenError(f"FEN {_quoted(text)}: move counter {_quoted(field)} is too large")
        counters.append(int(field))
    halfmove = counters[0] if counters else 0
    fullmove = counters[1] if len(counters) > 1 else 1
    problems = find_position_problems(codes, turn) if check_position else []
    if problems:
        raise InvalidFenError(f"FEN {_quoted(text)}: " + "; ".join(problem.text for problem in problems))
    return FenFields(tuple(codes), turn, halfmove, max(fullmove, 1))


def _count_files(rank_text: str) -> int:
    return sum(int(ch) if ch in _EMPTY_RUN else 1 for ch in rank_text)


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
