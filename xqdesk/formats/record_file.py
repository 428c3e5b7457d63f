"""Reading the bytes of a record file safely: regular files only, and at most a size cap.

A FIFO would block forever, ``/dev/zero`` never ends, a directory or a symlink loop is no file at
all: each is refused with an error that says what the path really is, before anything is read.
A file read whole (a binary XQF or XiangQi Bridge file, a web page, XML …) over the cap is refused
rather than read, so no input can take unbounded memory; PGN and FEN files are read a game at a
time (:mod:`~xqdesk.formats.game_stream`) and have no size limit.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from xqdesk.errors import RecordFormatError

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read whole (16 MiB), and the longest text a PGN or FEN file may hold
without a new game starting; PGN and FEN files themselves may be of any size."""

_CHUNK = 1 << 16
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


class RecordFileError(RecordFormatError):
    """A path that cannot be read as a record file: missing, not a regular file, unreadable, or
    over the size cap. ``str()`` names the file and says why; ``reason`` is just why."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name}: {reason}")


def path_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a readable regular file (``'no such file or folder'``, ``'a FIFO …'``,
    ``'a symlink loop'`` …), or None when it is one. Never blocks and never raises."""
    try:
        info = os.stat(path)
    except OSError as error:
        return _os_reason(error)
    except ValueError as error:  # an embedded NUL byte
        return f"not a usable path ({error})"
    if stat.S_ISREG(info.st_mode):
        return None
    return f"not a regular file but {_kind(info.st_mode)}"


def read_record_bytes(path: str | Path, max_bytes: int = MAX_RECORD_BYTES, head: bool = False) -> bytes:
    """The bytes of the regular file at ``path`` (only the first ``max_bytes`` when ``head``).

    Raises :class:`RecordFileError` naming the file for a missing path, a folder, FIFO, device,
    socket or symlink loop, a file that cannot be read, and (unless ``head``) a file larger than
    ``max_bytes``."""
    name = Path(path).name or str(path)
    with open_record_file(path) as handle:
        info = os.fstat(handle.fileno())
        if not head and info.st_size > max_bytes:
            raise RecordFileError(name, f"{info.st_size:,} bytes is larger than the {max_bytes:,} bytes a "
                                        f"record file may have")
        try:  # ask for what the file says it holds (read(n) reserves n bytes first), then any more
            limit = max_bytes + (0 if head else 1)
            asked = min(info.st_size, max_bytes) + 1
            chunks = [handle.read(asked)]
            size = len(chunks[0])
            while size == asked and size < limit and (chunk := handle.read(min(_CHUNK, limit - size))):
                chunks.append(chunk)  # a file that grew, or one (like /proc's) that says it is empty
                size += len(chunk)
                asked = size
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)[:limit]
        except OSError as error:
            raise RecordFileError(name, _os_reason(error)) from None
    if not head and len(data) > max_bytes:  # it grew while being read
        raise RecordFileError(name, f"larger than the {max_bytes:,} bytes a record file may have")
    return data


def open_record_file(path: str | Path) -> BinaryIO:
    """The regular file at ``path``, open for reading bytes (the caller closes it). Raises
    :class:`RecordFileError` naming the file for a missing path, a folder, FIFO, device, socket
    or symlink loop, or a file that cannot be opened; never blocks."""
    name = Path(path).name or str(path)
    problem = path_problem(path)
    if problem is not None:
        raise RecordFileError(name, problem)
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the check, opening does not hang.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise RecordFileError(name, _os_reason(error)) from None
    handle = os.fdopen(descriptor, "rb")
    info = os.fstat(handle.fileno())
    if not stat.S_ISREG(info.st_mode):
        handle.close()
        raise RecordFileError(name, f"not a regular file but {_kind(info.st_mode)}")
    return handle


def _kind(mode: int) -> str:
    for test, text in _KINDS:
        if test(mode):
            return text
    return "a special file"


def _os_reason(error: OSError) -> str:
    if error.errno == errno.ENOENT:
        return "no such file or folder"
    if error.errno == errno.ELOOP:
        return "a symlink loop (the link leads back to itself)"
    if error.errno == errno.EACCES:
        return "permission denied"
    if error.errno == errno.ENOTDIR:
        return "a folder on the way is a file"
    if error.errno == errno.ENAMETOOLONG:
        return "the name is too long"
    return error.strerror or str(error)
