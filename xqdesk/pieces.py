"""Colours, piece types and pieces.

A piece on the board is a signed int code, exactly as in the course: positive is Red, negative is
Black, 0 is empty; the absolute value is the piece type.
"""
from __future__ import annotations

from dataclasses import dataclass

Color = bool
RED: Color = True
BLACK: Color = False
COLORS: tuple[Color, Color] = (RED, BLACK)
COLOR_NAMES = {RED: "red", BLACK: "black"}

PieceType = int
PAWN: PieceType = 1
ADVISOR: PieceType = 2
ELEPHANT: PieceType = 3
HORSE: PieceType = 4
CANNON: PieceType = 5
CHARIOT: PieceType = 6
KING: PieceType = 7
PIECE_TYPES = (PAWN, ADVISOR, ELEPHANT, HORSE, CANNON, CHARIOT, KING)
PIECE_NAMES = {PAWN: "pawn", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
               CANNON: "cannon", CHARIOT: "chariot", KING: "king"}

# FEN letters (Red upper case). E and H are accepted on input as elephant and horse.
PIECE_SYMBOLS = {PAWN: "p", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", CANNON: "c", CHARIOT: "r", KING: "k"}
_SYMBOL_TYPES = {symbol: piece_type for piece_type, symbol in PIECE_SYMBOLS.items()}
_SYMBOL_TYPES.update({"e": ELEPHANT, "h": HORSE})


def color_name(color: Color) -> str:
    """``"red"`` or ``"black"``, as the course spells sides."""
    return COLOR_NAMES[color]


def side_name(color: Color) -> str:
    """``"Red"`` or ``"Black"``: the side's word in English texts (outcomes, prompts, errors)."""
    return "Red" if color == RED else "Black"


def parse_color(name: str) -> Color:
    """The colour for ``"red"``/``"black"`` (also ``"w"``/``"r"``/``"b"``); raises ValueError otherwise."""
    key = name.strip().lower()
    if key in ("red", "r", "w", "white"):
        return RED
    if key in ("black", "b"):
        return BLACK
    raise ValueError(f"not a side: {name!r} (expected 'red' or 'black')")


@dataclass(frozen=True)
class Piece:
    """A piece type of a colour."""

    piece_type: PieceType
    color: Color

    @property
    def code(self) -> int:
        """The course's signed code: positive for Red, negative for Black."""
        return self.piece_type if self.color else -self.piece_type

    def symbol(self) -> str:
        """The FEN letter: upper case for Red, lower case for Black."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color else letter

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece for a FEN letter (E/H accepted for elephant/horse); raises ValueError."""
        piece_type = _SYMBOL_TYPES.get(symbol.lower()) if len(symbol) == 1 else None
        if piece_type is None:
            raise ValueError(f"unknown piece letter {symbol!r}")
        return cls(piece_type, symbol.isupper())

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """The piece for a course code (±1 … ±7); raises ValueError for 0 or out of range."""
        if not 1 <= abs(code) <= 7:
            raise ValueError(f"not a piece code: {code!r}")
        return cls(abs(code), code > 0)

    def __str__(self) -> str:
        return self.symbol()
