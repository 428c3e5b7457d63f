"""How the built-in engine's kernels are compiled: the options every one passes to numba, and
the cache guard (:func:`xqdesk.compiled_cache.drop_stale_compiled_code`) they call."""
from __future__ import annotations

from typing import TypedDict

from xqdesk.compiled_cache import drop_stale_compiled_code


class CompileOptions(TypedDict, total=False):
    """The keyword arguments a kernel passes to ``numba.njit``."""

    cache: bool
    nogil: bool
    _nrt: bool


COMPILE_OPTIONS: CompileOptions = {"cache": True, "nogil": True, "_nrt": True}
"""A kernel function: cached on disk, and the GIL released so a watchdog thread can stop it. Its
arrays are reference-counted, as numba's default — said explicitly, since a function that does not
say inherits the setting of the first compiled caller, and one that creates an array fails to
compile when that caller is a :data:`BORROWING_OPTIONS` kernel."""

BORROWING_OPTIONS: CompileOptions = {"cache": True, "nogil": True, "_nrt": False}
"""A kernel that creates no array and only reads and writes the arrays it is given (the search,
board, evaluation, exchange, move-ordering, transposition-table and perpetual-check kernels): as
:data:`COMPILE_OPTIONS`, without numba's reference counting. Every array such a kernel sees is
owned by its caller for the whole call, so counting references to it is pure cost — the atomic
increments and decrements of the arrays' counts at every call were about 30% of the search's CPU
time (``perf record`` over ``bench/search.py --suite-only --depth 8``). Creating an array in such
a kernel fails to compile; a kernel that does (the endgame-table probe, the network's layers,
:func:`~xqdesk.engines.builtin.board_kernel.legal_moves`) keeps :data:`COMPILE_OPTIONS` and may be
called from one of these."""


__all__ = ["BORROWING_OPTIONS", "COMPILE_OPTIONS", "CompileOptions", "drop_stale_compiled_code"]
