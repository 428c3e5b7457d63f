"""Zobrist keys: 64-bit position hashes, fixed across runs (seeded) so they can be stored."""
from __future__ import annotations

import random

from xqdesk.squares import SQUARE_COUNT

_rng = random.Random(0x58514465736B)  # fixed seed: keys are stable across runs and machines

PIECE_KEYS: dict[int, tuple[int, ...]] = {
    code: tuple(_rng.getrandbits(64) for _ in range(SQUARE_COUNT))
    for code in (-7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7)
}
"""``PIECE_KEYS[code][square]`` for every signed piece code."""

BLACK_TO_MOVE_KEY: int = _rng.getrandbits(64)


def hash_codes(codes: list[int] | tuple[int, ...], red_to_move: bool) -> int:
    """The key of a position from scratch (the board keeps it up to date incrementally)."""
    key = 0 if red_to_move else BLACK_TO_MOVE_KEY
    for sq, code in enumerate(codes):
        if code:
            key ^= PIECE_KEYS[code][sq]
    return key
