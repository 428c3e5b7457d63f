"""Labelled positions on disk: the one sharded format both learning engines train from.

A data set is a folder::

    DATA/manifest.json        what was asked (teacher, depth, MultiPV, sources), the shards, the
                              finished tasks (so a run resumes), totals
    DATA/shard-000000.npz     the arrays below for up to ``shard_size`` positions
    DATA/holdout/shard-….npz  positions of held-out master games; training never reads them

Arrays of a shard, one row per position (squares are ``rank * 9 + file`` with rank 0 Red's back
rank; pieces are :mod:`xqdesk.pieces`' signed codes, Red positive):

=================  ====================  =====================================================
``board``          int8 (N, 90)          the position, board frame
``red_to_move``    bool (N,)             the side to move
``score``          int16 (N,)            the teacher's score, centipawns, side to move's view;
                                         a mate in ``n`` plies is ``±(MATE_SCORE − n)``
``result``         int8 (N,)             the game's result, side to move's view (1, 0, −1)
``moves``          int16 (N, K)          the teacher's MultiPV first moves, best first, as
                                         ``from * 90 + to``; −1 pads (all −1, K = 1, and
                                         ``score`` 0 in a set made without a teacher)
``move_scores``    int16 (N, K)          their scores (as ``score``); 0 pads
``played``         int16 (N,)            the move played next in the game, −1 at its end
``key``            uint64 (N,)           Zobrist key of board and side to move; unique in a set
                                         labelled by a teacher (a set of records alone keeps
                                         every occurrence of a position)
``capture_free``   int16 (N,)            plies since the last capture
``in_check``       bool (N,)             the side to move is in check
``source``         int8 (N,)             :data:`MASTER`, :data:`TEACHER_GAME`
``game``           int32 (N,)            the game's number in the data set
=================  ====================  =====================================================

Shards are plain ``np.savez`` files, so a reader maps nothing it does not need and training
streams them (:class:`ShardReader`) instead of loading the set whole.
"""
from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

import numpy as np
from filelock import FileLock, Timeout

from xqdesk.errors import InputError

FORMAT_NAME = "xqdesk-labelled-positions"
FORMAT_VERSION = 1
MATE_SCORE = 30000
"""A mate in ``n`` plies scores ``MATE_SCORE - n`` for the side that mates."""
MASTER, TEACHER_GAME = 0, 1
SOURCE_NAMES = {MASTER: "master", TEACHER_GAME: "teacher game"}
MANIFEST = "manifest.json"
HOLDOUT = "holdout"
LOCK = ".lock"
_SHARD_NAME = re.compile(r"shard-(\d{6})\.npz")

FIELDS: dict[str, tuple[Any, tuple[int, ...]]] = {
    "board": (np.int8, (90,)),
    "red_to_move": (np.bool_, ()),
    "score": (np.int16, ()),
    "result": (np.int8, ()),
    "moves": (np.int16, (-1,)),
    "move_scores": (np.int16, (-1,)),
    "played": (np.int16, ()),
    "key": (np.uint64, ()),
    "capture_free": (np.int16, ()),
    "in_check": (np.bool_, ()),
    "source": (np.int8, ()),
    "game": (np.int32, ()),
}
"""Each array's dtype and the shape of one row (−1: the MultiPV width of the set)."""


class DataSetError(InputError):
    """A data folder, manifest or shard that is not what this module writes (the message says
    which file and what is wrong)."""


@dataclass
class Labelled:
    """A batch of labelled positions: one numpy array per field of :data:`FIELDS`."""

    arrays: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.arrays["key"])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    @property
    def width(self) -> int:
        """The MultiPV width K of ``moves``/``move_scores``."""
        return int(self.arrays["moves"].shape[1])

    def take(self, rows: np.ndarray) -> Labelled:
        """The rows selected by an index array or a boolean mask."""
        return Labelled({name: array[rows] for name, array in self.arrays.items()})

    @staticmethod
    def empty(width: int) -> Labelled:
        return Labelled({name: np.zeros((0,) + tuple(width if d == -1 else d for d in shape), dtype)
                         for name, (dtype, shape) in FIELDS.items()})

    @staticmethod
    def concatenate(parts: Sequence[Labelled], width: int) -> Labelled:
        """The parts one after the other, each padded to MultiPV ``width``."""
        parts = [part for part in parts if len(part)]
        if not parts:
            return Labelled.empty(width)
        arrays: dict[str, np.ndarray] = {}
        for name in FIELDS:
            pieces = [part.arrays[name] for part in parts]
            if name in ("moves", "move_scores"):
                pad = -1 if name == "moves" else 0
                pieces = [np.pad(p[:, :width], ((0, 0), (0, width - min(width, p.shape[1]))), constant_values=pad)
                          for p in pieces]
            arrays[name] = np.concatenate(pieces)
        return Labelled(arrays)

    def check(self, where: str) -> None:
        """DataSetError naming ``where`` unless every field is present with its dtype and shape."""
        rows: Optional[int] = None
        for name, (dtype, shape) in FIELDS.items():
            array = self.arrays.get(name)
            if array is None:
                raise DataSetError(f"{where}: the array {name!r} is missing")
            if array.dtype != np.dtype(dtype):
                raise DataSetError(f"{where}: {name!r} is {array.dtype}, expected {np.dtype(dtype)}")
            expected = tuple(array.shape[1] if d == -1 else d for d in shape)
            if array.ndim != 1 + len(shape) or tuple(array.shape[1:]) != expected:
                raise DataSetError(f"{where}: {name!r} has shape {array.shape}, expected (N, {', '.join(map(str, shape))})")
            if rows is None:
                rows = len(array)
            elif len(array) != rows:
                raise DataSetError(f"{where}: {name!r} has {len(array)} rows, the others {rows}")
        if self.arrays["moves"].shape[1] != self.arrays["move_scores"].shape[1]:
            raise DataSetError(f"{where}: 'moves' and 'move_scores' differ in width")


