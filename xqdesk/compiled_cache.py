"""numba's disk cache made safe for compiled code split over several modules.

numba keys a module's cached machine code on that module's own source file only, yet constants and
compiled functions imported from other modules are baked into it. :func:`drop_stale_compiled_code`
removes a module's cache index when any module it depends on, directly or through another, is
newer, so it is compiled afresh.
It also names the options every compiled kernel passes to ``numba.njit``.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

CompileOptions = dict[str, Any]
"""The keyword arguments a kernel passes to ``numba.njit``: ``cache``, ``nogil`` and ``_nrt``.
A plain mapping, not a ``TypedDict``: numba's own type stubs list ``njit``'s public options only,
and ``_nrt`` (whether arrays are reference-counted) is one of its internal ones."""

COMPILE_OPTIONS: CompileOptions = {"cache": True, "nogil": True, "_nrt": True}
"""A kernel function: cached on disk, and the GIL released so a watchdog thread can stop it. Its
arrays are reference-counted, as numba's default — said explicitly, since a function that does not
say inherits the setting of the first compiled caller, and one that creates an array fails to
compile when that caller is a :data:`BORROWING_OPTIONS` kernel."""

BORROWING_OPTIONS: CompileOptions = {"cache": True, "nogil": True, "_nrt": False}
"""A kernel that creates no array and only reads and writes the arrays it is given (the king-attack
scan; the built-in engine's search, board, evaluation, exchange, move-ordering, transposition-table
and perpetual-check kernels): as :data:`COMPILE_OPTIONS`, without numba's reference counting. Every array such a kernel sees is
owned by its caller for the whole call, so counting references to it is pure cost — the atomic
increments and decrements of the arrays' counts at every call were about 30% of the search's CPU
time (``perf record`` over ``bench/search.py --suite-only --depth 8``). Creating an array in such
a kernel fails to compile; a kernel that does (the endgame-table probe, the network's layers,
:func:`~xqdesk.engines.builtin.board_kernel.legal_moves`) keeps :data:`COMPILE_OPTIONS` and may be
called from one of these."""


_DEPENDENCIES: dict[str, frozenset[str]] = {}
"""Each kernel module's file, with the files of the modules it named as its dependencies. A module
is imported after the modules it depends on, so theirs are recorded by the time it asks."""


def _with_their_dependencies(files: frozenset[str]) -> set[str]:
    """``files`` and every file they depend on, directly or through others."""
    found: set[str] = set()
    waiting = list(files)
    while waiting:
        file = waiting.pop()
        if file not in found:
            found.add(file)
            waiting.extend(_DEPENDENCIES.get(file, ()))
    return found


def drop_stale_compiled_code(module_file: str, dependencies: Iterable[ModuleType]) -> None:
    """Delete the cache index of the module at ``module_file`` if any of ``dependencies``, or any
    module they depend on in turn (as they told this function), changed after it was written."""
    cache_dir = Path(module_file).with_name("__pycache__")
    direct = frozenset(str(Path(module.__file__ or module_file).resolve()) for module in dependencies)
    _DEPENDENCIES[str(Path(module_file).resolve())] = direct
    try:
        newest = max(Path(file).stat().st_mtime for file in _with_their_dependencies(direct))
        for index in cache_dir.glob(Path(module_file).stem + ".*.nbi"):
            if index.stat().st_mtime < newest:
                index.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only install: its files never change under the cache
