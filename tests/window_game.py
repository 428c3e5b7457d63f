"""``python tests/window_game.py RED BLACK FOLDER``: one window game between two engines, as the
window plays it, in a process of its own (so an engine that attacks the window attacks this one).

RED and BLACK are engines: ``uci:PATH`` (a UCI script) or ``player:PATH`` (a course player). The
window runs under :func:`xqdesk.ui.app.window_guard`, as ``xqdesk`` starts it, with its settings
and autosave in FOLDER. Prints ``guarded`` or ``unguarded``, then ``verdict: TEXT`` when the game
ends (``no verdict`` after a few minutes), closes the window and exits 0.
"""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from xqdesk.ui.app import ensure_application, run_window, window_guard
from xqdesk.ui.base.settings import EngineKind, EngineProfile, open_store

GIVE_UP_MS = 240_000


def profile(text: str) -> EngineProfile:
    kind, _, path = text.partition(":")
    return EngineProfile(Path(path).stem, EngineKind(kind), path)


def main(red: str, black: str, folder: Path) -> int:
    with window_guard() as guarded:
        print("guarded" if guarded else "unguarded", flush=True)
        ensure_application()
        from xqdesk.ui.main_window import MainWindow

        window = MainWindow(settings_store=open_store(str(folder / "settings.ini")),
                            autosave_path=str(folder / "autosave.pgn"))

        def close(text: str) -> None:
            print(text, flush=True)
            window.shutdown()  # no question about the unsaved game
            window.close()

        window.controller.game_over.connect(
            lambda outcome: QTimer.singleShot(0, lambda: close(f"verdict: {outcome.text}")))
        window.controller.alert.connect(lambda text: print(f"alert: {text}", flush=True))
        QTimer.singleShot(GIVE_UP_MS, lambda: close("no verdict"))
        window.start_game(profile(red), profile(black))
        run_window(window)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], Path(sys.argv[3])))
