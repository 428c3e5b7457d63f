"""Whether the window can open here, looked at before Qt starts (this module imports no Qt).

Without a display, or with a library that Qt's platform plugin needs missing, Qt prints a message
and aborts the process (exit code 134, a core dump). :func:`window_problem` finds both first, so
the window can say what to do instead and end with exit code :data:`EXIT_NO_WINDOW`;
:func:`xqdesk.ui.start.start_window` does that for ``python main.py`` and ``xqdesk`` without a command, and also
catches Qt's own libraries missing when they are first imported.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

EXIT_NO_WINDOW = 1
"""The exit code when the window cannot open here (not Qt's abort, 134)."""

SYSTEM_PACKAGES = ("libgl1 libegl1 libfontconfig1 libglib2.0-0 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0 "
                   "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0")
"""The Debian and Ubuntu packages the window needs (docs/install.md says how the list was found)."""

WINDOWLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay")
"""Qt platforms that need no display (``QT_QPA_PLATFORM``)."""

INSTALL_HINT = (f"On Debian and Ubuntu: sudo apt-get install {SYSTEM_PACKAGES}\n"
                 "(other systems: see docs/install.md, 'System packages for the window').")
WITHOUT_WINDOW_HINT = ("The command line needs no display: 'xqdesk --help' lists its commands, and "
                        "'xqdesk --screenshot OUT.png FILE' draws the window to a picture.")


def _platform_plugin(name: str, environ: Mapping[str, str]) -> Optional[Path]:
    """The file of Qt's platform plugin ``name`` (``xcb``) that Qt would load: from
    ``QT_QPA_PLATFORM_PLUGIN_PATH`` when it holds one, else PySide6's own; None when not found."""
    folders = [Path(folder) for folder in environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if folder]
    spec = importlib.util.find_spec("PySide6")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folders.append(Path(location) / "Qt" / "plugins" / "platforms")
    return next((folder / f"libq{name}.so" for folder in folders if (folder / f"libq{name}.so").is_file()), None)


def missing_library(plugin: Path) -> Optional[str]:
    """Why the shared library ``plugin`` cannot be loaded (the dynamic loader's words, which name
    the missing library), or None when it loads. Loading it loads Qt's libraries it links to,
    the same files PySide6 loads."""
    try:
        ctypes.CDLL(str(plugin))
    except OSError as error:
        return str(error)
    return None


def window_problem(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> Optional[str]:
    """Why Qt's window cannot open here, with what to do, or None when it can (as far as can be
    told before Qt starts). Only Linux is looked at: there Qt needs a display (``DISPLAY`` for
    X11, ``WAYLAND_DISPLAY`` for Wayland) unless ``QT_QPA_PLATFORM`` names a platform without one,
    and its ``xcb`` plugin needs the X11 client libraries."""
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen in WINDOWLESS_PLATFORMS:
        return None
    x11, wayland = bool(environ.get("DISPLAY")), bool(environ.get("WAYLAND_DISPLAY"))
    if (chosen == "xcb" and not x11) or (chosen.startswith("wayland") and not wayland) or not (x11 or wayland):
        wanted = {"xcb": "DISPLAY is not set", "": "neither DISPLAY nor WAYLAND_DISPLAY is set"}.get(
            chosen, "WAYLAND_DISPLAY is not set")
        return (f"xqdesk: no display to open the window on ({wanted}).\n"
                "Start it from a desktop session, or over ssh with 'ssh -X'.\n" + WITHOUT_WINDOW_HINT)
    if chosen == "xcb" or (not chosen and x11 and not (wayland and environ.get("XDG_SESSION_TYPE") == "wayland")):
        plugin = _platform_plugin("xcb", environ)
        problem = missing_library(plugin) if plugin is not None else None
        if problem is not None:
            return (f"xqdesk: the window cannot open: Qt's X11 platform plugin needs a library that is not "
                    f"installed ({problem}).\n{INSTALL_HINT}\n{WITHOUT_WINDOW_HINT}")
    return None
