"""Shared pytest fixtures."""
import os
import time

# Qt needs a platform; these machines have no display, so default to the offscreen one.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


def _become_subreaper() -> bool:
    """Make this test process a child subreaper (Linux): a process that escapes an engine's tree
    (double fork, setsid) and outlives it is then reparented here instead of to init, so the
    leftover check below sees it rather than letting it run on unnoticed."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


SUBREAPER = _become_subreaper()


def _live_children() -> list[str]:
    """Descriptions of this process's child processes that are still running (not zombies)."""
    me = str(os.getpid())
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and fields[1] == me and fields[0] != "Z":
            children.append(f"{entry} {stat.split('(', 1)[-1].split(')', 1)[0]}")
    return children


def pytest_collection_modifyitems(config, items):
    """Every test that starts a compiled engine or the window (marked ``engines``) is ``slow`` too,
    so ``pytest -m "not slow"`` is the quick loop: the rules, formats, referee and command line."""
    for item in items:
        if item.get_closest_marker("engines") is not None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def engines_compiled(request):
    """The engines' compiled code, made ready once before the first test that needs it, as the
    window and the command line do before a first move (:mod:`xqdesk.engines.compiled_code`): on a
    fresh clone the kernels compile for a minute of CPU and more, which no test's wait for an engine
    should have to include. Quick when the code is ready; a failure is reported, and the engine
    tests then say what is wrong."""
    from xqdesk.engines.compiled_code import TYPICAL_CPU_SECONDS, engine_label, is_ready, prepare_in_child

    kinds = [kind for kind in TYPICAL_CPU_SECONDS if not is_ready(kind)]
    if not kinds:
        return
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")

    def say(text: str) -> None:
        if reporter is not None and capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(text)

    started = time.monotonic()
    say(f"\npreparing the compiled code of {', '.join(engine_label(kind) for kind in kinds)} (once after a change) …")
    problem = prepare_in_child(kinds, lambda progress: None)
    say(f"{'could not prepare it: ' + problem if problem else 'ready'} after {time.monotonic() - started:.0f} s")


@pytest.fixture(autouse=True)
def compiled_code_for_engine_tests(request):
    """Ask for :func:`engines_compiled` in the modules marked ``engines`` (those that start the
    built-in, mcts, zero, fog or tablebase engines, or the window, which may), so a run of other
    tests never waits for the kernels to compile. On CI every test asks: a module that starts such
    an engine without its mark then still passes there, and is slow only on a fresh local run."""
    if request.node.get_closest_marker("engines") is not None or os.environ.get("CI"):
        request.getfixturevalue("engines_compiled")


@pytest.fixture(autouse=True)
def no_child_processes_left():
    """Fail a test that leaves a child process running (engines must never be orphaned; with
    :data:`SUBREAPER`, processes that escaped an engine's tree count as children here too)."""
    yield
    deadline = time.monotonic() + 20.0  # processes being killed may take a while to go on a busy machine
    while _live_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _live_children()
    assert not left, f"child processes left running: {left}"


@pytest.fixture(autouse=True)
def no_engine_threads_left():
    """Fail a test that leaves an engine worker's QThread running (the window's engine seats)."""
    yield
    import sys
    worker_module = sys.modules.get("xqdesk.ui.engines.engine_worker")
    if worker_module is None:
        return
    from PySide6.QtTest import QTest  # workers shut down without waiting get a moment to end

    deadline = time.monotonic() + 20.0  # a guard: waits only while a worker is still ending
    while worker_module.running_workers() and time.monotonic() < deadline:
        QTest.qWait(20)
    left = [worker.spec.name for worker in worker_module.running_workers()]
    assert not left, f"engine worker threads left running: {left}"


@pytest.fixture
def window(qtbot, tmp_path):
    """The real xqdesk main window, shown at 1000×720, with its settings and autosave in
    ``tmp_path``; shut down (engines stopped), closed and set back to English afterwards (closed
    here rather than by qtbot, which would close it before the shutdown and so ask about the
    unsaved game)."""
    from xqdesk.ui.base.i18n import Language, set_language
    from xqdesk.ui.base.settings import open_store
    from xqdesk.ui.main_window import MainWindow

    win = MainWindow(settings_store=open_store(str(tmp_path / "settings.ini")),
                     autosave_path=str(tmp_path / "autosave.pgn"))
    win.resize(1000, 720)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()  # after this the window closes without asking about unsaved changes
    win.close()
    win.deleteLater()
    set_language(Language.ENGLISH)


@pytest.fixture(scope="session")
def eleeye(tmp_path_factory):
    """ElephantEye built from ``$XQDESK_ELEEYE_SRC`` (the test is skipped without it)."""
    from ucci_engines import build_eleeye

    return build_eleeye(tmp_path_factory.mktemp("eleeye"))


EGTB_TEST_SIGNATURES = ("KRKA", "KHKAA", "KPKB", "KHKAABB")
"""Small tables the tablebase tests build once per session (a few seconds with the compiled code cached)."""


@pytest.fixture(scope="session")
def egtb_dir(tmp_path_factory):
    """A directory holding the tables of :data:`EGTB_TEST_SIGNATURES` and everything they capture into."""
    from xqdesk.egtb import Signature, build

    directory = tmp_path_factory.mktemp("egtb")
    build([Signature.parse(name) for name in EGTB_TEST_SIGNATURES], directory)
    return directory
