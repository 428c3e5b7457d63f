"""Writing a file so that it is always either the whole old file or the whole new one.

Every record writer goes through :func:`atomic_output` (or :func:`write_bytes_atomically` /
:func:`write_text_atomically`): the new content goes to a temporary file beside the target
(``.NAME.XXXXXXXX.tmp``, same folder, so same file system), which is flushed, ``fsync``-ed and then
renamed over the target; the folder is ``fsync``-ed too, so the rename itself survives a power cut.
The new file keeps the old one's permission bits (a new file gets the usual ones, under the umask);
a symlink is followed, so the file it points to is replaced and the link stays.

On any failure (a full disk, a file size limit, no permission, a folder that is gone) the temporary
file is removed, the target is left byte-identical, and :class:`FileWriteError` names the file and
says why in words a person understands (``the disk is full``).
"""
from __future__ import annotations

import errno
import io
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, TextIO

from xqdesk.errors import XqdeskError

_REASONS = {
    errno.ENOSPC: "the disk is full",
    getattr(errno, "EDQUOT", -1): "the disk quota is used up",
    errno.EFBIG: "the file would be larger than the system lets this program write (file size limit)",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the disk is read-only",
    errno.ENOENT: "its folder does not exist",
    errno.ENOTDIR: "a folder on the way is a file",
    errno.EISDIR: "it is a folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "the disk reported an input/output error",
}


def write_failure_reason(error: OSError) -> str:
    """Why a write failed, in words (``'the disk is full'``, ``'permission denied'`` …)."""
    reason = _REASONS.get(error.errno or 0)
    if reason is not None:
        return reason
    return error.strerror or str(error)


class FileWriteError(XqdeskError, OSError):
    """A file could not be written; the old file, if there was one, is unchanged.

    ``str()`` is ``cannot write NAME: REASON (the old file is unchanged)``; ``path`` is the target,
    ``reason`` the why alone; ``errno`` the system's error number (it is an ``OSError`` too)."""

    def __init__(self, path: Path, reason: str, error_number: int | None = None, existed: bool = False) -> None:
        self.path = path
        self.reason = reason
        kept = " (the old file is unchanged)" if existed else ""
        super().__init__(error_number or 0, f"cannot write {path.name}: {reason}{kept}")

    def __str__(self) -> str:
        return str(self.args[1])


def _real_target(path: Path) -> Path:
    """The file to replace: a symlink's target (so the link stays a link), else ``path``."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _create_beside(target: Path, mode: int | None) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s folder, opened for writing."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            descriptor = os.open(temporary, flags, 0o666)  # the umask applies, as for any new file
        except FileExistsError:
            continue
        if mode is not None:
            try:
                os.fchmod(descriptor, stat.S_IMODE(mode))
            except OSError:  # a file system without permission bits: the defaults do
                pass
        return descriptor, temporary


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system can open a folder to sync it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


@contextmanager
def _straight_into(path: Path, target: Path) -> Iterator[BinaryIO]:
    """``target``, which is no regular file (``/dev/full``, a named pipe, a terminal), opened and
    written as it is: it has no content to keep whole, and a file put in its place would break
    it. Failures raise :class:`FileWriteError`."""
    try:
        handle = open(target, "wb")
    except OSError as error:
        raise FileWriteError(path, write_failure_reason(error), error.errno) from error
    try:
        with handle:
            yield handle
            handle.flush()
    except OSError as error:
        raise FileWriteError(path, write_failure_reason(error), error.errno) from error


@contextmanager
def atomic_output(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content to; it replaces ``path`` when the ``with``
    block ends without an exception. An exception in the block, or a failure while writing,
    syncing or renaming, leaves ``path`` as it was (a failure to write raises
    :class:`FileWriteError`; an exception of the block's own passes through unchanged)."""
    path = Path(path)
    target = _real_target(path)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise FileWriteError(path, write_failure_reason(error), error.errno) from error
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise FileWriteError(path, "it is a folder", errno.EISDIR)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with _straight_into(path, target) as device:  # a device, a pipe: written, never replaced
            yield device
        return
    existed = existing is not None and stat.S_ISREG(existing.st_mode)
    try:
        descriptor, temporary = _create_beside(target, existing.st_mode if existed and existing else None)
    except OSError as error:
        raise FileWriteError(path, write_failure_reason(error), error.errno, existed) from error
    handle = os.fdopen(descriptor, "wb")
    finished = False
    try:
        try:
            yield handle
        except OSError as error:
            raise FileWriteError(path, write_failure_reason(error), error.errno, existed) from error
        try:
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
            os.replace(temporary, target)
        except OSError as error:
            raise FileWriteError(path, write_failure_reason(error), error.errno, existed) from error
        finished = True
        _sync_folder(target.parent)
    finally:
        if not finished:
            try:
                handle.close()
            except OSError:
                pass  # the buffer could not be flushed: the disk is full, and the file goes anyway
            try:
                os.unlink(temporary)
            except OSError:
                pass


@contextmanager
def atomic_text_output(path: str | Path, encoding: str = "utf-8", errors: str = "strict") -> Iterator[TextIO]:
    """:func:`atomic_output` for text in ``encoding`` (``\\n`` written as it is)."""
    with atomic_output(path) as binary:
        text = io.TextIOWrapper(binary, encoding=encoding, errors=errors, newline="")
        yield text
        text.flush()
        text.detach()


def write_bytes_atomically(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data``, whole or not at all (see the module docstring)."""
    with atomic_output(path) as handle:
        handle.write(data)


def write_text_atomically(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` in ``encoding``, whole or not at all. The text is encoded
    before anything is written, so a character the encoding lacks leaves the file untouched too."""
    write_bytes_atomically(path, text.encode(encoding))


__all__ = ["FileWriteError", "atomic_output", "atomic_text_output", "write_bytes_atomically",
           "write_text_atomically", "write_failure_reason"]
