"""Starting the window: the QApplication, the bundled fonts, the main window, ``--screenshot``.

``main(argv)`` is what ``python main.py``, ``python -m xqdesk`` (no command) and the ``xqdesk``
entry point run. ``--screenshot OUT.png [FILE]`` lays the window out (opening FILE), renders it
to a PNG and exits — for the README and for checking the look without a display.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication

from xqdesk import __version__
from xqdesk.engines.transport.referee_guard import guard_referee
from xqdesk.pieces import RED, parse_color
from xqdesk.resource_files import read_resource
from xqdesk.ui.base.i18n import Language
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.board.piece_glyphs import interface_font, load_fonts
from xqdesk.ui.display import EXIT_NO_WINDOW, window_problem
from xqdesk.ui.engines.engine_preparation import EnginePreparation
from xqdesk.ui.game.game_controller import Mode

if TYPE_CHECKING:
    from xqdesk.ui.main_window import MainWindow

SCREENSHOT_SIZE = (1280, 900)


@contextmanager
def window_guard() -> Iterator[bool]:
    """The referee's guard (:mod:`xqdesk.engines.transport.referee_guard`) around a window's life,
    as ``xqdesk match`` has it around a match: an engine of a window game that signals the window
    (its shield's parent) is ignored, and one that kills its shield, or anything it detached, is
    swept within a quarter of a second and at the latest when the window closes, so no engine can
    kill the window or outlive it. Signals from anyone else do what they did before.

    The guard's own thread decides (it waits for the guarded signals with ``sigtimedwait``), so
    the Qt event loop needs nothing of it; but every thread must block those signals, so the guard
    is entered only while this process has no QApplication yet (Qt's threads, and the engine
    workers' threads, then start with them blocked). Yields whether the window is guarded: not
    where an application already runs, off Linux, or outside the main thread."""
    if QApplication.instance() is not None:
        yield False
        return
    with guard_referee() as guarded:
        yield guarded


def ensure_application(argv: Sequence[str] = ()) -> QApplication:
    """The running QApplication (created when there is none), with the bundled fonts loaded and
    the interface font set, so Chinese text draws on machines without a CJK font."""
    existing = QApplication.instance()
    if existing is not None and not isinstance(existing, QApplication):
        raise RuntimeError("a non-GUI Qt application already exists in this process; the window needs a QApplication")
    app = existing
    if app is None:
        problem = window_problem()
        if problem is not None:  # Qt would abort the process
            raise RuntimeError(problem)
        app = QApplication([sys.argv[0] if sys.argv else "xqdesk", *argv])
        app.setApplicationName("xqdesk")
        app.setOrganizationName("xqdesk")
        app.setDesktopFileName("xqdesk")  # the desktop entry --install-desktop-entry writes
        icon = QPixmap()
        icon.loadFromData(read_resource("icons/xqdesk.png"))
        app.setWindowIcon(QIcon(icon))
    load_fonts()
    app.setFont(interface_font(10))
    return app


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xqdesk", description="Xiangqi desktop: play, analyse and replay.")
    parser.add_argument("file", nargs="?", help="a game record (PGN, XQF, course history, FEN) or a course match folder")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the laid-out window to a PNG and exit")
    parser.add_argument("--language", choices=("en", "zh_CN"), help="interface language")
    parser.add_argument("--ply", type=int, help="with a file: show the position after this many moves (default: the end)")
    parser.add_argument("--analyse", action="store_true",
                        help="analyse the position on show with the analysis engines (the built-in one by default)")
    parser.add_argument("--multipv", type=int, default=None, help="with --analyse: lines per engine")
    parser.add_argument("--size", type=window_size, default=SCREENSHOT_SIZE, metavar="WxH",
                        help=f"with --screenshot: the window's size in pixels (default {SCREENSHOT_SIZE[0]}x{SCREENSHOT_SIZE[1]})")
    parser.add_argument("--theme", choices=("wood", "contrast", "traditional"),
                        help="board and piece theme (remembered; with --screenshot only for the picture)")
    parser.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                        help="with --screenshot: let the window run this long first (default 3 with --analyse, else 0)")
    parser.add_argument("--install-desktop-entry", action="store_true",
                        help="add xqdesk, with its icon, to this user's application menu (Linux desktops) and exit")
    parser.add_argument("--remove-desktop-entry", action="store_true",
                        help="take xqdesk out of this user's application menu again and exit")
    parser.add_argument("--version", action="version", version=f"xqdesk {__version__}")
    return parser


def window_size(text: str) -> tuple[int, int]:
    """``'1024x768'`` as ``(1024, 768)``; argparse reports the ValueError for anything else."""
    width, separator, height = text.lower().partition("x")
    if not separator or not width.isdigit() or not height.isdigit() or int(width) < 200 or int(height) < 200:
        raise ValueError(f"a window size is WIDTHxHEIGHT in pixels, at least 200x200, not {text!r}")
    return int(width), int(height)


def screenshot(window, out: str | Path, size: tuple[int, int] = SCREENSHOT_SIZE) -> Path:
    """Lay out ``window`` at ``size`` and write it to ``out`` as PNG."""
    window.resize(*size)
    window.show()
    for _ in range(3):  # let the layout (the docks' first sizes) settle before the picture
        QCoreApplication.processEvents()
    image = window.grab()
    out = Path(out)
    if not image.save(str(out), "PNG"):
        raise OSError(f"could not write the screenshot {str(out)!r}")
    return out


def open_and_wait(window: MainWindow, path: str) -> bool:
    """Open ``path`` (read in the background) and wait for the reading, before the window is on
    screen: the command line's file is shown at the move asked for. Whether a game was shown."""
    shown: list[bool] = []
    loop = QEventLoop()

    def ended(ok: bool) -> None:
        shown.append(ok)
        loop.quit()

    window.files.loading_finished.connect(ended)
    window.files.open_path(path)
    if not shown:
        loop.exec()
    return bool(shown and shown[0])


def change_desktop_entry(install: bool) -> int:
    """``--install-desktop-entry`` / ``--remove-desktop-entry``: say which files changed; 3 when
    they cannot be written."""
    from xqdesk.ui.desktop_entry import install_desktop_entry, launch_command, remove_desktop_entry

    try:
        paths = install_desktop_entry() if install else remove_desktop_entry()
    except OSError as error:
        print(f"xqdesk: cannot write the desktop entry: {error}", file=sys.stderr)
        return 3
    for path in paths:
        print(f"{'wrote' if install else 'removed'} {path}")
    if install:
        print(f"the menu entry runs: {shlex.join(launch_command())}")
    elif not paths:
        print("there was no xqdesk desktop entry to remove")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Start the window (under :func:`window_guard`); returns the exit code."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.install_desktop_entry or args.remove_desktop_entry:
        return change_desktop_entry(install=args.install_desktop_entry)
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if QApplication.instance() is None and (problem := window_problem()) is not None:
        print(problem, file=sys.stderr)  # instead of Qt's abort (exit code 134, a core dump)
        return EXIT_NO_WINDOW
    with window_guard():
        return _run_window(args)


def _run_window(args: argparse.Namespace) -> int:
    app = ensure_application()
    from xqdesk.ui.main_window import MainWindow  # after the QApplication: widgets need it

    store = None
    autosave = None
    if args.screenshot:  # a screenshot must not read or change the user's settings and autosave
        from xqdesk.ui.base.settings import open_store

        scratch = tempfile.mkdtemp(prefix="xqdesk-shot-")
        store = open_store(str(Path(scratch) / "settings.ini"))
        autosave = str(Path(scratch) / "autosave.pgn")
    window = MainWindow(settings_store=store, autosave_path=autosave)
    if args.language:
        window.set_language(Language.from_name(args.language))
    if args.theme:
        window.view.set_theme(args.theme)
    if args.file:
        if open_and_wait(window, args.file) and args.ply is None:
            window.controller.to_end()
        elif args.ply is not None:
            window.controller.go_to(args.ply)
    elif not args.screenshot:
        window.files.restore_autosave()
    if args.analyse:
        if args.multipv:
            window.engine_panel.set_lines(args.multipv)
        window.analysis.start(window.analysis.engines())
    if args.screenshot:
        wait = args.wait if args.wait is not None else (3.0 if args.analyse else 0.0)
        if wait > 0:
            window.resize(*args.size)
            window.show()
            loop = QEventLoop()
            QTimer.singleShot(int(wait * 1000), loop.quit)
            loop.exec()
        out = screenshot(window, args.screenshot, args.size)
        window.shutdown()
        print(out)
        return 0
    window.show()
    QTimer.singleShot(0, window.board_view.setFocus)
    preparation = EnginePreparation(window.statusBar())  # the first start after an install compiles
    preparation.install()  # engines of other kinds are prepared in view when first started
    preparation.start()
    code = app.exec()
    preparation.stop()
    window.shutdown()
    return code


# --- the course's entry points (see xqdesk.compat) --------------------------------------------------
def player_profile(player: object) -> EngineProfile:
    """An engine profile that runs a course ``Player`` instance's class in its own process.

    The engine host makes a fresh ``Player(side)`` from the file that defines the class (as the
    course's referee makes one per game); the instance itself stays in the caller. Raises
    ValueError when the class lives in no importable file of its own (a script's ``__main__``).
    """
    cls = type(player)
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    if cls.__name__ != "Player" or module is None or path is None or cls.__module__ == "__main__":
        raise ValueError(f"a course player must be a Player class in its own file (like player_1/player_1.py); "
                         f"got {cls.__module__}.{cls.__qualname__} from {path!r}")
    name = "Player"
    try:
        name = str(player.get_name()) if hasattr(player, "get_name") else str(getattr(player, "name", name))
    except Exception:  # the player's own code failed; its file still names it
        name = Path(path).stem
    return EngineProfile(name or Path(path).stem, EngineKind.PLAYER, str(Path(path).resolve()))


def open_window() -> MainWindow:
    """A main window (QApplication and fonts made ready) that reads the user's settings but does not
    restore the autosave: the course functions show exactly the game they were given."""
    ensure_application()
    from xqdesk.ui.main_window import MainWindow

    return MainWindow()


def run_window(window: MainWindow) -> None:
    """Show ``window`` and return once it is closed, engines stopped (the course functions block
    like the course's own pygame windows did)."""
    loop = QEventLoop()
    window.closed.connect(loop.quit)
    window.show()
    loop.exec()
    window.shutdown()


def watch_game_window(red: object, black: object, delta_time: float = 1.0) -> MainWindow:
    """A window in which two course players play, ``delta_time`` seconds at least between moves."""
    window = open_window()
    live = window.controller.live
    live.configure(replace(live.settings, engine_delay=max(0.0, float(delta_time))))
    window.start_game(player_profile(red), player_profile(black))
    return window


def pve_window(side: str, player: object) -> MainWindow:
    """A window in which a person plays ``side`` against ``player`` (which must play the other side)."""
    person = parse_color(side)
    player_side = getattr(player, "side", None)
    if player_side is not None and parse_color(str(player_side)) == person:
        raise ValueError(f"you take {side!r} but the player was made for {player_side!r}: sides must differ")
    window = open_window()
    profile = player_profile(player)
    window.start_game(None if person == RED else profile, profile if person == RED else None)
    return window


def history_replay_window(history: Sequence[Sequence[int]], delta_time: float = 1.0) -> MainWindow:
    """A window stepping through a course history, one move every ``delta_time`` seconds."""
    from xqdesk.formats.course_history import game_from_course_history

    game, error = game_from_course_history(history, "<history>")
    if error is not None:
        raise error
    window = open_window()
    window.controller.load_game(game, Mode.REPLAY, ply=0)
    window.controller.start_autoplay(max(0.01, float(delta_time)))
    return window


def final_game_window(player_1: int, player_2: int, game: int, delta_time: float = 1.0,
                      folder: str | Path = ".") -> MainWindow:
    """A window replaying game ``game`` of the match folder ``Player i VS Player j`` (ids in any
    order) under ``folder``, one move every ``delta_time`` seconds."""
    from xqdesk.formats.course_match import read_match_games

    low, high = sorted((int(player_1), int(player_2)))
    path = Path(folder) / f"Player {low} VS Player {high}"
    record = read_match_games(path)
    if record.errors and not record.games:
        raise record.errors[0]
    chosen = [index for index, item in enumerate(record.games) if item.headers.get("Round") == str(int(game))]
    if not chosen:
        raise ValueError(f"{str(path)!r} has no game {game!r}; it holds games "
                         f"{[item.headers.get('Round') for item in record.games]}")
    window = open_window()
    window.files.current_path = path
    if not window.files.show_game(record, chosen[0], ply=0):
        window.shutdown()
        raise ValueError(f"game {game!r} of {str(path)!r} could not be shown: {window.statusBar().currentMessage()}")
    window.controller.start_autoplay(max(0.01, float(delta_time)))
    return window
