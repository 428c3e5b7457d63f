"""``xqdesk --install-desktop-entry``: the desktop entry and icons, written and removed again."""
from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.resource_files import read_resource
from xqdesk.ui.desktop_entry import _exec_quote, desktop_entry_text

ROOT = Path(__file__).resolve().parents[1]


def run_xqdesk(*args: str, data_home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=HANG_GUARD)


@pytest.mark.slow
def test_install_writes_an_entry_that_starts_this_xqdesk_and_remove_takes_it_out(tmp_path):
    installed = run_xqdesk("--install-desktop-entry", data_home=tmp_path)
    assert installed.returncode == 0, installed.stderr
    desktop = tmp_path / "applications" / "xqdesk.desktop"
    svg = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "xqdesk.svg"
    png = tmp_path / "icons" / "hicolor" / "256x256" / "apps" / "xqdesk.png"
    assert svg.read_bytes() == read_resource("icons/xqdesk.svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(desktop, encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application" and section["Icon"] == "xqdesk"
    command = shlex.split(section["Exec"])
    assert command[-3:] == ["-m", "xqdesk", "%f"] and sys.executable in command
    assert f"wrote {desktop}" in installed.stdout

    # the entry's command (without the file argument) is a working xqdesk
    shown = subprocess.run([*command[:-1], "--version"], capture_output=True, text=True, timeout=HANG_GUARD, cwd=tmp_path)
    assert shown.stdout.startswith("xqdesk ")

    removed = run_xqdesk("--remove-desktop-entry", data_home=tmp_path)
    assert removed.returncode == 0 and not desktop.exists() and not svg.exists() and not png.exists()
    again = run_xqdesk("--remove-desktop-entry", data_home=tmp_path)
    assert "no xqdesk desktop entry" in again.stdout


def test_exec_arguments_are_quoted_as_the_specification_says():
    assert _exec_quote("/usr/bin/python3") == "/usr/bin/python3"
    assert _exec_quote("/home/me/my env/bin/python") == '"/home/me/my env/bin/python"'
    assert _exec_quote("100%") == "100%%"
    assert _exec_quote('say "$HOME"') == '"say \\\\"\\\\$HOME\\\\""'
    text = desktop_entry_text(["/opt/x y/python", "-m", "xqdesk"])
    assert 'Exec="/opt/x y/python" -m xqdesk %f' in text.splitlines()
