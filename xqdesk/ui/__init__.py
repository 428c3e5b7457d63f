"""The desktop window (PySide6). Nothing outside this package imports it except the application
layer (``xqdesk.cli``, ``xqdesk.compat``, ``main.py``).

Importing the package first guards against two reference-count bugs of the pinned PySide6 build:
signal emits that drop a reference to ``True`` (see :mod:`xqdesk.ui.pyside_fixes`) and calls of
``void`` C++ methods (``setItem``, ``QTimer.singleShot``, ``QPainter.drawLine`` …) that return
``None`` without taking a reference to it. Under CPython 3.11 ``None`` is an ordinary counted
object, so a window that paints and updates tables for a while would otherwise abort with
"none_dealloc: deallocating None". :func:`protect_none` measures the leak once and, only when it is
there, gives ``None`` a reserve of references no session can use up (as CPython 3.12 makes it
immortal).
"""
from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject

from xqdesk.ui import pyside_fixes  # noqa: F401  (guards signal emits against the True leak)

NONE_RESERVE = 1 << 40
_PROBE_CALLS = 16


def void_calls_leak_none() -> bool:
    """Whether a ``void`` method call through PySide6 drops a reference to ``None`` here."""
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(_PROBE_CALLS):
        probe.setObjectName("probe")
    lost = before - sys.getrefcount(None)
    for _ in range(max(lost, 0)):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))  # give back what the probe took
    return lost >= _PROBE_CALLS


def protect_none() -> bool:
    """Give ``None`` its reserve if this PySide6 leaks it; True when it did."""
    if not void_calls_leak_none():
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += NONE_RESERVE
    return True


protect_none()
