"""Reading tables: the value of a position and its best moves.

:class:`Tablebase` looks in one directory of ``*.xqtb`` files (see :mod:`xqdesk.egtb.fileformat`);
a table is read from disk the first time a position needs it and then kept.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from xqdesk.board import Board
from xqdesk.egtb import kernels
from xqdesk.egtb.fileformat import SUFFIX, TableFileError, TableHeader, read_header, read_values, table_path
from xqdesk.egtb.geometry import FLIP
from xqdesk.egtb.layout import MAX_GROUP, Layout
from xqdesk.egtb.signature import LETTERS, Signature
from xqdesk.move import Move
from xqdesk.pieces import KING, RED
from xqdesk.squares import SQUARE_COUNT


class MissingTableError(LookupError):
    """No table in the directory covers a position; ``signature`` names the one it needs."""

    def __init__(self, signature: str, directory: Path, fen: str) -> None:
        super().__init__(f"no table {signature} in {directory} for position {fen!r} "
                         f"(build it with: xqdesk egtb build {signature} --out {directory})")
        self.signature = signature


@dataclass(frozen=True, order=True)
class TableValue:
    """A position's value for the side to move: ``dtm`` plies to mate (odd: it mates, even: it is
    mated, 0: it has no legal move), or ``None`` for a draw."""

    dtm: Optional[int]

    @property
    def is_win(self) -> bool:
        return self.dtm is not None and self.dtm % 2 == 1

    @property
    def is_loss(self) -> bool:
        return self.dtm is not None and self.dtm % 2 == 0

    @property
    def is_draw(self) -> bool:
        return self.dtm is None

    def text(self) -> str:
        """``win in N``, ``loss in N`` (plies to mate) or ``draw``."""
        if self.dtm is None:
            return "draw"
        return f"{'win' if self.is_win else 'loss'} in {self.dtm}"

    def before_move(self) -> TableValue:
        """The value, for the side that moved, of a move reaching a position of this value."""
        return TableValue(None if self.dtm is None else self.dtm + 1)

    def preference(self) -> tuple[int, int]:
        """Sort key, smallest best for the side to move: fastest win, then draw, then slowest loss."""
        if self.dtm is None:
            return (1, 0)
        return (0, self.dtm) if self.is_win else (2, -self.dtm)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class _Table:
    layout: Layout
    values: np.ndarray


class Tablebase:
    """The tables in ``directory``, read lazily. Safe to share between threads."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise FileNotFoundError(f"tablebase directory {str(self.directory)!r} does not exist")
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()

    def signatures(self) -> list[str]:
        """The signatures with a table file in the directory, sorted."""
        return sorted(p.name[:-len(SUFFIX)] for p in self.directory.glob("*" + SUFFIX) if p.is_file())

    def header(self, signature: str) -> TableHeader:
        """The header of a table (see :mod:`xqdesk.egtb.fileformat`)."""
        return read_header(table_path(self.directory, signature))

    @staticmethod
    def signature_of(board: Board) -> Signature:
        """The material on ``board`` as a signature (Red's pieces, then Black's)."""
        red: list[int] = []
        black: list[int] = []
        for sq in range(SQUARE_COUNT):
            code = board.code_at(sq)
            if code and abs(code) != KING:
                (red if code > 0 else black).append(abs(code))
        return Signature(tuple(red), tuple(black))

    def covers(self, board: Board) -> bool:
        """Whether a table in the directory holds ``board``'s position."""
        signature = self.signature_of(board)
        if any(signature.red.count(t) > MAX_GROUP or signature.black.count(t) > MAX_GROUP for t in LETTERS):
            return False
        return table_path(self.directory, signature.canonical()[0].name()).is_file()

    def _table(self, name: str, fen: str) -> _Table:
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                path = table_path(self.directory, name)
                if not path.exists():
                    raise MissingTableError(name, self.directory, fen)
                layout = Layout(Signature.parse(name))
                header, values = read_values(path, expected_entries=layout.size)
                if header.signature != name:
                    raise TableFileError(f"{path}: holds {header.signature}, not {name}")
                table = self._tables[name] = _Table(layout, values)
            return table

    def has_table(self, signature: Signature) -> bool:
        """Whether the directory holds the table of ``signature`` (in its stored orientation)."""
        return table_path(self.directory, signature.name()).exists()

    def table_arrays(self, signature: Signature) -> tuple[Layout, np.ndarray]:
        """The index layout and values (``uint16[2, entries]``) of the table of ``signature`` (in its
        stored orientation), read once; raises MissingTableError or TableFileError."""
        table = self._table(signature.name(), signature.name())
        return table.layout, table.values

    def probe(self, board: Board) -> TableValue:
        """The value of ``board``'s position for the side to move; raises MissingTableError when
        no table in the directory covers it."""
        signature, flip = self.signature_of(board).canonical()
        table = self._table(signature.name(), board.fen())
        layout = table.layout
        slots = len(layout.slot_codes)
        squares = np.zeros(max(slots, 1), np.int16)
        filled = [0] * len(layout.group_first)
        red_king = black_king = -1
        for sq in range(SQUARE_COUNT):
            code = board.code_at(sq)
            if not code:
                continue
            if flip:
                code, sq = -code, int(FLIP[sq])
            if code == KING:
                red_king = sq
            elif code == -KING:
                black_king = sq
            else:
                g = next(g for g, first in enumerate(layout.group_first) if layout.slot_codes[first] == code)
                squares[layout.group_first[g] + filled[g]] = sq
                filled[g] += 1
        index = kernels.encode(red_king, black_king, squares, layout.group_first, layout.group_size,
                               layout.group_stride, layout.group_position, layout.king_stride, layout.group_total)
        side = (0 if board.turn == RED else 1) ^ (1 if flip else 0)
        code = int(table.values[side, index]) if index >= 0 else kernels.ILLEGAL
        if code == kernels.ILLEGAL:
            raise ValueError(f"position {board.fen()!r} is not a legal position of {signature.name()}")
        return TableValue(None if code == kernels.DRAW else code - kernels.DTM_BASE)

    def best_moves(self, board: Board) -> list[tuple[Move, TableValue]]:
        """Every legal move with its value for the side to move, best first (fastest win, then
        draws, then slowest loss; ties in ICCS order)."""
        scored: list[tuple[Move, TableValue]] = []
        child = board.copy()
        for move in list(board.legal_moves):
            child.push(move)
            try:
                scored.append((move, self.probe(child).before_move()))
            finally:
                child.pop()
        scored.sort(key=lambda item: (item[1].preference(), item[0].iccs()))
        return scored
