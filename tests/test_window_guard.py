"""Window games under the referee's guard: an engine can neither kill the window nor outlive it.

Each game runs in a window process of its own (``tests/window_game.py``, started in a session of
its own: an engine here signals the window's whole process group)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.engines.transport.process import SHIELDED
from xqdesk.engines.transport.referee_guard import guard_supported

pytestmark = [pytest.mark.engines, pytest.mark.skipif(not (SHIELDED and guard_supported()), reason="the guard needs Linux")]
TESTS = Path(__file__).resolve().parent
SCRIPTS = TESTS / "players" / "uci_scripts"
ORDINARY = TESTS / "players" / "ordinary"
SETTLING_SECONDS = 30.0


def window_game(tmp_path: Path, red: str, black: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(TESTS.parent), QT_QPA_PLATFORM="offscreen",
               XQDESK_TEST_PID_FILE=str(tmp_path / "pids"))
    return subprocess.run([sys.executable, str(TESTS / "window_game.py"), red, black, str(tmp_path)], env=env,
                          cwd=TESTS.parent, capture_output=True, text=True, timeout=HANG_GUARD,
                          start_new_session=True)


def processes_running(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker.encode() not in cmdline.read():
                    continue
            with open(f"/proc/{entry}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z":
                    found.append(int(entry))
        except OSError:
            continue
    return found


def test_an_engine_that_signals_the_window_cannot_kill_it(tmp_path: Path) -> None:
    """SIGTERM, SIGINT and SIGHUP to the window (the engine's grandparent) and SIGTERM to its process
    group, on every move: the window takes no notice, and the game ends with the engine's verdict
    (it plays h2e2 again on its second move: illegal)."""
    done = window_game(tmp_path, f"uci:{SCRIPTS / 'signals_referee.py'}", f"player:{ORDINARY}")
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr[-3000:])
    assert done.stdout.splitlines()[0] == "guarded"
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        assert f"ignored {name} from process" in done.stderr
    assert "verdict: Red moves illegally, Black wins!" in done.stdout, done.stdout


def test_an_engine_that_kills_its_shield_does_not_outlive_the_window(tmp_path: Path) -> None:
    """The engine detaches a sleeper and SIGKILLs its shield: both come to the window, which kills
    them; once the window has closed no process of the engine is left."""
    engine = tmp_path / "kills_shield_here.py"  # a path of its own: its processes are found by it
    shutil.copy(SCRIPTS / "kills_shield.py", engine)
    engine.chmod(0o755)
    done = window_game(tmp_path, f"uci:{engine}", f"player:{ORDINARY}")
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr[-3000:])
    assert (tmp_path / "pids").read_text().split(), "the engine never detached its sleeper"
    # Everything is swept before the window's process ends; the wait only lets the kernel finish the
    # killing on a busy machine, and stays well below the sleeper's own 120 s.
    deadline = time.monotonic() + SETTLING_SECONDS
    while processes_running(str(engine)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_running(str(engine)) == []
    assert done.stdout.splitlines()[0] == "guarded" and "escaped its engine's tree" in done.stderr
