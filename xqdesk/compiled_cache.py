"""numba's disk cache made safe for compiled code split over several modules.

numba keys a module's cached machine code on that module's own source file only, yet constants and
compiled functions imported from other modules are baked into it. :func:`drop_stale_compiled_code`
removes a module's cache index when any module it depends on is newer, so it is compiled afresh.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Iterable


def drop_stale_compiled_code(module_file: str, dependencies: Iterable[ModuleType]) -> None:
    """Delete the cache index of the module at ``module_file`` if any of ``dependencies`` (and
    their own files) changed after it was written."""
    cache_dir = Path(module_file).with_name("__pycache__")
    try:
        newest = max(Path(module.__file__ or module_file).stat().st_mtime for module in dependencies)
        for index in cache_dir.glob(Path(module_file).stem + ".*.nbi"):
            if index.stat().st_mtime < newest:
                index.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only install: its files never change under the cache
