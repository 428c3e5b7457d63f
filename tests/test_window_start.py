"""Starting the window where it cannot open: no display, or a library Qt's platform plugin needs
missing. Qt itself would abort the process (exit code 134, a core dump); xqdesk says what is
wrong and what to do, and ends with exit code 1. Each case runs the real entry points in a process
of its own, with the display variables taken out of its environment."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.ui.display import EXIT_NO_WINDOW, window_problem

ROOT = Path(__file__).resolve().parents[1]


def without_display(**changes: str) -> dict[str, str]:
    """This environment with no display and no Qt platform chosen (plus ``changes``)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "QT_QPA_PLATFORM_PLUGIN_PATH")}
    return {**env, "PYTHONPATH": str(ROOT), **changes}


def no_core_dump(folder: Path) -> None:
    assert not [path.name for path in folder.iterdir() if path.name.startswith("core")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is for Linux")
@pytest.mark.parametrize("command", [["main.py"], ["-m", "xqdesk"]], ids=["main.py", "xqdesk"])
def test_without_a_display_the_window_says_so_instead_of_aborting(tmp_path, command):
    script = [str(ROOT / command[0])] if command == ["main.py"] else command
    started = subprocess.run([sys.executable, *script], capture_output=True, text=True, env=without_display(),
                             cwd=tmp_path, timeout=HANG_GUARD)
    assert started.returncode == EXIT_NO_WINDOW, (started.returncode, started.stderr)
    assert "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set)" in started.stderr
    assert "xqdesk --help" in started.stderr
    no_core_dump(tmp_path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is for Linux")
@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to make a plugin with a missing library")
def test_a_library_the_platform_plugin_needs_is_named_with_the_packages_to_install(tmp_path):
    # a platform plugin linked to a library that is then taken away, where Qt looks for plugins
    plugins = tmp_path / "platforms"
    plugins.mkdir()
    (tmp_path / "gone.c").write_text("int xqdesk_gone(void) { return 1; }\n")
    (tmp_path / "plugin.c").write_text("int xqdesk_gone(void);\nint xqdesk_plugin(void) { return xqdesk_gone(); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libxqdeskgone.so.1"), str(tmp_path / "gone.c"),
                    "-Wl,-soname,libxqdeskgone.so.1"], check=True, timeout=HANG_GUARD)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(plugins / "libqxcb.so"), str(tmp_path / "plugin.c"),
                    str(tmp_path / "libxqdeskgone.so.1")], check=True, timeout=HANG_GUARD)
    (tmp_path / "libxqdeskgone.so.1").unlink()
    started = subprocess.run([sys.executable, str(ROOT / "main.py")], capture_output=True, text=True,
                             env=without_display(DISPLAY=":99", QT_QPA_PLATFORM_PLUGIN_PATH=str(plugins)),
                             cwd=tmp_path, timeout=HANG_GUARD)
    assert started.returncode == EXIT_NO_WINDOW, (started.returncode, started.stderr)
    assert "needs a library that is not installed (libxqdeskgone.so.1: cannot open shared object file" in started.stderr
    assert "sudo apt-get install libgl1" in started.stderr and "libxcb-cursor0" in started.stderr
    no_core_dump(tmp_path)


def test_which_environments_can_show_a_window():
    assert window_problem({}, "linux") is not None
    assert window_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert window_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux") is not None
    assert window_problem({"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert window_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert window_problem({}, "win32") is None and window_problem({}, "darwin") is None


@pytest.mark.slow
def test_a_screenshot_needs_no_display(tmp_path):
    record = ROOT / "tests" / "data" / "games" / "xqf" / "cchess_030-黄松轩先胜冯敬如.XQF"
    shown = subprocess.run([sys.executable, str(ROOT / "main.py"), "--screenshot", "window.png", str(record)],
                           capture_output=True, text=True, env=without_display(), cwd=tmp_path, timeout=HANG_GUARD)
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "window.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
