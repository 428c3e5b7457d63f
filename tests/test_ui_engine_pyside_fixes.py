"""The PySide6 emit reference leak cannot bring the process down (see xqdesk.ui.pyside_fixes)."""
from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import sys
import xqdesk.ui.pyside_fixes
from PySide6.QtCore import QObject, Signal
class Source(QObject):
    changed = Signal(object)
source = Source()
received = []
source.changed.connect(received.append)
for n in range(20000):
    source.changed.emit(n)
print(len(received))
"""


def test_many_emits_do_not_abort_the_interpreter():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "20000"
