"""The on-disk format of one table: ``<SIGNATURE>.xqtb``.

A file is three parts:

1. the 8 bytes ``b"XQTB\\x00\\x01\\r\\n"`` (name, format version 1);
2. a 4-byte little-endian length, then that many bytes of UTF-8 JSON, the header:
   ``signature`` (e.g. ``"KRKAABB"``), ``entries`` (per side to move, see
   :class:`xqdesk.egtb.layout.Layout`), ``value_bytes`` (1 or 2), ``compression`` (``"zlib"``),
   ``max_dtm``, ``long_mates`` (positions whose mate takes 120 plies or more), ``counts`` (``win``,
   ``loss``, ``draw``, ``illegal`` over both sides), ``seconds`` (generation time);
3. the zlib stream of ``2 * entries`` unsigned little-endian integers of ``value_bytes`` each: all
   Red-to-move entries in index order, then all Black-to-move entries. Each is ``0`` draw, ``1``
   no such position, or ``2 + d`` for mate in ``d`` plies (``d`` odd: the side to move wins;
   ``d`` even: it is mated).

Reading the header is cheap; the values are inflated only when first needed. A file is checked
before it is used: only a regular file is opened, the header must be small, whole numbers where it
has counts (no ``Infinity`` or ``NaN``), and the compressed size must fit the size the header gives;
inflating stops at that size.
"""
from __future__ import annotations

import json
import math
import os
import stat
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

MAGIC = b"XQTB\x00\x01\r\n"
SUFFIX = ".xqtb"


class TableFileError(ValueError):
    """A table file that is not in this format or is damaged."""


@dataclass(frozen=True)
class TableHeader:
    """What a table file says about itself (part 2 of the format)."""

    signature: str
    entries: int
    value_bytes: int
    max_dtm: int
    long_mates: int
    counts: dict[str, int]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"signature": self.signature, "entries": self.entries, "value_bytes": self.value_bytes,
                "compression": "zlib", "max_dtm": self.max_dtm, "long_mates": self.long_mates,
                "counts": self.counts, "seconds": round(self.seconds, 3)}


def table_path(directory: Path, signature_name: str) -> Path:
    """Where the table of ``signature_name`` lives in ``directory``."""
    return Path(directory) / (signature_name + SUFFIX)


def write_table(path: Path, header: TableHeader, values: np.ndarray) -> int:
    """Write ``values`` (``uint16[2, entries]``) with ``header``; return the file's size in bytes."""
    dtype = np.dtype("<u1") if header.value_bytes == 1 else np.dtype("<u2")
    payload = zlib.compress(np.ascontiguousarray(values).astype(dtype).tobytes(), 6)
    text = json.dumps(header.to_json(), sort_keys=True).encode("utf-8")
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as stream:
        stream.write(MAGIC)
        stream.write(struct.pack("<I", len(text)))
        stream.write(text)
        stream.write(payload)
    temporary.replace(path)
    return path.stat().st_size


MAX_HEADER_BYTES = 64 * 1024
"""A header longer than this is refused (a real one is a few hundred bytes)."""
_READ_CHUNK = 1 << 20
_ZLIB_SLACK = 1024
"""Bytes a zlib stream may exceed its inflated size by (zlib's worst case is 5 bytes per 16 KiB
block plus a few: a larger stream cannot be a table's and is refused before it is read)."""


