"""Position keys that join a position with its left–right mirror image.

A Xiangqi position and its mirror (file ``a`` swapped with ``i``, ``b`` with ``h`` …) are the same
position for a player: an opening index stores both under one *canonical key*, the smaller of the
two Zobrist keys (see :mod:`xqdesk.zobrist`). A move is stored as seen from the canonical side:
mirrored when the position was. A position that is its own mirror (the start position, for one)
keeps its moves as played, so ``h2e2`` and ``b2e2`` stay apart there — they lead to mirror
positions, which are joined one ply later.
"""
from __future__ import annotations

from dataclasses import dataclass

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.squares import FILES, SQUARE_COUNT, Square
from xqdesk.zobrist import BLACK_TO_MOVE_KEY, PIECE_KEYS

MIRROR_SQUARE: tuple[Square, ...] = tuple((sq // FILES) * FILES + (FILES - 1 - sq % FILES)
                                          for sq in range(SQUARE_COUNT))
"""``MIRROR_SQUARE[sq]``: the square on the same rank, mirrored file (``a0`` ↔ ``i0``)."""


def mirror_move(move: Move) -> Move:
    """The left–right mirror image of ``move`` (``h2e2`` → ``b2e2``)."""
    return Move(MIRROR_SQUARE[move.from_square], MIRROR_SQUARE[move.to_square])


def mirror_key(board: Board) -> int:
    """The Zobrist key of ``board``'s mirror image, computed from scratch."""
    key = 0 if board.turn else BLACK_TO_MOVE_KEY
    for sq in range(SQUARE_COUNT):
        code = board.code_at(sq)
        if code:
            key ^= PIECE_KEYS[code][MIRROR_SQUARE[sq]]
    return key


@dataclass(frozen=True)
class CanonicalKey:
    """A position's canonical key and whether the position is the mirror of the canonical one
    (then its moves are mirrored on the way in and out of an index)."""

    key: int
    mirrored: bool

    def to_index(self, move: Move) -> Move:
        """A move played in the position, as the index stores it."""
        return mirror_move(move) if self.mirrored else move

    def from_index(self, move: Move) -> Move:
        """A move stored in the index, as played in the position."""
        return mirror_move(move) if self.mirrored else move


def canonical(key: int, mirrored_key: int) -> CanonicalKey:
    """The canonical key of a position whose own key is ``key`` and whose mirror's is ``mirrored_key``."""
    if mirrored_key < key:
        return CanonicalKey(mirrored_key, True)
    return CanonicalKey(key, False)


def canonical_key(board: Board) -> CanonicalKey:
    """The canonical key of ``board``'s position."""
    return canonical(board.zobrist_hash(), mirror_key(board))


class KeyedReplay:
    """Plays moves on a board and keeps the mirror image's key up to date incrementally, so every
    position of a game gets its canonical key cheaply. Moves are pushed unchecked."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._mirror = mirror_key(board)

    def key(self) -> CanonicalKey:
        return canonical(self.board.zobrist_hash(), self._mirror)

    def push(self, move: Move) -> None:
        board = self.board
        piece = board.code_at(move.from_square)
        captured = board.code_at(move.to_square)
        keys = PIECE_KEYS[piece]
        origin, target = MIRROR_SQUARE[move.from_square], MIRROR_SQUARE[move.to_square]
        mirrored = self._mirror ^ keys[origin] ^ keys[target] ^ BLACK_TO_MOVE_KEY
        if captured:
            mirrored ^= PIECE_KEYS[captured][target]
        self._mirror = mirrored
        board.push(move)
