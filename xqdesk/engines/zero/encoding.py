"""What the ``zero`` network sees and what it answers: input planes and the fixed policy index.

**Frame.** Everything is seen from the side to move ("the mover"): for Black the board is turned
half a circle (square ``s`` becomes ``89 - s``), so the mover's pieces always start on ranks 0–4.

**Input planes** (:data:`PLANES` = 15, each 10 ranks × 9 files, stored ranks × files × planes):

- planes 0–6: the mover's pawns, advisors, elephants, horses, cannons, chariots, king (1 where one
  stands, else 0), in :mod:`xqdesk.pieces` type order;
- planes 7–13: the opponent's pieces in the same order;
- plane 14: all ones (lets the convolutions see the board's edge).

No history, repetition or clock planes: the course rules about repetition are left to the search.

**Policy index** (:data:`POLICY_SIZE` = 2086 entries): every move any piece could ever make on an
empty-enough board, as ``(from, to)`` square pairs in the mover's frame, sorted — every pair on a
common rank or file (chariot, cannon, king, pawn, the generals facing each other), every horse leap,
every elephant step between elephant squares on one side of the river and every advisor step in a
palace. A legal move maps to ``POLICY_INDEX[from_square * 90 + to_square]`` of its frame's squares.
Mirroring left–right (file ``f`` becomes ``8 - f``) permutes the index: :data:`MIRROR_PERMUTATION`.
"""
from __future__ import annotations

import numpy as np

from xqdesk.squares import FILES, RANKS, SQUARE_COUNT

PLANES = 15
ONES_PLANE = 14

_HORSE_LEAPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_ELEPHANT_SQUARES = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
"""(file, rank) on Red's side; Black's are the same turned over."""
_PALACE_CENTRES = {(4, 1), (4, 8)}


