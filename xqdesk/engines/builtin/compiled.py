"""How the built-in engine's kernels are compiled: the options every one passes to numba, and
the cache guard they call — all defined in :mod:`xqdesk.compiled_cache`, which the core's own
kernels share."""
from __future__ import annotations

from xqdesk.compiled_cache import BORROWING_OPTIONS, COMPILE_OPTIONS, CompileOptions, drop_stale_compiled_code

__all__ = ["BORROWING_OPTIONS", "COMPILE_OPTIONS", "CompileOptions", "drop_stale_compiled_code"]
