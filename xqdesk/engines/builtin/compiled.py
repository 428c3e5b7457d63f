"""How the built-in engine's kernels are compiled: the options every one passes to numba, and
the cache guard (:func:`xqdesk.compiled_cache.drop_stale_compiled_code`) they call."""
from __future__ import annotations

from typing import TypedDict

from xqdesk.compiled_cache import drop_stale_compiled_code


class CompileOptions(TypedDict):
    """The keyword arguments every kernel passes to ``numba.njit``."""

    cache: bool
    nogil: bool


COMPILE_OPTIONS: CompileOptions = {"cache": True, "nogil": True}
"""Every kernel function: cached on disk, and the GIL released so a watchdog thread can stop it."""


__all__ = ["COMPILE_OPTIONS", "CompileOptions", "drop_stale_compiled_code"]