def _square(file: int, rank: int) -> int:
    return rank * FILES + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _in_palace(file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (0 <= rank <= 2 or 7 <= rank <= 9)


def _is_elephant_square(file: int, rank: int) -> bool:
    return (file, rank) in _ELEPHANT_SQUARES or (file, RANKS - 1 - rank) in _ELEPHANT_SQUARES


def _all_moves() -> list[tuple[int, int]]:
    moves: set[tuple[int, int]] = set()
    for rank in range(RANKS):
        for file in range(FILES):
            origin = _square(file, rank)
            for other in range(FILES):
                if other != file:
                    moves.add((origin, _square(other, rank)))
            for other in range(RANKS):
                if other != rank:
                    moves.add((origin, _square(file, other)))
            for df, dr in _HORSE_LEAPS:
                if _on_board(file + df, rank + dr):
                    moves.add((origin, _square(file + df, rank + dr)))
            for df in (-1, 1):
                for dr in (-1, 1):
                    touches_centre = (file, rank) in _PALACE_CENTRES or (file + df, rank + dr) in _PALACE_CENTRES
                    if touches_centre and _in_palace(file, rank) and _in_palace(file + df, rank + dr):
                        moves.add((origin, _square(file + df, rank + dr)))
                    f2, r2 = file + 2 * df, rank + 2 * dr
                    if (_on_board(f2, r2) and _is_elephant_square(file, rank) and _is_elephant_square(f2, r2)
                            and (rank <= 4) == (r2 <= 4)):
                        moves.add((origin, _square(f2, r2)))
    return sorted(moves)


POLICY_MOVES: tuple[tuple[int, int], ...] = tuple(_all_moves())
"""Policy entry ``i`` is the move ``POLICY_MOVES[i]`` = (from, to) in the mover's frame."""
POLICY_SIZE = len(POLICY_MOVES)

POLICY_INDEX = np.full(SQUARE_COUNT * SQUARE_COUNT, -1, dtype=np.int64)
"""``from * 90 + to`` (mover's frame) -> policy entry, -1 for pairs no piece can ever play."""
for _i, (_a, _b) in enumerate(POLICY_MOVES):
    POLICY_INDEX[_a * SQUARE_COUNT + _b] = _i

ROTATED_POLICY_INDEX = np.full(SQUARE_COUNT * SQUARE_COUNT, -1, dtype=np.int64)
"""The same for Black's moves given in board squares: ``from * 90 + to`` -> entry of the rotated move."""
for _i, (_a, _b) in enumerate(POLICY_MOVES):
    ROTATED_POLICY_INDEX[(SQUARE_COUNT - 1 - _a) * SQUARE_COUNT + (SQUARE_COUNT - 1 - _b)] = _i


def mirror_square(square: int) -> int:
    """The square seen in a mirror between the files (file ``f`` -> ``8 - f``)."""
    return (square // FILES) * FILES + (FILES - 1 - square % FILES)


MIRROR_SQUARES = np.array([mirror_square(sq) for sq in range(SQUARE_COUNT)], dtype=np.int64)
MIRROR_PERMUTATION = np.array([POLICY_INDEX[mirror_square(a) * SQUARE_COUNT + mirror_square(b)]
                               for a, b in POLICY_MOVES], dtype=np.int64)
"""``policy[MIRROR_PERMUTATION]`` is the policy of the mirrored position. Mirroring twice changes
nothing, so the permutation is its own inverse: the same indexing maps the mirror's policy back."""

_PLANE_TABLE = np.zeros((15, PLANES), dtype=np.float32)
"""Row ``code + 7`` (a mover-frame piece code) -> that square's plane values."""
for _code in range(-7, 8):
    if _code > 0:
        _PLANE_TABLE[_code + 7, _code - 1] = 1.0
    elif _code < 0:
        _PLANE_TABLE[_code + 7, 7 - _code - 1] = 1.0
    _PLANE_TABLE[_code + 7, ONES_PLANE] = 1.0
PLANE_TABLE = _PLANE_TABLE


def mover_codes(board: np.ndarray, red_to_move: bool) -> np.ndarray:
    """The 90 signed codes in the mover's frame (the mover's pieces positive), as int8."""
    codes = np.asarray(board, dtype=np.int8)
    return codes.copy() if red_to_move else (-codes[::-1]).astype(np.int8)


def planes_from_codes(codes: np.ndarray) -> np.ndarray:
    """Input planes (..., 10, 9, 15) float32 from mover-frame codes (..., 90)."""
    codes = np.asarray(codes, dtype=np.int64)
    return PLANE_TABLE[codes + 7].reshape(codes.shape[:-1] + (RANKS, FILES, PLANES))


def policy_index(from_square: int, to_square: int, red_to_move: bool) -> int:
    """The policy entry of a move given in board squares; ValueError for an impossible pair."""
    table = POLICY_INDEX if red_to_move else ROTATED_POLICY_INDEX
    index = int(table[from_square * SQUARE_COUNT + to_square])
    if index < 0:
        raise ValueError(f"no piece can move from square {from_square} to {to_square}")
    return index


def policy_move(index: int, red_to_move: bool) -> tuple[int, int]:
    """The (from, to) board squares of policy entry ``index`` for the side to move."""
    if not 0 <= index < POLICY_SIZE:
        raise ValueError(f"policy entry {index} is outside 0..{POLICY_SIZE - 1}")
    a, b = POLICY_MOVES[index]
    return (a, b) if red_to_move else (SQUARE_COUNT - 1 - a, SQUARE_COUNT - 1 - b)


def mirror_codes(codes: np.ndarray) -> np.ndarray:
    """Mover-frame codes (..., 90) seen in the mirror between the files."""
    return np.asarray(codes)[..., MIRROR_SQUARES]


def mirror_policy(policy: np.ndarray) -> np.ndarray:
    """Policy entries (..., POLICY_SIZE) of a position as those of its mirror image, and so also
    the mirror image's entries as the position's own (see :data:`MIRROR_PERMUTATION`)."""
    return np.asarray(policy)[..., MIRROR_PERMUTATION]
