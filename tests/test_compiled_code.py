"""The engines' compiled code prepared before a first move: the stamp, the lock, the progress lines,
the command line's message and the window's status bar. Each test has a cache folder of its own
(``XDG_CACHE_HOME``), so xqdesk sees a first start; numba's own cache is left as it is, so the
kernels are compiled at most once in the suite."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from filelock import FileLock
from hang_guard import HANG_GUARD

from xqdesk.engines import compile_state
from xqdesk.engines.compiled_code import (
    Progress,
    _ProgressTracker,
    compile_lock,
    is_ready,
    kinds_needed,
    locked_warm_up,
    parse_progress_line,
    progress_line,
)
from xqdesk.engines.spec import host_command

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]


def _lock_holder(released: Path, package_folder: str = "") -> subprocess.Popen:
    """A process that holds the compile lock (of the installation in ``package_folder``, this one by
    default) until it reads a line, then writes ``released`` and lets go."""
    pretend = f"compile_state._package_folder = lambda: Path({package_folder!r})\n" if package_folder else ""
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sys\n"
                               "from pathlib import Path\n"
                               "from xqdesk.engines import compile_state\n"
                               + pretend +
                               "with compile_state.compile_lock():\n"
                               "    print('holding', flush=True)\n"
                               "    sys.stdin.readline()\n"
                               f"    Path({str(released)!r}).touch()\n"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    return holder


@pytest.fixture
def first_start(tmp_path, monkeypatch) -> Path:
    """A cache folder with no stamp in it (for this process and the processes it starts)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_engine_specs_name_the_code_they_run():
    assert kinds_needed(["builtin:Hash=16", "uci:/usr/games/fairy-stockfish", None, 3]) == ["builtin"]
    assert kinds_needed([["random", "mcts:Playouts=10", "fog-ubsa"], "zero", "builtin"]) == ["mcts", "builtin", "zero"]
    assert kinds_needed(["player:students/player_1", "greedy", "uci:/usr/games/fairy-stockfish"]) == []
    assert kinds_needed(["egtb:tables"]) == ["egtb"]
    # names of the engine registry: those that run xqdesk's engine host need its code
    named = {"strong": host_command("builtin"), "fairy": ("/usr/games/fairy-stockfish",),
             "tree": host_command("mcts"), "students": host_command("player", "students/player_1.py")}
    assert kinds_needed(["strong", "fairy", "unknown", "students"], named) == ["builtin"]
    assert kinds_needed([["fairy", "tree"], "zero"], named) == ["mcts", "zero"]
    assert kinds_needed(["random"], {"random": host_command("builtin")}) == []  # a SPEC is not a name


def test_a_progress_line_reads_back_and_bad_lines_are_not_progress():
    progress = Progress("builtin", 0.5, 12.3, "compiling the built-in engine", 9.5)
    assert parse_progress_line(progress_line(progress) + "\n") == Progress("builtin", 0.5, 12.3,
                                                                           "compiling the built-in engine", 9.5)
    for line in ("", "progress", "progress chess 0.5 1 2 x", "progress builtin half 1 2 x", "Traceback (most recent"):
        assert parse_progress_line(line) is None
    assert Progress("builtin", 1.0, 20.0, "", 5.0).seconds_left() == 0.0
    assert Progress("builtin", 0.5, 20.0, "", 0.2).seconds_left() == 1.0


def test_the_time_left_stays_honest_while_a_compilation_is_slower_than_usual(monkeypatch):
    reports: list[Progress] = []
    tracker = _ProgressTracker("builtin", reports.append)
    cpu = [1.0]
    monkeypatch.setattr(tracker, "_cpu", lambda: cpu[0])
    tracker.started -= 100.0  # 100 s on the clock, so the share of a core is the CPU time over 100 s
    tracker.send(0.0)
    for cpu[0] in (5.0, 15.0, 30.0):  # the first milestone (quiesce, half-way) not reached yet
        tracker._send()
    assert [report.fraction for report in reports[1:]] == [0.25, 0.49, 0.49]
    # stuck below half-way: at least as long again as so far, not a count down to 1 s
    assert all(report.left >= 0.99 * report.elapsed for report in reports[2:])  # (before: a third of it)
    tracker.on_compiled("quiesce")
    assert reports[-1].fraction == 0.5 and reports[-1].left > 0


