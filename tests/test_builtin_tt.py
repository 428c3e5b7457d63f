"""The built-in engine's transposition table: buckets, replacement, and key XOR data verification."""
from __future__ import annotations

import numpy as np
import pytest

from xqdesk.engines.builtin import tt_kernel as tt
from xqdesk.engines.builtin.searcher import Searcher

pytestmark = pytest.mark.engines

ENTRIES = 64
BUCKETS = ENTRIES // tt.TT_BUCKET


def _table() -> np.ndarray:
    return tt.new_table(ENTRIES)


def _key(bucket: int, tag: int) -> np.uint64:
    """A key of ``bucket`` told apart from the bucket's other keys by its high bits."""
    return np.uint64((tag << 40) | (0x5A5A << 16) * BUCKETS + bucket)


def _store(table: np.ndarray, key: np.uint64, move: int, depth: int, flag: int = tt.TT_LOWER,
           score: int = 10, generation: int = 1) -> None:
    tt.tt_store(table, key, move, depth, flag, score, 0, generation)


def _entry(table: np.ndarray, key: np.uint64) -> tuple[int, int, int, int] | None:
    found = int(tt.tt_probe(table, key))
    if found == 0:
        return None
    move, depth, flag, score = tt.tt_unpack(found)
    return int(move), int(depth), int(flag), int(score)


def test_an_entry_is_found_by_its_own_key_only() -> None:
    table = _table()
    key = _key(3, 1)
    _store(table, key, move=1234, depth=6, flag=tt.TT_EXACT, score=-55)
    assert _entry(table, key) == (1234, 6, tt.TT_EXACT, -55)
    assert _entry(table, _key(3, 2)) is None
    assert _entry(table, _key(4, 1)) is None


def test_a_torn_entry_is_ignored() -> None:
    """Data written over another position's key word (two threads storing into one slot at once)
    matches neither key."""
    table = _table()
    first, second = _key(5, 1), _key(5, 2)
    _store(table, first, move=111, depth=4)
    slot = int(np.flatnonzero(table[:, tt.TT_DATA])[0])
    other = _table()
    _store(other, second, move=222, depth=9, flag=tt.TT_EXACT)
    table[slot, tt.TT_DATA] = other[slot, tt.TT_DATA]  # the second thread's data landed, its key word did not
    assert _entry(table, first) is None
    assert _entry(table, second) is None
    table[slot, tt.TT_CHECK] = other[slot, tt.TT_CHECK]  # now its key word too: a whole entry again
    assert _entry(table, second) == (222, 9, tt.TT_EXACT, 10)


def test_a_bucket_holds_several_positions_of_one_index() -> None:
    table = _table()
    bucket_keys = [_key(7, tag) for tag in range(1, tt.TT_BUCKET + 1)]
    for depth, key in enumerate(bucket_keys, start=1):
        _store(table, key, move=100 + depth, depth=depth)
    for depth, key in enumerate(bucket_keys, start=1):
        assert _entry(table, key) == (100 + depth, depth, tt.TT_LOWER, 10)


def test_a_full_bucket_replaces_its_shallowest_entry() -> None:
    table = _table()
    depths = [5, 2, 7, 3][:tt.TT_BUCKET]
    bucket_keys = [_key(9, tag) for tag in range(1, len(depths) + 1)]
    for depth, key in zip(depths, bucket_keys):
        _store(table, key, move=7, depth=depth)
    newcomer = _key(9, 99)
    _store(table, newcomer, move=8, depth=4)
    assert _entry(table, newcomer) == (8, 4, tt.TT_LOWER, 10)
    kept = [_entry(table, key) is not None for key in bucket_keys]
    assert kept == [depth != min(depths) for depth in depths]


def test_entries_of_earlier_searches_are_replaced_first() -> None:
    table = _table()
    old_keys = [_key(2, tag) for tag in range(1, tt.TT_BUCKET)]
    for depth, key in enumerate(old_keys, start=5):
        _store(table, key, move=7, depth=depth, generation=1)
    fresh = _key(2, 50)
    _store(table, fresh, move=7, depth=1, generation=2)
    newcomer = _key(2, 60)
    _store(table, newcomer, move=9, depth=2, generation=2)
    assert _entry(table, fresh) is not None  # shallow but from this search
    assert _entry(table, newcomer) is not None
    assert _entry(table, old_keys[0]) is None  # the shallowest of the earlier search went
    assert all(_entry(table, key) is not None for key in old_keys[1:])


def test_a_position_keeps_its_deeper_bound_within_a_search() -> None:
    table = _table()
    key = _key(11, 1)
    _store(table, key, move=300, depth=8, flag=tt.TT_LOWER, score=40)
    _store(table, key, move=0, depth=3, flag=tt.TT_UPPER, score=-20)
    assert _entry(table, key) == (300, 8, tt.TT_LOWER, 40)
    _store(table, key, move=0, depth=3, flag=tt.TT_EXACT, score=5)  # exact: replaces, keeps the move
    assert _entry(table, key) == (300, 3, tt.TT_EXACT, 5)
    _store(table, key, move=301, depth=9, flag=tt.TT_LOWER, score=60)
    _store(table, key, move=302, depth=2, flag=tt.TT_UPPER, score=0, generation=2)  # a later search
    assert _entry(table, key) == (302, 2, tt.TT_UPPER, 0)
    assert int(np.count_nonzero(table[:, tt.TT_DATA])) == 1  # one position, one entry


def test_a_quiescence_result_never_replaces_a_deeper_entry_of_the_search() -> None:
    table = _table()
    key = _key(12, 1)
    _store(table, key, move=400, depth=5, flag=tt.TT_LOWER, score=30)
    _store(table, key, move=0, depth=0, flag=tt.TT_EXACT, score=12)
    assert _entry(table, key) == (400, 5, tt.TT_LOWER, 30)


def test_mate_scores_are_stored_from_the_node_and_read_back_unchanged_at_ply_zero() -> None:
    table = _table()
    key = _key(1, 1)
    tt.tt_store(table, key, 5, 3, tt.TT_EXACT, tt.MATE - 7, 4, 1)  # mate in 7 plies from ply 4
    entry = _entry(table, key)
    assert entry is not None and entry[3] == tt.MATE - 3  # mate 3 plies from the stored node


def test_hash_megabytes_bound_the_table() -> None:
    for megabytes in (1, 3, 16):
        searcher = Searcher(megabytes)
        assert searcher.tt.nbytes <= megabytes * 1024 * 1024
        assert len(searcher.tt) % tt.TT_BUCKET == 0
        assert searcher.tt.nbytes > megabytes * 1024 * 1024 // 2


def test_each_bucket_fills_one_cache_line() -> None:
    for entries in (tt.TT_BUCKET, ENTRIES, 1 << 12):
        table = tt.new_table(entries)
        assert table.shape == (entries, 2) and table.flags.c_contiguous and not table.any()
        assert table.ctypes.data % tt.CACHE_LINE == 0
        assert table[:tt.TT_BUCKET].nbytes == tt.CACHE_LINE
