"""Which engine code is compiled for this computer, and the lock it is compiled under.

A stamp file per code kind in the user's cache folder, named after a fingerprint of the versions
and of the engine source files, says the kind's numba code was compiled since xqdesk (or numba)
last changed (:func:`is_ready`, quick: no numba). :func:`locked_warm_up` runs an engine's
``warm_up()`` under :func:`compile_lock`, so processes of one user never compile the same code side
by side, and writes the stamp. The engine host uses it; :mod:`xqdesk.engines.compiled_code`, which
starts engines to prepare them with progress, builds on it.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

import platformdirs
from filelock import FileLock

import xqdesk

KIND_OF_CODE = {"builtin": "builtin", "fog-ubsa": "builtin", "fog-pbsa": "builtin", "mcts": "mcts", "zero": "zero",
                "egtb": "egtb"}
"""Engine kind -> the kind whose ``warm_up()`` compiles the code it runs (``egtb``: the tablebase
solver and prober, :func:`xqdesk.egtb.generate.warm_up`, which ``egtb build`` and ``egtb probe`` run too)."""

# --- the stamp ---------------------------------------------------------------------------------

def _digest(parts: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _package_folder() -> Path:
    return Path(xqdesk.__file__).resolve().parent


def _source_stamp() -> str:
    """The versions and the engines' source files (path, size, time) that the cached code depends on."""
    package = _package_folder()
    try:
        numba_version = importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        numba_version = "no numba"
    files = [f"{path.relative_to(package)} {path.stat().st_size} {path.stat().st_mtime_ns}"
             for folder in ("engines", "egtb") for path in sorted((package / folder).rglob("*"))
             if path.suffix in (".py", ".json") and "__pycache__" not in path.parts]
    if not files:  # a zip file: its own time stands for its contents
        archive = next((parent for parent in package.parents if parent.is_file()), None)
        files = [str(archive.stat().st_mtime_ns) if archive else ""]
    return _digest([xqdesk.__version__, sys.version, numba_version, os.environ.get("NUMBA_CACHE_DIR", ""), *files])


def cache_folder() -> Path:
    """Where the stamps and the lock live (the user's cache folder for xqdesk)."""
    return platformdirs.user_cache_path("xqdesk", appauthor=False) / "compiled"


def _stamp_prefix(kind: str) -> str:
    """Stamps of ``kind`` for this installation (this Python and this package folder): each
    installation keeps its own, so two of them never undo each other's."""
    return f"{kind}-{_digest([sys.executable, str(_package_folder())])}-"


def _stamp_path(kind: str) -> Path:
    return cache_folder() / f"{_stamp_prefix(kind)}{_source_stamp()}.ready"


def is_ready(kind: str) -> bool:
    """Whether ``kind``'s code was compiled since xqdesk or numba last changed (quick: no numba)."""
    try:
        return _stamp_path(kind).is_file()
    except OSError:
        return False


def _mark_ready(kind: str, seconds: float) -> None:
    try:
        folder = cache_folder()
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{_stamp_prefix(kind)}*.ready"):
            old.unlink(missing_ok=True)
        _stamp_path(kind).write_text(f"compiled in {seconds:.1f} s\n", encoding="utf-8")
    except OSError:
        pass  # no cache folder: the code is still cached by numba; only the next check is slower


# --- preparing ---------------------------------------------------------------------------------

_locks: dict[Path, FileLock] = {}
_locks_guard = threading.Lock()


def _lock_name() -> str:
    """The lock of this package folder's compiled code: numba caches it beside the folder's sources
    (or under ``NUMBA_CACHE_DIR``, by source path), so another copy of xqdesk (another checkout or
    installation) compiles other files and need not wait for this one."""
    return f"compiling-{_digest([str(_package_folder()), os.environ.get('NUMBA_CACHE_DIR', '')])}.lock"


@contextmanager
def compile_lock() -> Iterator[None]:
    """Held while this installation's code is compiled, by every process of this user that runs it
    (re-entrant in a thread); a folder that cannot be written means no lock."""
    try:
        folder = cache_folder()
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        yield
        return
    path = folder / _lock_name()
    with _locks_guard:
        lock = _locks.setdefault(path, FileLock(str(path)))
    with lock:
        yield


def locked_warm_up(engine_kind: str, warm_up: Callable[[], None]) -> None:
    """Run an engine's ``warm_up()`` under :func:`compile_lock` (so it waits for a preparation
    going on elsewhere rather than compiling beside it) and stamp its code ready."""
    kind = KIND_OF_CODE.get(engine_kind)
    if kind is None:
        warm_up()
        return
    started = time.monotonic()
    with compile_lock():
        warm_up()
    _mark_ready(kind, time.monotonic() - started)
