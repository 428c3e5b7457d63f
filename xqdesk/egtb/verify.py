"""Independent checks of a table against the core rules (:class:`xqdesk.board.Board`).

For a position, the table's value must equal the best value over the position's legal moves
(looked up in the tables again): mated in 0 with no legal move, otherwise one ply more than the
best child. Entries marked "no such position" must really be impossible.
"""
from __future__ import annotations

import random
from typing import Iterator, Optional

from xqdesk.board import Board
from xqdesk.egtb import kernels
from xqdesk.egtb.layout import KING_PAIRS, Layout
from xqdesk.egtb.probe import Tablebase
from xqdesk.egtb.signature import Signature
from xqdesk.errors import InvalidFenError
from xqdesk.fen import format_fen
from xqdesk.pieces import BLACK, KING, RED
from xqdesk.squares import SQUARE_COUNT


def entry_fen(layout: Layout, index: int, side: int) -> Optional[str]:
    """The FEN of entry ``index`` (side 0 Red to move), or None when pieces share a square."""
    pair, rest = divmod(index, layout.king_stride)
    codes = [0] * SQUARE_COUNT
    codes[int(KING_PAIRS[pair, 0])] = KING
    codes[int(KING_PAIRS[pair, 1])] = -KING
    for g in range(layout.group_total):
        rank, rest = divmod(rest, int(layout.group_stride[g]))
        first = int(layout.group_first[g])
        for i in range(int(layout.group_size[g])):
            sq = int(layout.group_sets[g, rank, i])
            if codes[sq]:
                return None
            codes[sq] = int(layout.slot_codes[first + i])
    return format_fen(codes, RED if side == 0 else BLACK, 0, 1)


def entries(signature: Signature, sample: Optional[int] = None, seed: int = 1) -> Iterator[tuple[int, int]]:
    """``(index, side)`` of every entry of a table, or of ``sample`` entries drawn at random."""
    layout = Layout(signature)
    if sample is None or sample >= 2 * layout.size:
        for side in (0, 1):
            for index in range(layout.size):
                yield index, side
        return
    rng = random.Random(seed)
    for _ in range(sample):
        yield rng.randrange(layout.size), rng.randrange(2)


def check_entry(tablebase: Tablebase, layout: Layout, index: int, side: int) -> Optional[str]:
    """None when entry ``(index, side)`` agrees with its children, else what is wrong."""
    code = int(tablebase._table(layout.signature.name(), "").values[side, index])
    fen = entry_fen(layout, index, side)
    board: Optional[Board] = None
    if fen is not None:
        try:
            board = Board(fen)
        except InvalidFenError:
            board = None
    if board is None:
        return None if code == kernels.ILLEGAL else f"entry {index}/{side} ({fen}) is impossible but has code {code}"
    if code == kernels.ILLEGAL:
        return f"{fen}: a legal position marked impossible"
    value = tablebase.probe(board)
    moves = tablebase.best_moves(board)
    if not moves:
        return None if value.dtm == 0 else f"{fen}: no legal move but the table says {value}"
    best = moves[0][1]
    if best != value:
        return f"{fen}: the table says {value} but the best move {moves[0][0].iccs()} gives {best}"
    return None


def check_table(tablebase: Tablebase, signature: Signature, sample: Optional[int] = None,
                seed: int = 1) -> tuple[int, list[str]]:
    """Check every entry (or a random ``sample``); return how many were checked and the faults."""
    layout = Layout(signature)
    faults: list[str] = []
    checked = 0
    for index, side in entries(signature, sample, seed):
        fault = check_entry(tablebase, layout, index, side)
        checked += 1
        if fault:
            faults.append(fault)
    return checked, faults