def save_shard(path: Path, batch: Labelled) -> None:
    """Write ``batch`` to ``path`` atomically (a reader never sees half a shard)."""
    batch.check(str(path))
    partial = path.with_name(path.name + ".partial")
    arrays: dict[str, Any] = batch.arrays
    with open(partial, "wb") as handle:
        np.savez(handle, **arrays)
    os.replace(partial, path)


def load_shard(path: Path, fields: Optional[Sequence[str]] = None) -> Labelled:
    """The positions of one shard (only ``fields``, when given, unchecked); DataSetError naming
    it when it is damaged or of another kind."""
    wanted = tuple(fields) if fields is not None else tuple(FIELDS)
    try:
        with np.load(path, allow_pickle=False) as data:
            missing = [name for name in wanted if name not in data.files]
            if missing:
                raise DataSetError(f"{str(path)!r} is not a shard of labelled positions: no {', '.join(missing)}")
            batch = Labelled({name: data[name] for name in wanted})
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        if isinstance(error, DataSetError):
            raise
        raise DataSetError(f"{str(path)!r} is not a shard of labelled positions: {error}") from None
    if fields is None:
        batch.check(repr(str(path)))
    return batch


def _shard_number(path: Path) -> int:
    match = _SHARD_NAME.fullmatch(path.name)
    return int(match.group(1)) if match else -1


