"""The endgame tables a search's captures can lead into, packed for the compiled probe
(:mod:`xqdesk.engines.builtin.table_kernel` describes the arrays)."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Iterable, Optional

import numpy as np

from xqdesk.egtb import MissingTableError, Tablebase
from xqdesk.egtb.fileformat import TableFileError
from xqdesk.egtb.signature import Signature
from xqdesk.engines.builtin import table_kernel as tk
from xqdesk.pieces import KING

MAX_ROOT_PIECES = 8
"""Roots with more pieces besides the generals are searched without tables (their captures rarely
reach a table within a search, and the smaller balances are many)."""
MAX_VALUES = 64 * 1024 * 1024
"""Most table entries (both sides to move, all tables) a search packs: 128 MB."""


@dataclass(frozen=True)
class TreeTables:
    """The packed tables (see :mod:`~xqdesk.engines.builtin.table_kernel`); no rows: none."""

    meta: np.ndarray
    positions: np.ndarray
    values: np.ndarray

    @property
    def signatures(self) -> int:
        """How many material balances (as they can stand on the board) the tables cover."""
        return len(self.meta)


NO_TABLES = TreeTables(np.zeros((0, tk.META_WIDTH), np.int64), np.zeros((0, 90), np.int16), np.zeros(0, np.uint16))


def _sub_multisets(pieces: tuple[int, ...]) -> set[tuple[int, ...]]:
    counts = {t: pieces.count(t) for t in set(pieces)}
    kinds = sorted(counts)
    return {tuple(t for t, n in zip(kinds, chosen) for _ in range(n))
            for chosen in product(*(range(counts[t] + 1) for t in kinds))}


def _key(red: Iterable[int], black: Iterable[int]) -> int:
    key = 0
    for piece_type in red:
        key += 1 << (tk.KEY_BITS * (piece_type - 1))
    for piece_type in black:
        key += 1 << (tk.KEY_BITS * (5 + piece_type))
    return key


def pack_tree_tables(tablebase: Tablebase, codes: Iterable[int]) -> TreeTables:
    """The tables of every material balance smaller than the position's (``codes``: its 90 square
    codes) that ``tablebase`` holds; :data:`NO_TABLES` for a root with more than
    :data:`MAX_ROOT_PIECES` pieces besides the generals. A table that cannot be read is left out."""
    pieces = [code for code in codes if code and abs(code) != KING]
    if len(pieces) > MAX_ROOT_PIECES:
        return NO_TABLES
    red = tuple(code for code in pieces if code > 0)
    black = tuple(-code for code in pieces if code < 0)
    root = Signature(red, black)
    rows: list[np.ndarray] = []
    position_rows: list[np.ndarray] = []
    chunks: list[np.ndarray] = []
    offsets: dict[str, int] = {}
    total = 0
    for red_part, black_part in sorted(product(_sub_multisets(red), _sub_multisets(black))):
        signature = Signature(red_part, black_part)
        if signature == root:
            continue
        stored, flip = signature.canonical()
        if not tablebase.has_table(stored):
            continue
        try:
            layout, values = tablebase.table_arrays(stored)
        except (MissingTableError, TableFileError, ValueError):
            continue
        groups, slots = len(layout.group_first), len(layout.slot_codes)
        if groups > tk.MAX_GROUPS or slots > tk.MAX_SLOTS:
            continue
        if stored.name() not in offsets:
            if total + values.size > MAX_VALUES:
                continue
            offsets[stored.name()] = total
            chunks.append(values.reshape(-1))
            total += values.size
        row = np.zeros(tk.META_WIDTH, np.int64)
        row[tk.META_KEY] = _key(signature.red, signature.black)
        row[tk.META_FLIP] = 1 if flip else 0
        row[tk.META_OFFSET] = offsets[stored.name()]
        row[tk.META_ENTRIES] = layout.size
        row[tk.META_KING_STRIDE] = layout.king_stride
        row[tk.META_GROUPS] = groups
        row[tk.META_SLOTS] = slots
        row[tk.META_GROUP_FIRST:tk.META_GROUP_FIRST + groups] = layout.group_first
        row[tk.META_GROUP_SIZE:tk.META_GROUP_SIZE + groups] = layout.group_size
        row[tk.META_GROUP_STRIDE:tk.META_GROUP_STRIDE + groups] = layout.group_stride
        row[tk.META_SLOT_CODES:tk.META_SLOT_CODES + slots] = layout.slot_codes
        rows.append(row)
        block = np.full((tk.MAX_GROUPS, 90), -1, np.int16)
        block[:groups] = layout.group_position[:groups]
        position_rows.append(block)
    if not rows:
        return NO_TABLES
    return TreeTables(np.array(rows, np.int64), np.concatenate(position_rows), np.concatenate(chunks))


class TreeTablesCache:
    """The packed tables of the last few root material balances (packing reads and copies tables)."""

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._made: dict[tuple[int, ...], TreeTables] = {}
        self._tablebase: Optional[Tablebase] = None

    def for_position(self, tablebase: Optional[Tablebase], codes: list[int]) -> TreeTables:
        if tablebase is None:
            return NO_TABLES
        if tablebase is not self._tablebase:
            self._made.clear()
            self._tablebase = tablebase
        material = tuple(sorted(code for code in codes if code and abs(code) != KING))
        if len(material) > MAX_ROOT_PIECES:
            return NO_TABLES
        tables = self._made.get(material)
        if tables is None:
            tables = pack_tree_tables(tablebase, codes)
            if len(self._made) >= self._size:
                self._made.pop(next(iter(self._made)))
            self._made[material] = tables
        return tables
