"""Starting the window: the QApplication, the bundled fonts, the main window, ``--screenshot``.

``main(argv)`` is what ``python main.py``, ``python -m xqdesk`` (no command) and the ``xqdesk``
entry point run. ``--screenshot OUT.png [FILE]`` lays the window out (opening FILE), renders it
to a PNG and exits — for the README and for checking the look without a display.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from xqdesk.ui.i18n import Language
from xqdesk.ui.piece_glyphs import interface_font, load_fonts

SCREENSHOT_SIZE = (1200, 820)


def ensure_application(argv: Sequence[str] = ()) -> QApplication:
    """The running QApplication (created when there is none), with the bundled fonts loaded and
    the interface font set, so Chinese text draws on machines without a CJK font."""
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "xqdesk", *argv])
        app.setApplicationName("xqdesk")
        app.setOrganizationName("xqdesk")
    load_fonts()
    app.setFont(interface_font(10))
    return app


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xqdesk", description="Xiangqi desktop: play, analyse and replay.")
    parser.add_argument("file", nargs="?", help="a game record (PGN, XQF, course history, FEN) or a course match folder")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the laid-out window to a PNG and exit")
    parser.add_argument("--language", choices=("en", "zh_CN"), help="interface language")
    parser.add_argument("--ply", type=int, help="with a file: show the position after this many moves (default: the end)")
    return parser


def screenshot(window, out: str | Path) -> Path:
    """Lay out ``window`` at the screenshot size and write it to ``out`` as PNG."""
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    QApplication.sendPostedEvents()
    image = window.grab()
    out = Path(out)
    if not image.save(str(out), "PNG"):
        raise OSError(f"could not write the screenshot {str(out)!r}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Start the window; returns the exit code."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = ensure_application()
    from xqdesk.ui.main_window import MainWindow  # after the QApplication: widgets need it

    store = None
    autosave = None
    if args.screenshot:  # a screenshot must not read or change the user's settings and autosave
        from xqdesk.ui.settings import open_store

        scratch = tempfile.mkdtemp(prefix="xqdesk-shot-")
        store = open_store(str(Path(scratch) / "settings.ini"))
        autosave = str(Path(scratch) / "autosave.pgn")
    window = MainWindow(settings_store=store, autosave_path=autosave)
    if args.language:
        window.set_language(Language.from_name(args.language))
    if args.file:
        if window.files.open_path(args.file) and args.ply is None:
            window.controller.to_end()
        elif args.ply is not None:
            window.controller.go_to(args.ply)
    elif not args.screenshot:
        window.files.restore_autosave()
    if args.screenshot:
        out = screenshot(window, args.screenshot)
        window.shutdown()
        print(out)
        return 0
    window.show()
    QTimer.singleShot(0, window.board_view.setFocus)
    code = app.exec()
    window.shutdown()
    return code
