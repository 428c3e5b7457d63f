"""Squares: plain ints ``rank * 9 + file``.

Files 0..8 are ICCS ``a``..``i`` (left to right from Red's seat); ranks 0..9 with rank 0 on Red's
back rank, as in ICCS, FEN and Pikafish's UCI. This module holds the only mapping to the course's
``(x, y)`` coordinates (x = row 0..9 from Black's side, y = column 0..8).
"""
from __future__ import annotations

FILES = 9
RANKS = 10
SQUARE_COUNT = FILES * RANKS
FILE_NAMES = "abcdefghi"

Square = int


def square(file: int, rank: int) -> Square:
    """The square on ``file`` (0..8) and ``rank`` (0..9)."""
    return rank * FILES + file


def square_file(sq: Square) -> int:
    return sq % FILES


def square_rank(sq: Square) -> int:
    return sq // FILES


SQUARE_NAMES = [FILE_NAMES[f] + str(r) for r in range(RANKS) for f in range(FILES)]
_NAME_TO_SQUARE = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square_name(sq: Square) -> str:
    """ICCS name, e.g. ``'e0'`` for Red's king square."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square for an ICCS name like ``'e0'`` (case-insensitive); raises ValueError."""
    sq = _NAME_TO_SQUARE.get(name.strip().lower())
    if sq is None:
        raise ValueError(f"not a square: {name!r} (expected a file a-i and a rank 0-9, like 'e0')")
    return sq


def from_course(x: int, y: int) -> Square:
    """The square for the course's row ``x`` (0 = Black's back rank) and column ``y``."""
    if not (0 <= x < RANKS and 0 <= y < FILES):
        raise ValueError(f"course coordinates out of range: ({x!r}, {y!r})")
    return (9 - x) * FILES + y


def to_course(sq: Square) -> tuple[int, int]:
    """The course's ``(x, y)`` for a square."""
    return 9 - sq // FILES, sq % FILES
