"""numba's disk cache is dropped when a module the compiled code depends on changed."""
from __future__ import annotations

import os
import types
from pathlib import Path

import pytest

from xqdesk.compiled_cache import drop_stale_compiled_code

pytestmark = pytest.mark.engines


def test_an_index_older_than_a_dependency_is_dropped(tmp_path: Path) -> None:
    module_file = tmp_path / "kernel_module.py"
    module_file.write_text("# compiled code lives here\n")
    dependency_file = tmp_path / "tables.py"
    dependency_file.write_text("VALUES = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    index = cache / "kernel_module.search-10.py311.nbi"
    index.write_bytes(b"index")
    other = cache / "other_module.search-10.py311.nbi"
    other.write_bytes(b"index")
    dependency = types.ModuleType("tables")
    dependency.__file__ = str(dependency_file)

    os.utime(index, (1_000_000, 1_000_000))
    os.utime(other, (1_000_000, 1_000_000))
    drop_stale_compiled_code(str(module_file), [dependency])
    assert not index.exists()
    assert other.exists()

    index.write_bytes(b"index")  # written after the dependency: kept
    drop_stale_compiled_code(str(module_file), [dependency])
    assert index.exists()


def test_an_index_older_than_a_dependency_of_a_dependency_is_dropped(tmp_path: Path) -> None:
    """search depends on board, which depends on tables: a change to the tables reaches search's
    compiled code through board's, so search's index goes too."""
    files = {name: tmp_path / f"{name}.py" for name in ("search", "board", "tables")}
    for file in files.values():
        file.write_text("# a kernel\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    search_index = cache / "search.alphabeta-10.py311.nbi"
    search_index.write_bytes(b"index")
    tables = types.ModuleType("tables")
    tables.__file__ = str(files["tables"])
    board = types.ModuleType("board")
    board.__file__ = str(files["board"])

    old = 1_000_000
    os.utime(files["board"], (old, old))
    os.utime(search_index, (old + 10, old + 10))
    drop_stale_compiled_code(str(files["board"]), [tables])  # board is imported first
    drop_stale_compiled_code(str(files["search"]), [board])
    assert not search_index.exists()  # tables changed after search's index was written