def _open_table(path: Path) -> BinaryIO:
    """``path`` opened for reading when it is a regular file; a folder, FIFO, device or socket
    named like a table is refused without being opened for reading (a FIFO would block)."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise TableFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        raise TableFileError(f"{path}: not a table file but {_kind(info.st_mode)}")
    try:  # O_NONBLOCK: a path swapped for a FIFO since the check does not hang the open
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise TableFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    stream = os.fdopen(descriptor, "rb")
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        stream.close()
        raise TableFileError(f"{path}: not a table file")
    return stream


def _kind(mode: int) -> str:
    for test, text in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return text
    return "a special file"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a table's header may hold")


def _count(data: dict[str, Any], key: str) -> int:
    """A whole number of the header, at least 0 (JSON allows 1e400 and 2.5; a table does not)."""
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key} is {value!r}, not a whole number of at least 0")
    return value


def _read_header_bytes(stream: Any, path: Path) -> TableHeader:
    if stream.read(len(MAGIC)) != MAGIC:
        raise TableFileError(f"{path}: not an xqdesk tablebase file (bad magic)")
    raw = stream.read(4)
    if len(raw) != 4:
        raise TableFileError(f"{path}: truncated header")
    (length,) = struct.unpack("<I", raw)
    if length > MAX_HEADER_BYTES:
        raise TableFileError(f"{path}: a header of {length:,} bytes (at most {MAX_HEADER_BYTES:,}): damaged")
    text = stream.read(length)
    if len(text) != length:
        raise TableFileError(f"{path}: truncated header ({len(text)} of {length} bytes)")
    try:
        data = json.loads(text.decode("utf-8"), parse_constant=_refuse_constant)
        if not isinstance(data, dict) or not isinstance(data.get("counts"), dict):
            raise ValueError("the header is not an object with counts")
        seconds = data["seconds"]
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
            raise ValueError(f"seconds is {seconds!r}")
        header = TableHeader(str(data["signature"]), _count(data, "entries"), _count(data, "value_bytes"),
                             _count(data, "max_dtm"), _count(data, "long_mates"),
                             {str(k): _count(data["counts"], k) for k in data["counts"]}, float(seconds))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise TableFileError(f"{path}: bad header ({error})") from None
    if header.value_bytes not in (1, 2) or data.get("compression") != "zlib":
        raise TableFileError(f"{path}: unsupported value width or compression in header")
    if header.entries == 0:
        raise TableFileError(f"{path}: the header gives no entries")
    return header


def read_header(path: Path) -> TableHeader:
    """The header of a table file; raises TableFileError (also for a folder or FIFO named like one)."""
    with _open_table(path) as stream:
        return _read_header_bytes(stream, path)


def read_values(path: Path, expected_entries: int | None = None) -> tuple[TableHeader, np.ndarray]:
    """The header and the values (``uint16[2, entries]``) of a table file; raises TableFileError.

    Everything is checked before the values are inflated: the header (``expected_entries``, when
    given, must match it), and the compressed size against the inflated size the header gives.
    Inflating stops at that size, so a damaged or hostile file never makes more than the header's
    (checked) number of bytes."""
    with _open_table(path) as stream:
        header = _read_header_bytes(stream, path)
        if expected_entries is not None and header.entries != expected_entries:
            raise TableFileError(f"{path}: {header.entries} entries, expected {expected_entries}")
        dtype = np.dtype("<u1") if header.value_bytes == 1 else np.dtype("<u2")
        expected = 2 * header.entries * dtype.itemsize
        compressed = os.fstat(stream.fileno()).st_size - stream.tell()
        if compressed > expected + expected // 1000 + _ZLIB_SLACK:
            raise TableFileError(f"{path}: {compressed:,} bytes of compressed values for {expected:,} bytes of "
                                 f"values: damaged")
        raw = _inflate(stream, expected, path)
    return header, np.frombuffer(raw, dtype).astype(np.uint16).reshape(2, header.entries)


def _inflate(stream: BinaryIO, expected: int, path: Path) -> bytes:
    """The zlib stream from ``stream`` inflated, which must be exactly ``expected`` bytes: never
    more than ``expected + 1`` bytes are made, whatever the stream says."""
    inflater = zlib.decompressobj()
    out = bytearray()
    try:
        while not inflater.eof:
            chunk = inflater.unconsumed_tail or stream.read(_READ_CHUNK)
            if not chunk:
                break
            out += inflater.decompress(chunk, expected + 1 - len(out))
            if len(out) > expected:
                raise TableFileError(f"{path}: the values inflate to more than the {expected:,} bytes the header "
                                     f"gives: damaged")
    except zlib.error as error:
        raise TableFileError(f"{path}: damaged values ({error})") from None
    if not inflater.eof or len(out) != expected:
        raise TableFileError(f"{path}: {len(out)} bytes of values, expected {expected}")
    if inflater.unused_data or stream.read(1):
        raise TableFileError(f"{path}: bytes after the end of the values: damaged")
    return bytes(out)
