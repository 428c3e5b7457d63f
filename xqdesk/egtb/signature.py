"""Material signatures: which pieces a table holds, named by FEN letters.

A signature lists Red's pieces then Black's, each side starting with its general: ``KRKAABB`` is a
red chariot against two black advisors and two elephants. Within a side the pieces are written
strongest first in the order ``R H C P A B`` (chariot, horse, cannon, pawn, advisor, elephant); on
input ``N`` and ``E`` are read as horse and elephant and letters may be in any case.

A table is stored once per material balance: the *canonical* orientation puts the stronger side as
Red (its attacking pieces R H C P compared strongest first, then its advisors and elephants); a position with the colours the other
way round is probed with the board turned upside down and the colours swapped.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from xqdesk.errors import InputError
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, PAWN

PIECE_ORDER = (CHARIOT, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT)
"""Piece types, strongest first: the order pieces are written and compared in."""
LETTERS = {CHARIOT: "R", HORSE: "H", CANNON: "C", PAWN: "P", ADVISOR: "A", ELEPHANT: "B"}
_READ = {"R": CHARIOT, "H": HORSE, "N": HORSE, "C": CANNON, "P": PAWN, "A": ADVISOR, "B": ELEPHANT, "E": ELEPHANT}
_RANK = {piece_type: rank for rank, piece_type in enumerate(PIECE_ORDER)}
MAX_LIKE_PIECES = {CHARIOT: 2, HORSE: 2, CANNON: 2, PAWN: 5, ADVISOR: 2, ELEPHANT: 2}
"""How many pieces of a type one side can have."""


class SignatureError(InputError):
    """A signature text that does not name a material balance."""


def _sorted(types: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(sorted(types, key=_RANK.__getitem__))


@dataclass(frozen=True)
class Signature:
    """The pieces besides the generals: ``red`` and ``black`` piece types, strongest first."""

    red: tuple[int, ...]
    black: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "red", _sorted(self.red))
        object.__setattr__(self, "black", _sorted(self.black))

    @classmethod
    def parse(cls, text: str) -> Signature:
        """Read ``KRKAABB`` (also ``krkaabb``, ``KNKAA``, ``KRKAAEE``); raises SignatureError."""
        cleaned = text.strip().upper()
        if cleaned.count("K") != 2 or not cleaned.startswith("K"):
            raise SignatureError(f"signature {text!r}: expected two generals, like 'KRKAABB' "
                                 "(Red's general and pieces, then Black's)")
        split = cleaned.index("K", 1)
        sides = cleaned[1:split], cleaned[split + 1:]
        parsed: list[list[int]] = [[], []]
        for side, letters in enumerate(sides):
            for letter in letters:
                if letter not in _READ:
                    raise SignatureError(f"signature {text!r}: unknown piece letter {letter!r} "
                                         "(expected R, H/N, C, P, A, B/E)")
                parsed[side].append(_READ[letter])
            for piece_type, limit in MAX_LIKE_PIECES.items():
                if parsed[side].count(piece_type) > limit:
                    raise SignatureError(f"signature {text!r}: more than {limit} "
                                         f"{LETTERS[piece_type]} on one side")
        return cls(tuple(parsed[0]), tuple(parsed[1]))

    def name(self) -> str:
        """``KRKAABB``: Red's general and pieces, then Black's."""
        return "K" + "".join(LETTERS[t] for t in self.red) + "K" + "".join(LETTERS[t] for t in self.black)

    def __str__(self) -> str:
        return self.name()

    def piece_count(self) -> int:
        """Pieces besides the two generals."""
        return len(self.red) + len(self.black)

    def flipped(self) -> Signature:
        """The same material with the colours swapped."""
        return Signature(self.black, self.red)

    def is_canonical(self) -> bool:
        """Whether this orientation is the one tables are stored in (the stronger side is Red)."""
        return _strength_key(self.red) >= _strength_key(self.black)

    def canonical(self) -> tuple[Signature, bool]:
        """The stored orientation, and whether it is this one with the colours swapped."""
        return (self, False) if self.is_canonical() else (self.flipped(), True)

    def captures(self) -> list[Signature]:
        """The canonical signatures one capture leads to, each once, in a fixed order."""
        found: list[Signature] = []
        for side in (0, 1):
            pieces = (self.red, self.black)[side]
            for piece_type in dict.fromkeys(pieces):
                rest = list(pieces)
                rest.remove(piece_type)
                smaller = Signature(tuple(rest), self.black) if side == 0 else Signature(self.red, tuple(rest))
                canonical = smaller.canonical()[0]
                if canonical not in found:
                    found.append(canonical)
        return found


ATTACKERS = (CHARIOT, HORSE, CANNON, PAWN)
"""Pieces that can cross the river; advisors and elephants only defend."""


def _strength_key(pieces: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    # The attacking pieces first (stronger and more of them is greater), then the defenders;
    # two sides compare equal only when they hold the same pieces.
    strengths = [len(PIECE_ORDER) - _RANK[t] for t in pieces]
    return (tuple(s for s, t in zip(strengths, pieces) if t in ATTACKERS),
            tuple(s for s, t in zip(strengths, pieces) if t not in ATTACKERS))


def all_signatures(max_pieces: int) -> list[Signature]:
    """Every canonical signature with at most ``max_pieces`` pieces besides the generals,
    smallest first."""
    found: list[Signature] = []
    for total in range(max_pieces + 1):
        for red_count in range(total + 1):
            for red in combinations_with_replacement(PIECE_ORDER, red_count):
                for black in combinations_with_replacement(PIECE_ORDER, total - red_count):
                    signature = Signature(red, black)
                    if any(red.count(t) > MAX_LIKE_PIECES[t] or black.count(t) > MAX_LIKE_PIECES[t]
                           for t in PIECE_ORDER):
                        continue
                    canonical = signature.canonical()[0]
                    if canonical not in found:
                        found.append(canonical)
    return found


def build_order(signatures: list[Signature]) -> list[Signature]:
    """The canonical signatures to build so that every capture target is built before the table
    that needs it: each requested signature with everything it captures into, smallest first."""
    needed: dict[str, Signature] = {}

    def visit(signature: Signature) -> None:
        canonical = signature.canonical()[0]
        if canonical.name() in needed:
            return
        for smaller in canonical.captures():
            visit(smaller)
        needed[canonical.name()] = canonical

    for signature in signatures:
        visit(signature)
    return list(needed.values())