def test_a_warm_up_stamps_its_code_ready_and_waits_for_a_compilation_elsewhere(first_start):
    assert not is_ready("builtin")
    locked_warm_up("random", lambda: None)  # no compiled code: nothing stamped
    assert not is_ready("builtin") and not list(first_start.rglob("*.ready"))

    # another process holds the lock while it compiles: the warm-up waits until it lets go
    released = first_start.parent / "released"
    holder = _lock_holder(released)
    ran: list[bool] = []  # whether the holder had let go when the warm-up ran
    waiting = threading.Thread(target=locked_warm_up, args=("fog-ubsa", lambda: ran.append(released.exists())))
    waiting.start()
    waiting.join(0.5)
    assert not ran  # still waiting (no timing: a slow machine only makes this weaker)
    holder.communicate("release\n", timeout=HANG_GUARD)
    waiting.join(HANG_GUARD)
    assert ran == [True]
    assert is_ready("builtin") and not is_ready("mcts")

    # the lock is re-entrant within a thread (prepare holds it around the engine's own warm-up)
    with compile_lock(), compile_lock():
        pass


def test_another_installation_compiles_without_waiting_for_this_one(first_start):
    holder = _lock_holder(first_start.parent / "released", package_folder=str(first_start.parent / "elsewhere"))
    try:  # this installation's lock is free while the other one's is held
        with FileLock(str(compile_state.cache_folder() / compile_state._lock_name()), timeout=0):
            pass
    finally:
        holder.communicate("release\n", timeout=HANG_GUARD)


def test_a_changed_engine_file_makes_the_code_not_ready(first_start, monkeypatch):
    locked_warm_up("builtin", lambda: None)
    assert is_ready("builtin")
    monkeypatch.setattr(compile_state, "_source_stamp", lambda: "another-build")
    assert not is_ready("builtin")


def test_the_command_line_says_what_it_prepares_once(first_start):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "xqdesk", "analyse", "--engine", "builtin", "--depth", "2"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=first_start.parent)
    assert first.returncode == 0, first.stderr
    assert "Preparing the built-in engine for this computer" in first.stderr
    assert "Ready after" in first.stderr
    assert "Best move:" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=first_start.parent)
    assert again.returncode == 0 and "Preparing" not in again.stderr
    others = subprocess.run([sys.executable, "-m", "xqdesk", "analyse", "--engine", "greedy", "--depth", "1"],
                            capture_output=True, text=True, env=env, timeout=HANG_GUARD, cwd=first_start.parent)
    assert others.returncode == 0 and "Preparing" not in others.stderr


def test_xqdesk_prepare_makes_the_code_ready_that_the_first_engine_command_then_finds(first_start):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    prepared = subprocess.run([sys.executable, "-m", "xqdesk", "prepare", "builtin", "egtb"], capture_output=True,
                              text=True, env=env, timeout=600, cwd=first_start.parent)
    assert prepared.returncode == 0, prepared.stderr
    assert "Preparing the built-in engine and the tablebase solver for this computer" in prepared.stderr
    assert prepared.stdout.strip() == "prepared: the built-in engine, the tablebase solver"
    assert is_ready("builtin") and is_ready("egtb") and not is_ready("mcts")
    first_move = subprocess.run([sys.executable, "-m", "xqdesk", "analyse", "--engine", "builtin", "--depth", "1"],
                                capture_output=True, text=True, env=env, timeout=HANG_GUARD, cwd=first_start.parent)
    assert first_move.returncode == 0 and "Best move:" in first_move.stdout
    assert "Preparing" not in first_move.stderr  # found ready
    again = subprocess.run([sys.executable, "-m", "xqdesk", "prepare", "builtin"], capture_output=True, text=True,
                           env=env, timeout=HANG_GUARD, cwd=first_start.parent)
    assert again.returncode == 0 and again.stdout.strip() == "already prepared: the built-in engine"
    unknown = subprocess.run([sys.executable, "-m", "xqdesk", "prepare", "stockfish"], capture_output=True,
                             text=True, env=env, timeout=HANG_GUARD, cwd=first_start.parent)
    assert unknown.returncode == 2
    assert "no compiled code for 'stockfish'; the kinds are builtin, mcts, zero, egtb" in unknown.stderr


