"""Build tables by retrograde analysis: every position of a signature, solved exactly.

For one signature (smaller tables, which captures lead into, built first):

1. :func:`~xqdesk.egtb.kernels.solve_start` marks illegal positions and positions with no legal
   move (mated, whether in check or not), counts each position's moves that stay in the table and
   looks up its captures in the smaller tables;
2. :func:`~xqdesk.egtb.kernels.solve_level` then assigns mate-in-1, mated-in-2, … level by level:
   a position is won in ``n`` when a move reaches a position mated in ``n - 1``, and mated in ``n``
   when its last undecided move turns out to reach a won position (so every move loses);
3. what is still undecided when no level adds a position can be held for ever: a draw.

Repetition therefore counts as a draw; the course's ban on perpetual check and the 120-ply
capture-free rule are not applied (see the README).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, cast

import numpy as np

from xqdesk.egtb import kernels
from xqdesk.egtb.fileformat import TableHeader, read_values, table_path, write_table
from xqdesk.egtb.layout import Layout
from xqdesk.egtb.signature import Signature, build_order

LONG_MATE_PLIES = 120
"""Mates this long or longer are counted in the header: the 120-ply rule may draw them first."""


@dataclass(frozen=True)
class BuildReport:
    """What building one table did."""

    signature: str
    entries: int
    seconds: float
    bytes: int
    max_dtm: int
    long_mates: int
    counts: dict[str, int]
    built: bool
    """False when the file was already there and was kept."""


def summarize(values: np.ndarray) -> tuple[dict[str, int], int, int]:
    """``counts`` (win/loss/draw/illegal), the longest mate and how many mates take 120+ plies."""
    decided = values >= kernels.DTM_BASE
    dtm = values.astype(np.int64) - kernels.DTM_BASE
    wins = int(np.count_nonzero(decided & (dtm % 2 == 1)))
    losses = int(np.count_nonzero(decided & (dtm % 2 == 0)))
    counts = {"win": wins, "loss": losses, "draw": int(np.count_nonzero(values == kernels.DRAW)),
              "illegal": int(np.count_nonzero(values == kernels.ILLEGAL))}
    max_dtm = int(dtm[decided].max()) if decided.any() else 0
    long_mates = int(np.count_nonzero(decided & (dtm >= LONG_MATE_PLIES)))
    return counts, max_dtm, long_mates


def _capture_tables(layout: Layout, loaded: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The ``capture_*`` and ``sub_*`` arguments of :func:`kernels.solve_start` for ``layout``."""
    codes = [int(c) for c in layout.slot_codes]
    slots = len(codes)
    layouts: list[Layout] = []
    capture_map = np.full((max(slots, 1), max(slots, 1)), -1, np.int64)
    capture_flip = np.zeros(max(slots, 1), np.int8)
    for j in range(slots):
        rest = codes[:j] + codes[j + 1:]
        smaller = Signature(tuple(c for c in rest if c > 0), tuple(-c for c in rest if c < 0))
        canonical, flip = smaller.canonical()
        sub = Layout(canonical)
        layouts.append(sub)
        capture_flip[j] = flip
        taken = [False] * len(rest)
        sub_codes = [int(c) for c in sub.slot_codes]
        for i, code in enumerate(codes):
            if i == j:
                continue
            wanted = -code if flip else code
            k = next(k for k, c in enumerate(sub_codes) if c == wanted and not taken[k])
            taken[k] = True
            capture_map[j, i] = k
    width = max([sub.group_total for sub in layouts] + [1])
    count = max(slots, 1)
    sub_groups = np.zeros(count, np.int64)
    sub_first = np.zeros((count, width), np.int64)
    sub_size = np.zeros((count, width), np.int64)
    sub_stride = np.zeros((count, width), np.int64)
    sub_position = np.full((count, width, 90), -1, np.int16)
    sub_king_stride = np.ones(count, np.int64)
    sub_entries = np.zeros(count, np.int64)
    sub_offset = np.zeros(count, np.int64)
    chunks: list[np.ndarray] = []
    offsets: dict[str, int] = {}
    total = 0
    for j, sub in enumerate(layouts):
        g = sub.group_total
        sub_groups[j] = g
        sub_first[j, :g] = sub.group_first
        sub_size[j, :g] = sub.group_size
        sub_stride[j, :g] = sub.group_stride
        sub_position[j, :g] = sub.group_position[:g]
        sub_king_stride[j] = sub.king_stride
        sub_entries[j] = sub.size
        name = sub.signature.name()
        if name not in offsets:
            offsets[name] = total
            chunks.append(loaded[name].reshape(-1))
            total += loaded[name].size
        sub_offset[j] = offsets[name]
    sub_values = np.concatenate(chunks) if chunks else np.zeros(1, np.uint16)
    return (capture_map, capture_flip, sub_groups, sub_first, sub_size, sub_stride, sub_position,
            sub_king_stride, sub_entries, sub_offset, sub_values)


