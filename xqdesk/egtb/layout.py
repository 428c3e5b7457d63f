"""The index of a table: how a position of a signature maps to a number and back.

A position is the two generals plus the signature's pieces ("slots": Red's pieces then Black's, in
the signature's order). Like pieces of a side form a *group* and are placed as an unordered set,
so ``AA`` on its 5 squares costs C(5, 2) = 10 entries, not 25. Every piece ranges only over the
squares it can stand on (:data:`xqdesk.egtb.geometry.DOMAINS`): generals and advisors in the
palace, elephants on their 7 points, pawns on their 55 squares.

Left-right symmetry: a position and its mirror image have the same value, so only positions
whose red general stands left of the middle file, or on it with the black general on or left of
it, are indexed (45 of the 81 pairs of general squares). Positions with both generals on the
middle file are indexed together with their mirror images (the mirror is its own entry).

The index is ``king_pair * king_stride + sum(rank_g * stride_g)`` where ``rank_g`` is the
colexicographic rank of group ``g``'s set of domain positions (combinatorial number system) and
the first group varies slowest. One table holds ``2 * size`` entries: Red to move, then Black.
"""
from __future__ import annotations

from itertools import combinations
from math import comb, prod

import numpy as np

from xqdesk.egtb.geometry import DOMAINS
from xqdesk.egtb.signature import Signature
from xqdesk.pieces import KING
from xqdesk.squares import FILES, SQUARE_COUNT

MAX_GROUP = 3
"""Most like pieces of one side a table indexes together."""
BINOMIAL = np.array([[comb(n, k) for k in range(MAX_GROUP + 1)] for n in range(SQUARE_COUNT + 1)], np.int64)

RED_PALACE = DOMAINS[KING]
BLACK_PALACE = DOMAINS[-KING]
MIDDLE_FILE = FILES // 2


def _canonical_kings(red_king: int, black_king: int) -> bool:
    red_file, black_file = red_king % FILES, black_king % FILES
    return red_file < MIDDLE_FILE or (red_file == MIDDLE_FILE and black_file <= MIDDLE_FILE)


KING_PAIRS = np.array([(r, b) for r in RED_PALACE for b in BLACK_PALACE if _canonical_kings(r, b)], np.int16)
"""The indexed ``(red general, black general)`` squares (45 pairs)."""
KING_PAIR_INDEX = np.full((SQUARE_COUNT, SQUARE_COUNT), -1, np.int64)
for _i, (_r, _b) in enumerate(KING_PAIRS):
    KING_PAIR_INDEX[_r, _b] = _i


def colex_rank(positions: tuple[int, ...]) -> int:
    """The rank of a sorted tuple of distinct domain positions in colexicographic order."""
    return sum(comb(p, i + 1) for i, p in enumerate(positions))


class Layout:
    """The index of one signature (in its stored orientation), as arrays for the compiled kernels.

    ``slot_codes[i]``: the signed piece code of slot ``i``. Group ``g`` covers slots
    ``group_first[g] .. group_first[g] + group_size[g] - 1``, ranges over ``group_count[g]`` sets,
    and contributes ``rank * group_stride[g]``. ``group_position[g, sq]`` is the square's position
    in the group's domain (-1 off the domain); ``group_sets[g, rank]`` lists a set's squares.
    """

    def __init__(self, signature: Signature) -> None:
        self.signature = signature
        codes = [t for t in signature.red] + [-t for t in signature.black]
        self.slot_codes = np.array(codes, np.int8)
        firsts: list[int] = []
        for i, code in enumerate(codes):
            if i == 0 or codes[i - 1] != code:
                firsts.append(i)
        sizes = [(firsts + [len(codes)])[g + 1] - firsts[g] for g in range(len(firsts))]
        if any(size > MAX_GROUP for size in sizes):
            raise ValueError(f"signature {signature.name()}: more than {MAX_GROUP} like pieces on one side "
                             "are not indexed")
        domains = [DOMAINS[codes[first]] for first in firsts]
        counts = [comb(len(domain), size) for domain, size in zip(domains, sizes)]
        groups = len(firsts)
        self.group_first = np.array(firsts, np.int64)
        self.group_size = np.array(sizes, np.int64)
        self.group_count = np.array(counts, np.int64)
        self.group_stride = np.array([prod(counts[g + 1:]) for g in range(groups)], np.int64)
        self.king_stride = int(prod(counts))
        self.size = len(KING_PAIRS) * self.king_stride
        """Entries per side to move."""
        self.group_position = np.full((max(groups, 1), SQUARE_COUNT), -1, np.int16)
        self.group_sets = np.full((max(groups, 1), max(counts, default=1), MAX_GROUP), -1, np.int16)
        for g, (domain, size) in enumerate(zip(domains, sizes)):
            for position, sq in enumerate(domain):
                self.group_position[g, sq] = position
            for chosen in combinations(range(len(domain)), size):
                self.group_sets[g, colex_rank(chosen), :size] = [domain[p] for p in chosen]
        self.group_total = groups

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
        """What the encoder needs: slot codes, group first/size/stride/position, king stride, groups."""
        return (self.slot_codes, self.group_first, self.group_size, self.group_stride, self.group_position,
                self.king_stride, self.group_total)