def test_an_engine_named_in_the_registry_is_prepared_too(first_start):
    registry = first_start.parent / "engines.json"
    registry.write_text(json.dumps([{"name": "Strong one", "kind": "builtin", "level": 2}]), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    named = subprocess.run([sys.executable, "-m", "xqdesk", "analyse", "--engine", "Strong one", "--depth", "2",
                            "--engines", str(registry)],
                           capture_output=True, text=True, env=env, timeout=600, cwd=first_start.parent)
    assert named.returncode == 0, named.stderr
    assert "Preparing the built-in engine for this computer" in named.stderr
    assert "Best move:" in named.stdout and is_ready("builtin")


def test_the_tablebase_commands_prepare_the_solver_once(first_start):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "xqdesk", "egtb", "build", "KK", "--out", str(first_start.parent / "tables")]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=first_start.parent)
    assert first.returncode == 0, first.stderr
    assert "Preparing the tablebase solver for this computer (compiled once after an install, about 5 s)" in first.stderr
    assert first.stdout.startswith("KK: 90 entries") and is_ready("egtb")
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=HANG_GUARD, cwd=first_start.parent)
    assert again.returncode == 0 and "Preparing" not in again.stderr


def test_the_window_prepares_in_the_background_with_progress_in_the_status_bar(qtbot, first_start):
    from PySide6.QtWidgets import QMainWindow

    from xqdesk.ui.engines.engine_preparation import EnginePreparation

    window = QMainWindow()
    qtbot.addWidget(window)
    preparation = EnginePreparation(window.statusBar())
    assert preparation.start()
    assert preparation.label.text().startswith("Preparing the built-in engine")
    seen: list[int] = []
    preparation.bar.valueChanged.connect(seen.append)
    qtbot.waitUntil(lambda: not preparation.is_running(), timeout=600_000)
    assert window.statusBar().currentMessage() == "The built-in engine is ready."
    assert seen and seen[-1] == 100
    assert is_ready("builtin")
    assert not EnginePreparation(window.statusBar()).start()  # ready: nothing to do


def test_closing_the_window_ends_the_preparation(qtbot, first_start):
    from PySide6.QtWidgets import QMainWindow

    from xqdesk.ui.engines.engine_preparation import EnginePreparation

    window = QMainWindow()
    qtbot.addWidget(window)
    preparation = EnginePreparation(window.statusBar())
    assert preparation.start()
    preparation.stop()
    assert not preparation.is_running()


def test_an_engine_of_another_kind_is_prepared_in_view_when_the_window_first_starts_it(qtbot, first_start):
    from PySide6.QtWidgets import QMainWindow

    from xqdesk.engines.spec import EngineSpec, parse_spec
    from xqdesk.ui.engines.engine_preparation import EnginePreparation, code_kind
    from xqdesk.ui.engines.engine_worker import EngineWorker

    window = QMainWindow()
    qtbot.addWidget(window)
    preparation = EnginePreparation(window.statusBar())
    preparation.install()
    worker = EngineWorker(parse_spec("mcts:Playouts=50"))
    try:
        worker.start()  # the engine announces itself: its code is prepared in view
        assert preparation.is_running() and preparation.kind == "mcts"
        assert preparation.label.text().startswith("Preparing the mcts engine for this computer")
        assert preparation.prepare("zero")  # another kind waits for the one under way
        assert not preparation.prepare("zero") and not preparation.prepare("mcts")  # asked once
        qtbot.waitUntil(lambda: preparation.kind == "zero" and not preparation.is_running(), timeout=HANG_GUARD * 1000)
        assert is_ready("mcts") and is_ready("zero")
        assert window.statusBar().currentMessage() == "The zero engine is ready."
        worker.start()  # started already: nothing more to prepare
        assert code_kind(EngineSpec("outside", ("/usr/games/fairy-stockfish",))) is None  # runs no code of ours
        assert not preparation.prepare("mcts") and not preparation.is_running()
    finally:
        worker.shutdown()
        preparation.stop()
