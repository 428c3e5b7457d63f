"""Precomputed move geometry of the 90-square board, as numpy arrays for the compiled kernel.

Squares are ``rank * 9 + file`` exactly as in :mod:`xqdesk.squares` (rank 0 = Red's back rank).
Every table is padded with ``-1`` after its last entry. Index 0 of a colour axis is Red, 1 is Black.
The tables are pure functions of the board shape, so they are built once at import.
"""
from __future__ import annotations

import numpy as np

FILES = 9
RANKS = 10
SQUARES = FILES * RANKS

# Ray directions: +file, -file, +rank, -rank.
RAY_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
HORSE_STEPS = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _in_palace(file: int, rank: int) -> int:
    """0 for Red's palace, 1 for Black's, -1 outside both."""
    if not _on_board(file, rank):
        return -1
    if 3 <= file <= 5 and rank <= 2:
        return 0
    if 3 <= file <= 5 and rank >= 7:
        return 1
    return -1


def _half(rank: int) -> int:
    """0 on Red's side of the river, 1 on Black's."""
    return 0 if rank <= 4 else 1


def _build() -> dict[str, np.ndarray]:
    rays = np.full((SQUARES, 4, 10), -1, np.int16)
    king_steps = np.full((SQUARES, 4), -1, np.int16)
    advisor_steps = np.full((SQUARES, 4), -1, np.int16)
    elephant_steps = np.full((SQUARES, 4), -1, np.int16)
    elephant_eyes = np.full((SQUARES, 4), -1, np.int16)
    horse_steps = np.full((SQUARES, 8), -1, np.int16)
    horse_legs = np.full((SQUARES, 8), -1, np.int16)
    horse_attackers = np.full((SQUARES, 8), -1, np.int16)
    horse_attacker_legs = np.full((SQUARES, 8), -1, np.int16)
    pawn_steps = np.full((2, SQUARES, 3), -1, np.int16)
    pawn_attackers = np.full((2, SQUARES, 3), -1, np.int16)

    for sq in range(SQUARES):
        file, rank = sq % FILES, sq // FILES
        for d, (df, dr) in enumerate(RAY_STEPS):
            f, r, k = file + df, rank + dr, 0
            while _on_board(f, r):
                rays[sq, d, k] = r * FILES + f
                f, r, k = f + df, r + dr, k + 1
        palace = _in_palace(file, rank)
        if palace >= 0:
            n = 0
            for df, dr in RAY_STEPS:
                if _in_palace(file + df, rank + dr) == palace:
                    king_steps[sq, n] = (rank + dr) * FILES + file + df
                    n += 1
            n = 0
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if _in_palace(file + df, rank + dr) == palace:
                    advisor_steps[sq, n] = (rank + dr) * FILES + file + df
                    n += 1
        n = 0
        for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
            f, r = file + df, rank + dr
            if _on_board(f, r) and _half(r) == _half(rank):
                elephant_steps[sq, n] = r * FILES + f
                elephant_eyes[sq, n] = (rank + dr // 2) * FILES + file + df // 2
                n += 1
        n = 0
        for df, dr in HORSE_STEPS:
            f, r = file + df, rank + dr
            if _on_board(f, r):
                horse_steps[sq, n] = r * FILES + f
                leg = (rank + dr // 2) * FILES + file if abs(dr) == 2 else rank * FILES + file + df // 2
                horse_legs[sq, n] = leg
                n += 1
        for color, forward in ((0, 1), (1, -1)):
            n = 0
            if _on_board(file, rank + forward):
                pawn_steps[color, sq, n] = (rank + forward) * FILES + file
                n += 1
            crossed = _half(rank) != color
            if crossed:
                for df in (1, -1):
                    if _on_board(file + df, rank):
                        pawn_steps[color, sq, n] = rank * FILES + file + df
                        n += 1

    counts = np.zeros(SQUARES, np.int64)
    for sq in range(SQUARES):
        for n in range(8):
            target = horse_steps[sq, n]
            if target < 0:
                break
            horse_attackers[target, counts[target]] = sq
            horse_attacker_legs[target, counts[target]] = horse_legs[sq, n]
            counts[target] += 1
    for color in range(2):
        counts[:] = 0
        for sq in range(SQUARES):
            for n in range(3):
                target = pawn_steps[color, sq, n]
                if target < 0:
                    break
                pawn_attackers[color, target, counts[target]] = sq
                counts[target] += 1

    return {
        "rays": rays, "king_steps": king_steps, "advisor_steps": advisor_steps,
        "elephant_steps": elephant_steps, "elephant_eyes": elephant_eyes,
        "horse_steps": horse_steps, "horse_legs": horse_legs,
        "horse_attackers": horse_attackers, "horse_attacker_legs": horse_attacker_legs,
        "pawn_steps": pawn_steps, "pawn_attackers": pawn_attackers,
    }


_TABLES = _build()
RAYS = _TABLES["rays"]
KING_STEPS = _TABLES["king_steps"]
ADVISOR_STEPS = _TABLES["advisor_steps"]
ELEPHANT_STEPS = _TABLES["elephant_steps"]
ELEPHANT_EYES = _TABLES["elephant_eyes"]
HORSE_TARGETS = _TABLES["horse_steps"]
HORSE_LEGS = _TABLES["horse_legs"]
HORSE_ATTACKERS = _TABLES["horse_attackers"]
HORSE_ATTACKER_LEGS = _TABLES["horse_attacker_legs"]
PAWN_STEPS = _TABLES["pawn_steps"]
PAWN_ATTACKERS = _TABLES["pawn_attackers"]


def zobrist_keys(seed: int = 0x58514445) -> tuple[np.ndarray, np.uint64]:
    """Random 64-bit keys: one per (piece code + 7, square), and one for Black to move."""
    rng = np.random.default_rng(seed)
    pieces = rng.integers(0, np.iinfo(np.uint64).max, size=(15, SQUARES), dtype=np.uint64, endpoint=True)
    pieces[7, :] = 0  # code 0 = empty square
    side = rng.integers(1, np.iinfo(np.uint64).max, dtype=np.uint64, endpoint=True)
    return pieces, np.uint64(side)
