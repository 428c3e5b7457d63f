"""What one side of a fog-of-war game sees: its own pieces and every square one of them could
move to now, nothing else.

A cannon sees the enemy piece it could capture but neither its screen nor the squares behind it; a
horse does not see past a blocked leg, an elephant past a blocked eye; a general sees the other
across an open file (it could capture it). An :class:`Observation` is plain immutable data built
from the board by :func:`observe`; it holds no reference to the board, so whoever receives one
learns nothing hidden.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.movegen import unchecked_moves
from xqdesk.pieces import KING, PIECE_TYPES, RED, Color, Piece, side_name
from xqdesk.squares import SQUARE_COUNT, square_name

Cells = tuple[Optional[int], ...]
"""90 entries indexed by square: a piece code, 0 for a square seen empty, None for an unseen one."""


def sight(codes: Sequence[int], side: Color) -> tuple[Cells, tuple[int, ...]]:
    """What ``side`` sees on the board of 90 piece ``codes``: the cells (see :data:`Cells`) and
    its moves, encoded ``from << 7 | to`` and sorted. The moves do not depend on whose turn it is."""
    own = [sq for sq, code in enumerate(codes) if code and (code > 0) == side]
    moves = sorted(unchecked_moves(list(codes), own, side))
    seen = set(own)
    seen.update(move & 127 for move in moves)
    return tuple(codes[sq] if sq in seen else None for sq in range(SQUARE_COUNT)), tuple(moves)


def material(codes: Sequence[int], color: Color) -> tuple[int, ...]:
    """How many pieces of each type ``color`` has: 8 counts indexed by piece type (index 0 unused)."""
    counts = [0] * 8
    for code in codes:
        if code and (code > 0) == color:
            counts[abs(code)] += 1
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Observation:
    """One side's view of a fog-of-war game after ``ply`` plies.

    ``side`` is the observer, ``turn`` the side to move. ``cells``: see :data:`Cells`.
    ``move_codes``: the observer's moves in this position (sorted ``from << 7 | to``), whose turn it
    is notwithstanding. ``enemy_material``: how many pieces of each type the other side still has
    (index = piece type; known from the captures). ``halfmove_clock``: plies since the last
    capture (both sides know it). ``last_move``: the move that led here when the observer played
    it, else None. ``taken``: the square where the opponent's move that led here took one of the
    observer's pieces (the taker stands there now), else None.
    """

    side: Color
    turn: Color
    cells: Cells
    move_codes: tuple[int, ...]
    enemy_material: tuple[int, ...]
    halfmove_clock: int
    ply: int
    last_move: Optional[Move] = None
    taken: Optional[int] = None

    def __post_init__(self) -> None:
        if len(self.cells) != SQUARE_COUNT:
            raise ValueError(f"an observation has {SQUARE_COUNT} cells, got {len(self.cells)}")
        if len(self.enemy_material) != 8:
            raise ValueError(f"enemy_material needs 8 counts (index = piece type), got {self.enemy_material!r}")

    @property
    def moves(self) -> tuple[Move, ...]:
        """The observer's moves in this position."""
        return tuple(Move(code >> 7, code & 127) for code in self.move_codes)

    @property
    def to_move(self) -> bool:
        """Whether it is the observer's turn."""
        return self.turn == self.side

    def is_seen(self, square: int) -> bool:
        return self.cells[square] is not None

    def seen_squares(self) -> list[int]:
        """The squares the observer sees, in square order."""
        return [sq for sq, cell in enumerate(self.cells) if cell is not None]

    def piece_at(self, square: int) -> Optional[Piece]:
        """The piece seen on ``square`` (None when it is seen empty); ValueError when unseen."""
        cell = self.cells[square]
        if cell is None:
            raise ValueError(f"square {square_name(square)} is not seen by {side_name(self.side)}")
        return Piece.from_code(cell) if cell else None

    def seen_enemy(self) -> dict[int, int]:
        """Squares -> codes of the enemy pieces in sight."""
        return {sq: cell for sq, cell in enumerate(self.cells) if cell and (cell > 0) != self.side}

    def hidden_enemy(self) -> tuple[int, ...]:
        """The codes of the enemy pieces out of sight (alive but not seen), by piece type."""
        sign = -1 if self.side == RED else 1
        seen = [0] * 8
        for cell in self.seen_enemy().values():
            seen[abs(cell)] += 1
        hidden: list[int] = []
        for piece_type in PIECE_TYPES:
            missing = self.enemy_material[piece_type] - seen[piece_type]
            if missing < 0:
                raise ValueError(f"observation shows {seen[piece_type]} enemy pieces of type {piece_type} "
                                 f"but the enemy has only {self.enemy_material[piece_type]}")
            hidden.extend([sign * piece_type] * missing)
        return tuple(hidden)

    def enemy_general_seen(self) -> bool:
        king = -KING if self.side == RED else KING
        return king in self.cells


def observe(board: Board, side: Color) -> Observation:
    """What ``side`` sees of ``board`` (the one place a view is made from a board)."""
    codes = [board.code_at(sq) for sq in range(SQUARE_COUNT)]
    cells, moves = sight(codes, side)
    stack = board.move_stack
    last = stack[-1] if stack and board.turn != side else None
    taken = stack[-1].to_square if stack and board.turn == side and board.captured_piece() else None
    return Observation(side=side, turn=board.turn, cells=cells, move_codes=moves,
                       enemy_material=material(codes, not side), halfmove_clock=board.halfmove_clock,
                       ply=len(stack), last_move=last, taken=taken)


def seen_square_names(observation: Observation) -> list[str]:
    """The ICCS names of the squares ``observation`` sees, sorted as text."""
    return sorted(square_name(sq) for sq in observation.seen_squares())


def diagram(observation: Observation) -> str:
    """The view as text, Black's back rank on top: FEN letters, ``.`` for a square seen empty, ``?``
    for an unseen one."""
    rows = []
    for rank in range(9, -1, -1):
        cells = []
        for file in range(9):
            cell = observation.cells[rank * 9 + file]
            cells.append("?" if cell is None else "." if cell == 0 else Piece.from_code(cell).symbol())
        rows.append(f"{rank} " + " ".join(cells))
    rows.append("  a b c d e f g h i")
    return "\n".join(rows)
