"""The Linux desktop entry: ``xqdesk --install-desktop-entry`` puts xqdesk in the desktop's
application menu, with its icon, for this user (freedesktop.org's desktop entry and icon theme
specifications); ``--remove-desktop-entry`` takes it out again.

Files written under ``$XDG_DATA_HOME`` (default ``~/.local/share``): ``applications/xqdesk.desktop``,
``icons/hicolor/scalable/apps/xqdesk.svg`` and ``icons/hicolor/256x256/apps/xqdesk.png``. The
entry starts this Python with ``-m xqdesk``, so it works for a virtual environment, ``pip install
--user``, ``--target`` (the package's folder is put on ``PYTHONPATH``) and a checkout.
"""
from __future__ import annotations

import os
import site
import sys
from pathlib import Path

from xqdesk.resource_files import read_resource

APP_ID = "xqdesk"
ICON_FILES = {"scalable/apps/xqdesk.svg": "icons/xqdesk.svg", "256x256/apps/xqdesk.png": "icons/xqdesk.png"}
"""Where each icon goes under ``icons/hicolor``: the shipped resource it is copied from."""


def data_home() -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` when it is unset or not absolute (as the spec says)."""
    configured = os.environ.get("XDG_DATA_HOME", "")
    return Path(configured) if os.path.isabs(configured) else Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """The command that starts the window with the xqdesk this process runs."""
    command = [sys.executable, "-m", "xqdesk"]
    package_root = str(Path(__file__).resolve().parents[2])
    default_path = {os.path.realpath(entry) for entry in (*site.getsitepackages(), site.getusersitepackages())}
    if os.path.realpath(package_root) not in default_path:  # a checkout or a --target folder
        command = ["env", f"PYTHONPATH={package_root}", *command]
    return command


def desktop_entry_text(command: list[str]) -> str:
    """The ``.desktop`` file that starts ``command`` (with the file opened, if any)."""
    exec_line = " ".join(_exec_quote(word) for word in command) + " %f"
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=xqdesk",
        "GenericName=Xiangqi",
        "Comment=Play, analyse and replay Xiangqi (Chinese chess)",
        f"Exec={exec_line}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Game;BoardGame;",
        "Keywords=xiangqi;chinese chess;象棋;",
        "MimeType=application/x-chess-pgn;",
        f"StartupWMClass={APP_ID}",
        "",
    ])


def _exec_quote(word: str) -> str:
    """One argument of an ``Exec`` line, by the spec's rules: ``%`` doubled; quoted when it holds
    a reserved character, with ``"``, `` ` ``, ``$`` and ``\\`` escaped inside the quotes; then
    every ``\\`` doubled again, as in any string value of the file."""
    word = word.replace("%", "%%")
    if not word or any(char in word for char in " \t\n\"'\\><~|&;$*?#()`"):
        word = '"' + "".join("\\" + char if char in '"`$\\' else char for char in word) + '"'
    return word.replace("\\", "\\\\")


def entry_files(root: Path) -> list[Path]:
    """The files the desktop entry consists of under the data folder ``root``."""
    return [root / "applications" / f"{APP_ID}.desktop",
            *(root / "icons" / "hicolor" / relative for relative in ICON_FILES)]


def install_desktop_entry(root: Path | None = None) -> list[Path]:
    """Write the desktop entry and its icons under ``root`` (default :func:`data_home`); the files
    written. OSError when one cannot be written."""
    root = data_home() if root is None else root
    desktop_file, *icon_files = entry_files(root)
    for path, resource_name in zip(icon_files, ICON_FILES.values()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(read_resource(resource_name))
    desktop_file.parent.mkdir(parents=True, exist_ok=True)
    desktop_file.write_text(desktop_entry_text(launch_command()), encoding="utf-8")
    return [desktop_file, *icon_files]


def remove_desktop_entry(root: Path | None = None) -> list[Path]:
    """Delete the desktop entry and its icons under ``root`` (default :func:`data_home`); the
    files that were there."""
    removed = []
    for path in entry_files(data_home() if root is None else root):
        if path.is_file():
            path.unlink()
            removed.append(path)
    return removed