class ShardWriter:
    """Appends labelled positions to a data folder: drops positions whose key the set already
    holds, cuts shards of ``shard_size`` rows, and records finished tasks in the manifest so an
    interrupted run resumes where it stopped. Not thread-safe; a second writer of the same folder
    (another run) is refused while this one lives (:meth:`close` or the end of the process)."""

    def __init__(self, folder: str | Path, settings: dict[str, Any], shard_size: int = 50_000,
                 deduplicate: bool = True) -> None:
        """Open ``folder`` (created if missing). ``settings`` describe how the data is made
        (teacher, depth …); an existing folder made with other settings is refused, since mixing
        labels of two teachers in one set is never what was meant. ``deduplicate=False`` keeps
        every position added, a key already held included (a set of records alone, whose rows of
        one position differ by the move played)."""
        self.folder = Path(folder)
        self.shard_size = shard_size
        self.deduplicate = deduplicate
        self.folder.mkdir(parents=True, exist_ok=True)
        self._lock = _lock_folder(self.folder)
        (self.folder / HOLDOUT).mkdir(exist_ok=True)
        self.manifest = self._open_manifest(settings)
        self._write_manifest()
        self.width = int(settings.get("multipv", 1))
        self._seen: set[int] = set()
        self._pending: dict[bool, list[Labelled]] = {False: [], True: []}
        for shard in (self.shards(holdout=False) + self.shards(holdout=True)) if deduplicate else ():
            self._seen.update(int(key) for key in load_shard(shard, ("key",))["key"])

    def close(self) -> None:
        """Let another writer open the folder."""
        self._lock.release()

    def _open_manifest(self, settings: dict[str, Any]) -> dict[str, Any]:
        path = self.folder / MANIFEST
        if not path.exists():
            return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "settings": settings,
                    "done_tasks": [], "positions": 0, "holdout_positions": 0, "games": 0}
        manifest = read_manifest(self.folder)
        if manifest["settings"] != settings:
            raise DataSetError(f"{str(self.folder)!r} holds data made with other settings "
                               f"({manifest['settings']}); use another folder or the same settings")
        return manifest

    @property
    def done_tasks(self) -> set[str]:
        return set(self.manifest["done_tasks"])

    def shards(self, holdout: bool) -> list[Path]:
        folder = self.folder / HOLDOUT if holdout else self.folder
        return sorted(path for path in folder.iterdir() if _SHARD_NAME.fullmatch(path.name))

    def add(self, task: str, batch: Labelled, holdout: Labelled, games: int) -> int:
        """Add one finished task's positions (training and held-out); returns how many were new.
        The task counts as done once its positions are on disk."""
        added = 0
        for is_holdout, part in ((False, batch), (True, holdout)):
            if self.deduplicate:
                fresh = np.array([int(key) not in self._seen for key in part["key"]], dtype=bool)
                part = part.take(fresh)
                _, first = np.unique(part["key"], return_index=True)
                part = part.take(np.sort(first))
                self._seen.update(int(key) for key in part["key"])
            if len(part):
                self._pending[is_holdout].append(part)
            self.manifest["holdout_positions" if is_holdout else "positions"] += len(part)
            added += len(part)
            self._flush(is_holdout, final=False)
        self.manifest["games"] += games
        self.manifest["done_tasks"].append(task)
        self._flush(False, final=True)
        self._flush(True, final=True)
        self._write_manifest()
        return added

    def _flush(self, holdout: bool, final: bool) -> None:
        pending = Labelled.concatenate(self._pending[holdout], self.width)
        self._pending[holdout] = []
        folder = self.folder / HOLDOUT if holdout else self.folder
        shards = self.shards(holdout)
        # at the end of a task, top up the last shard rather than start a new one: few small shards
        if final and shards and len(pending):
            last = load_shard(shards[-1])
            if len(last) < self.shard_size:  # rewritten in place: save_shard replaces it atomically
                pending = Labelled.concatenate([last, pending], self.width)
                shards = shards[:-1]
        number = _shard_number(shards[-1]) + 1 if shards else 0
        start = 0
        while len(pending) - start >= self.shard_size or (final and start < len(pending)):
            rows = np.arange(start, min(start + self.shard_size, len(pending)))
            save_shard(folder / f"shard-{number:06d}.npz", pending.take(rows))
            number, start = number + 1, start + len(rows)
        if start < len(pending):
            self._pending[holdout] = [pending.take(np.arange(start, len(pending)))]

    def _write_manifest(self) -> None:
        path = self.folder / MANIFEST
        partial = path.with_name(MANIFEST + ".partial")
        partial.write_text(json.dumps(self.manifest, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, path)


def _lock_folder(folder: Path) -> FileLock:
    """An exclusive lock on ``folder``, held until it is released (filelock: an OS lock where the
    platform has one, released by the OS when the process ends); DataSetError when another
    writer holds it."""
    lock = FileLock(str(folder / LOCK))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise DataSetError(f"{str(folder)!r} is being written by another run; wait for it to finish or stop it") from None
    return lock


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """A data folder's manifest; DataSetError saying what is wrong when it is not one."""
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataSetError(f"{str(folder)!r} is not a data set of labelled positions: "
                           f"cannot read {MANIFEST}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise DataSetError(f"{str(path)!r} is not JSON: line {error.lineno}: {error.msg}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise DataSetError(f"{str(path)!r} is not the manifest of a data set of labelled positions")
    if manifest.get("version") != FORMAT_VERSION:
        raise DataSetError(f"{str(path)!r} is version {manifest.get('version')!r}; this xqdesk reads {FORMAT_VERSION}")
    return manifest


class ShardReader:
    """Streams a data folder (or several) for training: shards in a random order, rows shuffled
    within a buffer of a few shards, in batches; never the whole set in memory."""

    def __init__(self, folders: str | Path | Sequence[str | Path], holdout: bool = False) -> None:
        """``holdout``: read the held-out positions instead of the training ones."""
        folder_list = [folders] if isinstance(folders, (str, Path)) else list(folders)
        self.paths: list[Path] = []
        self.positions = 0
        for folder in folder_list:
            manifest = read_manifest(folder)
            self.positions += int(manifest["holdout_positions" if holdout else "positions"])
            where = Path(folder) / HOLDOUT if holdout else Path(folder)
            self.paths += sorted(path for path in where.iterdir() if _SHARD_NAME.fullmatch(path.name))

    def all(self) -> Labelled:
        """Every position at once (for small sets, such as the held-out one)."""
        parts = [load_shard(path) for path in self.paths]
        return Labelled.concatenate(parts, max((part.width for part in parts), default=1))

    def batches(self, batch_size: int, seed: int = 0, buffer_shards: int = 4,
                epochs: int = 1) -> Iterator[Labelled]:
        """Batches of ``batch_size`` rows (the last of an epoch may be smaller), ``epochs``
        passes over the set, reproducible for a given ``seed``."""
        rng = np.random.default_rng(seed)
        for _ in range(epochs):
            order = rng.permutation(len(self.paths))
            for start in range(0, len(order), buffer_shards):
                parts = [load_shard(self.paths[i]) for i in order[start:start + buffer_shards]]
                pool = Labelled.concatenate(parts, max(part.width for part in parts))
                rows = rng.permutation(len(pool))
                for first in range(0, len(rows), batch_size):
                    yield pool.take(rows[first:first + batch_size])


__all__ = ["FIELDS", "FORMAT_NAME", "FORMAT_VERSION", "MATE_SCORE", "MASTER", "TEACHER_GAME", "DataSetError",
           "Labelled", "ShardReader", "ShardWriter", "load_shard", "read_manifest", "save_shard"]