def solve(signature: Signature, loaded: dict[str, np.ndarray]) -> np.ndarray:
    """The values (``uint16[2, entries]``, codes of :mod:`xqdesk.egtb.kernels`) of a canonical
    signature, given the values of every table its captures lead to in ``loaded``."""
    layout = Layout(signature)
    arrays = (layout.slot_codes, layout.group_first, layout.group_size, layout.group_stride,
              layout.group_position, layout.group_sets, layout.king_stride, layout.group_total, layout.size)
    values = np.zeros((2, layout.size), np.uint16)
    counts = np.zeros((2, layout.size), np.uint8)
    bounds = np.zeros((2, layout.size), np.uint16)
    start = cast(Callable[..., int], kernels.solve_start)  # the kernel takes the arrays positionally
    anomalies = start(*arrays, *_capture_tables(layout, loaded), values, counts, bounds)
    if anomalies:
        raise RuntimeError(f"{signature.name()}: {anomalies} captures led to impossible entries of smaller tables")
    last_bound = int(bounds.max())
    level = 1
    while True:
        assigned = kernels.solve_level(level, *arrays, values, counts, bounds)
        if assigned == 0 and level >= last_bound:
            break
        level += 1
    return values


def build(signatures: list[Signature], directory: Path, *, rebuild: bool = False,
          progress: Optional[Callable[[BuildReport], None]] = None) -> list[BuildReport]:
    """Build the tables of ``signatures`` and of everything they capture into, smallest first,
    as ``SIGNATURE.xqtb`` files in ``directory``. Existing files are kept unless ``rebuild``
    (then only the requested signatures are rebuilt). ``progress`` is called after each table."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    requested = {s.canonical()[0].name() for s in signatures}
    loaded: dict[str, np.ndarray] = {}
    reports: list[BuildReport] = []
    for signature in build_order(signatures):
        name = signature.name()
        path = table_path(directory, name)
        if path.exists() and not (rebuild and name in requested):
            header, values = read_values(path, expected_entries=Layout(signature).size)
            loaded[name] = values
            report = BuildReport(name, header.entries, header.seconds, path.stat().st_size, header.max_dtm,
                                 header.long_mates, header.counts, built=False)
        else:
            needed = {s.name(): loaded[s.name()] for s in signature.captures()}
            started = time.perf_counter()
            values = solve(signature, needed)
            seconds = time.perf_counter() - started
            counts, max_dtm, long_mates = summarize(values)
            header = TableHeader(name, values.shape[1], 1 if max_dtm + kernels.DTM_BASE <= 255 else 2,
                                 max_dtm, long_mates, counts, seconds)
            size = write_table(path, header, values)
            loaded[name] = values
            report = BuildReport(name, values.shape[1], seconds, size, max_dtm, long_mates, counts, built=True)
        reports.append(report)
        if progress is not None:
            progress(report)
    return reports


WARM_UP_SIGNATURE = "KRK"
"""The table :func:`warm_up` solves: small (8,100 entries), yet it runs every solver kernel."""
WARM_UP_FEN = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
"""A position of that table for the probe."""


def warm_up() -> None:
    """Compile the solver's and the prober's code for this computer (numba caches it on disk, so
    a first ``build`` or probe after an install does not wait for it): solve ``KRK`` in a scratch
    folder and probe a position in it."""
    import tempfile

    from xqdesk.board import Board
    from xqdesk.egtb.probe import Tablebase

    with tempfile.TemporaryDirectory(prefix="xqdesk-egtb-") as folder:
        build([Signature.parse(WARM_UP_SIGNATURE)], Path(folder))
        tablebase = Tablebase(folder)
        board = Board(WARM_UP_FEN)
        tablebase.probe(board)
        tablebase.best_moves(board)
