"""The pinned PySide6 keeps CPython's reference counts: many emits and void calls do not abort.

PySide6-Essentials 6.12.0 dropped a reference to ``True`` per signal emit and to ``None`` per void
method call, so a window died with "bool_dealloc"/"none_dealloc" after a few hundred of them.
"""
from __future__ import annotations

import subprocess
import sys

from hang_guard import HANG_GUARD

PROGRAM = """
import sys
import xqdesk.ui
from PySide6.QtCore import QObject, Signal
class Source(QObject):
    changed = Signal(object)
    flag = Signal(bool)
source = Source()
received = []
source.changed.connect(received.append)
source.flag.connect(lambda value: None)
none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
for n in range(20000):
    source.changed.emit(n)
    source.flag.emit(True)
    source.setObjectName("probe")
print(len(received), none_before - sys.getrefcount(None) < 100, true_before - sys.getrefcount(True) < 100)
"""


def test_many_emits_and_void_calls_keep_reference_counts():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["20000", "True", "True"]
