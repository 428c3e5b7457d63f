"""The compiled search's context: every array it reads and writes, as one named record
(:class:`SearchContext`); the handle through which the compiled search receives it (one array of
the arrays' addresses and shapes, :func:`bind` and :func:`context_from`); and the numba types of
the search's entry points (:mod:`~xqdesk.engines.builtin.search_kernel`).
:class:`~xqdesk.engines.builtin.searcher.Searcher` builds the record.

Why a handle: numba passes a record of arrays to a function as all of its arrays' fields, seven
words or more an array, so each recursive call of the search copied some 240 words; the handle is
one array, and the callee rebuilds the arrays it uses from it in registers.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, cast

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array
from numba.np.numpy_support import as_dtype

from xqdesk.engines.builtin.nnue_kernel import NETWORK_STATE_TYPE, NetworkState
from xqdesk.errors import XqdeskError


class SearchContext(NamedTuple):
    """Everything the compiled search reads and writes, one record so that the recursive functions
    take one argument (numba compiles a named tuple of arrays as a struct of pointers)."""

    board: np.ndarray
    """The position (``board_kernel``): squares, ..."""
    pos: np.ndarray
    """... side to move, height, king squares and scores, ..."""
    keys: np.ndarray
    """... the Zobrist key of every position of the game and the search, ..."""
    clocks: np.ndarray
    """... the capture-free ply count of each, ..."""
    psq: np.ndarray
    """... the piece-square tables, ..."""
    trail_moves: np.ndarray
    """... the move that led to each height ...."""
    trail_checkers: np.ndarray
    """... and the pieces then giving check (``perpetual_kernel``) ..."""
    params: np.ndarray
    """... and the evaluation's weights."""
    tt: np.ndarray
    """The transposition table (``tt_kernel``): two int64 words per entry, ``TT_BUCKET`` entries per
    index, each bucket one cache line."""
    killers: np.ndarray
    """Two killer moves per ply."""
    history: np.ndarray
    """History scores, by (origin, target)."""
    move_buf: np.ndarray
    """Generated moves, one row per ply ..."""
    score_buf: np.ndarray
    """... and their ordering scores."""
    pv: np.ndarray
    """The triangular principal-variation table ..."""
    pv_len: np.ndarray
    """... and the length of each row."""
    counters: np.ndarray
    """Nodes, selective depth, limits and flags, indexed by the C_* constants."""
    stop: np.ndarray
    """``stop[0]`` != 0 asks the search to stop (set by the watchdog thread)."""
    excluded: np.ndarray
    """The move a node's search leaves out, by ply (0: none): the singular-extension test."""
    table_meta: np.ndarray
    """The endgame tables captures can lead into (``table_kernel``; no rows: none): their rows, ..."""
    table_positions: np.ndarray
    """... their index layouts ..."""
    table_values: np.ndarray
    """... and their values."""
    network: NetworkState
    """The learned evaluation and this thread's accumulators (``nnue_kernel``; no network: the
    hand-written evaluation)."""
    tunables: np.ndarray
    """The search's tunables (``search_tunables``: margins, depths and move counts of its pruning,
    reductions and extensions), indexed by the ``T_*`` constants."""


# The context's type: what the handle's arrays are, field by field (the network's arrays in its
# place), and what context_from builds.
_INT64_1D = types.int64[::1]
_INT64_2D = types.int64[:, ::1]
CONTEXT_TYPE = types.NamedTuple((
    types.int8[::1], _INT64_1D, types.uint64[::1], _INT64_1D, _INT64_1D, _INT64_1D, _INT64_1D,  # position
    types.int32[::1],  # evaluation
    _INT64_2D,  # transposition table
    _INT64_2D, _INT64_1D, _INT64_2D, _INT64_2D, _INT64_2D, _INT64_1D, _INT64_1D, types.int32[::1],  # search
    _INT64_1D,  # excluded moves
    _INT64_2D, types.int16[:, ::1], types.uint16[::1],  # endgame tables
    NETWORK_STATE_TYPE,  # learned evaluation
    _INT64_1D,  # tunables
), SearchContext)

FIELD_WORDS = 4
"""Words of the handle per array: its address, then its shape (at most three dimensions)."""


