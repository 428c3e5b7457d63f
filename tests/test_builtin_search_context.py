"""The search context's handle: the compiled search sees through it the very arrays it was made
from, and an array of the wrong kind is refused before any compiled code reads it."""
from __future__ import annotations

import numpy as np
import pytest
from numba import literal_unroll, njit

from xqdesk.compiled_cache import BORROWING_OPTIONS
from xqdesk.engines.builtin import tt_kernel
from xqdesk.engines.builtin.nnue_kernel import network_state
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.builtin.search_context import SearchContext, _arrays, bind, context_from
from xqdesk.engines.builtin.search_tunables import tunable_values
from xqdesk.engines.builtin.searcher import _Worker
from xqdesk.engines.builtin.tree_tables import NO_TABLES
from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN, parse_fen

pytestmark = pytest.mark.engines


def a_context() -> SearchContext:
    fields = parse_fen(STARTING_FEN)
    worker = _Worker(network_state(None))
    return worker.context(Position(fields.codes, fields.turn), tt_kernel.new_table(64), np.zeros(1, np.int32),
                          tunable_values(), NO_TABLES).context


@njit(**BORROWING_OPTIONS)
def seen_through(handle, out):  # type: ignore[no-untyped-def]
    """Each array of the context, as the compiled code sees it: address, items, bytes an item."""
    ctx = context_from(handle)
    network = ctx.network
    arrays = ctx[:21] + (network.ft_weights, network.ft_bias, network.hidden_weights, network.hidden_bias,
                         network.out_weights, network.scalars, network.accumulators, network.boards,
                         network.keys) + (ctx.tunables,)
    i = 0
    for array in literal_unroll(arrays):
        out[i, 0] = array.ctypes.data
        out[i, 1] = array.size
        out[i, 2] = array.itemsize
        i += 1
    ctx.counters[0] = 12345  # a write through the view reaches the array
    return i


def test_the_compiled_code_sees_every_array_of_the_context_itself() -> None:
    context = a_context()
    arrays = _arrays(context)
    out = np.zeros((len(arrays), 3), np.int64)
    assert seen_through(bind(context).handle, out) == len(arrays)
    assert out.tolist() == [[array.ctypes.data, array.size, array.itemsize] for array in arrays]
    assert context.counters[0] == 12345


def test_an_array_of_another_type_or_not_contiguous_is_refused() -> None:
    context = a_context()
    with pytest.raises(XqdeskError, match="search context array 0: int16"):
        bind(context._replace(board=context.board.astype(np.int16)))
    with pytest.raises(XqdeskError, match="contiguous False"):
        bind(context._replace(history=np.zeros(2 * 8100, np.int64)[::2]))
