"""The built-in engine's transposition table, compiled: an int64 array of two words per entry
(a row: the position's key XOR the entry's data, then the data), :data:`TT_BUCKET` entries per
index, aged by the number of the search that wrote them. A bucket fills one 64-byte cache line
(:func:`new_table` aligns it), so a probe costs one memory access. The search
(:mod:`~xqdesk.engines.builtin.search_kernel`) probes and stores;
:class:`~xqdesk.engines.builtin.searcher.Searcher` allocates the table.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from xqdesk.compiled_cache import BORROWING_OPTIONS
from xqdesk.compiled_indexing import index_without_wraparound

index_without_wraparound(__name__)

MATE = 31000
MATE_BOUND = 30000
"""Scores beyond this are mates: ``MATE`` less the plies to the mate (stored in the table from the
node where the mate was found, see :func:`tt_store`)."""

TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3

# A transposition-table entry packs the move (14 bits), the depth (8), the bound flag (2), the
# score (offset to stay positive) and the search generation that wrote it (8) into one positive
# int64 (never 0: the flag is at least 1): see tt_pack and tt_unpack.
TT_MOVE_MASK = 0x3FFF
TT_DEPTH_SHIFT, TT_DEPTH_MASK = 14, 255
TT_FLAG_SHIFT, TT_FLAG_MASK = 22, 3
TT_SCORE_SHIFT, TT_SCORE_MASK, TT_SCORE_OFFSET = 24, 0x1FFFF, 65536
TT_GENERATION_SHIFT, TT_GENERATION_MASK = 41, 255

TT_CHECK, TT_DATA = 0, 1
"""The two words of an entry, a row of the table: the position's key XOR the data (so that data
written over another position's key word, by two threads storing at once, is not believed), and
the data (0: an empty entry)."""
TT_ENTRY_BYTES = 16
"""Bytes an entry takes: its two int64 words."""
TT_BUCKET = 4
"""Entries per table index: a position may sit in any of them. A new entry replaces the same
position's entry, else the bucket's least worth keeping (see tt_store)."""
TT_AGE_WEIGHT = 8
"""In the replacement choice, each search generation of age costs an entry this many plies of depth."""
CACHE_LINE = 64
"""Bytes in a cache line: a bucket's size."""


def new_table(entries: int) -> np.ndarray:
    """An empty table of ``entries`` entries (a multiple of :data:`TT_BUCKET`) whose buckets each
    start on a cache line."""
    words = 2 * entries
    spare = CACHE_LINE // 8
    raw = np.zeros(words + spare, np.int64)
    start = (-raw.ctypes.data % CACHE_LINE) // 8
    return raw[start:start + words].reshape(entries, 2)


@njit(**BORROWING_OPTIONS)
def tt_pack(move, depth, flag, score, generation):
    """One table entry's data (see the TT_* layout)."""
    return ((move & TT_MOVE_MASK) | ((depth & TT_DEPTH_MASK) << TT_DEPTH_SHIFT) | (flag << TT_FLAG_SHIFT)
            | ((score + TT_SCORE_OFFSET) << TT_SCORE_SHIFT)
            | ((generation & TT_GENERATION_MASK) << TT_GENERATION_SHIFT))


@njit(**BORROWING_OPTIONS)
def tt_unpack(data):
    """``(move, depth, flag, score)`` of one table entry's data."""
    return (data & TT_MOVE_MASK, (data >> TT_DEPTH_SHIFT) & TT_DEPTH_MASK, (data >> TT_FLAG_SHIFT) & TT_FLAG_MASK,
            ((data >> TT_SCORE_SHIFT) & TT_SCORE_MASK) - TT_SCORE_OFFSET)


@njit(**BORROWING_OPTIONS)
def tt_bucket(table, key):
    """The first entry of ``key``'s bucket."""
    return np.int64(key & np.uint64(table.shape[0] // TT_BUCKET - 1)) * TT_BUCKET


@intrinsic
def _prefetch(typing_context, array, index):
    """Ask the processor to bring ``array[index]``'s cache line closer (no effect on results)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(array, types.intp), codegen


@njit(**BORROWING_OPTIONS)
def tt_prefetch(table, key):
    """Start loading ``key``'s bucket, so that a probe soon after finds it in the cache."""
    _prefetch(table, tt_bucket(table, key))  # type: ignore[call-arg]  # numba supplies the typing context


@njit(**BORROWING_OPTIONS)
def tt_probe(table, key):
    """The data of ``key``'s entry, or 0 when the table holds none. An entry counts only when its
    check word equals ``key`` XOR its data: data written over another position's key (two threads
    storing at once) is ignored."""
    base = tt_bucket(table, key)
    for slot in range(base, base + TT_BUCKET):
        data = table[slot, TT_DATA]
        if data != 0 and (np.uint64(table[slot, TT_CHECK]) ^ np.uint64(data)) == key:
            return data
    return np.int64(0)


@njit(**BORROWING_OPTIONS)
def tt_score_at(score, ply):
    """A stored score as seen ``ply`` plies from the root (mate scores are stored from the node)."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(**BORROWING_OPTIONS)
def tt_decides(flag, score, alpha, beta):
    """Whether a stored bound of kind ``flag`` settles the window (alpha, beta) by itself."""
    return flag == TT_EXACT or (flag == TT_LOWER and score >= beta) or (flag == TT_UPPER and score <= alpha)


@njit(**BORROWING_OPTIONS)
def tt_age(data, generation):
    """How many searches ago the entry ``data`` was written (mod 256)."""
    return (generation - ((data >> TT_GENERATION_SHIFT) & TT_GENERATION_MASK)) & TT_GENERATION_MASK


@njit(**BORROWING_OPTIONS)
def tt_store(table, key, move, depth, flag, score, ply, generation):
    """Store a search result. The position's own entry is updated (but a deeper entry of this
    search is kept unless the new result is exact and not quiescence's, depth 0; a missing move
    keeps the old one); otherwise
    the bucket's empty entry or the one of least depth minus TT_AGE_WEIGHT per search of age is
    replaced."""
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    base = tt_bucket(table, key)
    victim = base
    victim_worth = np.int64(1 << 30)
    for slot in range(base, base + TT_BUCKET):
        data = table[slot, TT_DATA]
        if data == 0:
            worth = np.int64(-(1 << 20))
        elif (np.uint64(table[slot, TT_CHECK]) ^ np.uint64(data)) == key:
            stored_move, stored_depth, _flag, _score = tt_unpack(data)
            if stored_depth > depth and (flag != TT_EXACT or depth == 0) and tt_age(data, generation) == 0:
                return
            if move == 0:
                move = stored_move
            victim = slot
            break
        else:
            worth = ((data >> TT_DEPTH_SHIFT) & TT_DEPTH_MASK) - TT_AGE_WEIGHT * tt_age(data, generation)
        if worth < victim_worth:
            victim, victim_worth = slot, worth
    data = tt_pack(move, depth, flag, score, generation)
    table[victim, TT_DATA] = data
    table[victim, TT_CHECK] = np.int64(key ^ np.uint64(data))
