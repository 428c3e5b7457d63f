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

Reading the header is cheap; the values are inflated only when first needed.
"""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from xqdesk.errors import InputError

MAGIC = b"XQTB\x00\x01\r\n"
SUFFIX = ".xqtb"


class TableFileError(InputError):
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


def _read_header_bytes(stream: Any, path: Path) -> TableHeader:
    if stream.read(len(MAGIC)) != MAGIC:
        raise TableFileError(f"{path}: not an xqdesk tablebase file (bad magic)")
    raw = stream.read(4)
    if len(raw) != 4:
        raise TableFileError(f"{path}: truncated header")
    (length,) = struct.unpack("<I", raw)
    try:
        data = json.loads(stream.read(length).decode("utf-8"))
        header = TableHeader(str(data["signature"]), int(data["entries"]), int(data["value_bytes"]),
                             int(data["max_dtm"]), int(data["long_mates"]),
                             {k: int(v) for k, v in data["counts"].items()}, float(data["seconds"]))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise TableFileError(f"{path}: bad header ({error})") from None
    if header.value_bytes not in (1, 2) or data.get("compression") != "zlib":
        raise TableFileError(f"{path}: unsupported value width or compression in header")
    return header


def read_header(path: Path) -> TableHeader:
    """The header of a table file; raises TableFileError."""
    with open(path, "rb") as stream:
        return _read_header_bytes(stream, path)


def read_values(path: Path) -> tuple[TableHeader, np.ndarray]:
    """The header and the values (``uint16[2, entries]``) of a table file; raises TableFileError."""
    with open(path, "rb") as stream:
        header = _read_header_bytes(stream, path)
        try:
            raw = zlib.decompress(stream.read())
        except zlib.error as error:
            raise TableFileError(f"{path}: damaged values ({error})") from None
    dtype = np.dtype("<u1") if header.value_bytes == 1 else np.dtype("<u2")
    if len(raw) != 2 * header.entries * dtype.itemsize:
        raise TableFileError(f"{path}: {len(raw)} bytes of values, expected {2 * header.entries * dtype.itemsize}")
    return header, np.frombuffer(raw, dtype).astype(np.uint16).reshape(2, header.entries)
