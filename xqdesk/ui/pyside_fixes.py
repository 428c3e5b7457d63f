"""A workaround for a reference-count bug in the pinned PySide6 build.

PySide6-Essentials 6.12.0 returns ``True`` from ``SignalInstance.emit()`` without taking a reference
to it. Under CPython 3.11, where ``True`` is an ordinary counted object, every ``signal.emit(...)``
made from Python therefore removes one reference from ``True``; a fresh process holds only a few
hundred, so after that many emits CPython aborts with "bool_dealloc: deallocating True or False".

:func:`apply` measures the leak once with a private signal and, only when it is there, gives
``True`` and ``False`` a reserve of references large enough that no session can use it up (the
same thing CPython 3.12 does by making them immortal). With a fixed PySide6, or on Python 3.12+,
it changes nothing. It runs when this module is first imported; every module of the window that
emits signals imports it.
"""
from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

RESERVE = 1 << 40
"""References added to ``True`` and ``False`` when the leak is present (one is lost per emit)."""

_PROBE_EMITS = 16


class _Probe(QObject):
    fired = Signal()


def emit_leaks_references() -> bool:
    """Whether ``SignalInstance.emit`` drops a reference to ``True`` on this installation."""
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(_PROBE_EMITS):
        probe.fired.emit()
    lost = before - sys.getrefcount(True)
    for _ in range(max(lost, 0)):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))  # give back what the probe took
    return lost >= _PROBE_EMITS


_applied = False


def apply() -> bool:
    """Protect ``True``/``False`` from the leak if this PySide6 has it; True when it did."""
    global _applied
    if _applied:
        return True
    if not emit_leaks_references():
        return False
    for value in (True, False):
        ctypes.c_ssize_t.from_address(id(value)).value += RESERVE
    _applied = True
    return True


apply()