def _array_types(record_type: Any) -> list[types.Array]:
    """The types of a record type's arrays, depth first (a nested record's arrays in its place)."""
    found: list[types.Array] = []
    for member in record_type.types:
        found.extend(_array_types(member) if isinstance(member, types.BaseNamedTuple) else [member])
    return found


_ARRAY_TYPES = _array_types(CONTEXT_TYPE)
"""The types of the context's arrays, in the handle's order."""


def _arrays(record: tuple[Any, ...]) -> list[np.ndarray]:
    """A record's arrays, in the order of :func:`_array_types`."""
    found: list[np.ndarray] = []
    for value in record:
        found.extend(_arrays(value) if isinstance(value, tuple) else [value])
    return found


class BoundContext(NamedTuple):
    """A context and its handle. The handle holds addresses only, so the context it was made
    from must live as long as it is used: the two travel together."""

    context: SearchContext
    handle: np.ndarray


def bind(context: SearchContext) -> BoundContext:
    """``context`` with its handle: for each array, in field order, its address and shape.
    Raises XqdeskError when an array is not of its field's type (the compiled search would read
    its memory as that type), or not contiguous."""
    handle = np.zeros(FIELD_WORDS * len(_ARRAY_TYPES), np.int64)
    for index, (array, array_type) in enumerate(zip(_arrays(context), _ARRAY_TYPES, strict=True)):
        if array.dtype != as_dtype(array_type.dtype) or array.ndim != array_type.ndim \
                or not array.flags.c_contiguous:
            raise XqdeskError(f"search context array {index}: {array.dtype}, {array.ndim} dimensions, "
                              f"contiguous {array.flags.c_contiguous}; expected {array_type}")
        handle[FIELD_WORDS * index] = array.ctypes.data
        handle[FIELD_WORDS * index + 1:FIELD_WORDS * index + 1 + array.ndim] = array.shape
    return BoundContext(context, handle)


def _array_at(context: Any, builder: Any, array_type: types.Array, address: Any, shape: list[Any]) -> Any:
    """The LLVM value of a C-contiguous array of ``array_type`` over ``address`` (no reference count:
    ``numba.carray`` would do the same, but numba refuses it in kernels compiled without reference
    counting)."""
    array = make_array(array_type)(context, builder)
    itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(array_type.dtype)))
    strides = []
    stride = itemsize
    for size in reversed(shape):
        strides.append(stride)
        stride = builder.mul(stride, size)
    populate_array(array, data=builder.inttoptr(address, array.data.type), shape=shape, strides=strides[::-1],
                   itemsize=itemsize, meminfo=None)
    return array._getvalue()


@intrinsic
def _context_from(typing_context: Any, handle: Any) -> Any:
    """See :data:`context_from`."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        words = make_array(signature.args[0])(context, builder, args[0]).data
        next_array = iter(range(len(_ARRAY_TYPES)))

        def build(record_type: Any) -> Any:
            values = []
            for member in record_type.types:
                if isinstance(member, types.BaseNamedTuple):
                    values.append(build(member))
                    continue
                base = FIELD_WORDS * next(next_array)
                address = builder.load(cgutils.gep(builder, words, base))
                shape = [builder.load(cgutils.gep(builder, words, base + 1 + d)) for d in range(member.ndim)]
                values.append(_array_at(context, builder, member, address, shape))
            return context.make_tuple(builder, record_type, values)
        return build(CONTEXT_TYPE)
    return CONTEXT_TYPE(handle), codegen


context_from = cast(Callable[[np.ndarray], SearchContext], _context_from)
"""In compiled code, the :class:`SearchContext` a handle made by :func:`bind` points to: views
of the same arrays, built in registers (the callee reads only the words of the arrays it uses)."""


HANDLE_TYPE = _INT64_1D
"""The compiled search's entry points take the context as a handle (:func:`bind`)."""
QUIESCE_SIGNATURE = types.int64(HANDLE_TYPE, types.int64, types.int64, types.int64, types.boolean, types.boolean)
ALPHABETA_SIGNATURE = types.int64(HANDLE_TYPE, types.int64, types.int64, types.int64, types.int64,
                                  types.boolean, types.boolean)
SEARCH_ROOT_SIGNATURE = types.int64(HANDLE_TYPE, _INT64_1D, types.int64, types.int64, types.int64, types.int64)
