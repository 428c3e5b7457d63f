"""The referee's guard (``xqdesk match``, ``tournament`` and ``play`` run inside it): two races a busy
machine once lost, each made certain here."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from xqdesk.engines.transport import process as process_module
from xqdesk.engines.transport.process import SHIELDED, LineProcess
from xqdesk.engines.transport.referee_guard import guard_supported, sweep_escaped

pytestmark = pytest.mark.skipif(not (SHIELDED and guard_supported()), reason="the referee's guard needs Linux")
REPO = Path(__file__).resolve().parent.parent


def test_an_engine_forked_but_not_yet_recorded_is_not_swept(monkeypatch) -> None:
    """A sweep that looks between an engine's fork and its record once killed the engine as an
    escaped process (a match ended with exit code 2 at its first engine start)."""
    real_popen = subprocess.Popen
    sweeps: list[threading.Thread] = []
    swept: list[int] = []

    def popen_then_sweep(*args, **kwargs):  # the child exists, its record is not made yet
        child = real_popen(*args, **kwargs)
        sweeper = threading.Thread(target=lambda: swept.extend(sweep_escaped()))
        sweeper.start()
        sweeper.join(1.0)
        sweeps.append(sweeper)
        return child

    monkeypatch.setattr(process_module.subprocess, "Popen", popen_then_sweep)
    engine = LineProcess([sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.undo()
    try:
        for sweeper in sweeps:
            sweeper.join(10.0)
        assert sweeps and engine.pid not in swept and engine.is_alive()  # others' leftovers may be swept
    finally:
        engine.close(grace=0.1)


SENDER_GONE = textwrap.dedent("""
    import signal, subprocess, sys, time
    from xqdesk.engines.transport import referee_guard

    obeyed = []
    signal.signal(signal.SIGTERM, lambda number, frame: obeyed.append(number))
    look_now = referee_guard.is_descendant
    child = None

    def look_late(pid, root):  # the guard gets to the signal only after its sender has ended
        child.wait()
        return look_now(pid, root)

    referee_guard.is_descendant = look_late
    with referee_guard.guard_referee():
        child = subprocess.Popen([sys.executable, "-c",
                                  "import os, signal, time; time.sleep(1); os.kill(os.getppid(), signal.SIGTERM)"])
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline and not obeyed:
            time.sleep(0.05)
    print("obeyed" if obeyed else "not obeyed")
""")


def test_a_signal_from_an_engine_that_has_ended_is_still_ignored() -> None:
    """An engine that signals the referee and then moves illegally is killed at once; on a busy
    machine the guard looked at the signal after that, found no sender, and obeyed it (the match
    stopped with 130)."""
    done = subprocess.run([sys.executable, "-c", SENDER_GONE], capture_output=True, text=True, timeout=60,
                          cwd=REPO, start_new_session=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "not obeyed", done.stderr
    assert "ignored SIGTERM from process" in done.stderr
