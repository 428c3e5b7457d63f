"""Opening files in the real window from tests: every file is read in the background, so a test
opens it as the user does and waits for the reading to end."""
from __future__ import annotations


def open_file(qtbot, window, path, asking: bool = False, timeout: int = 60000) -> bool:
    """Open ``path`` (with *Open*'s question about unsaved changes when ``asking``) and wait for the
    background reading; whether a game was shown (False also when the question was cancelled)."""
    files = window.files
    ended: list[bool] = []
    files.loading_finished.connect(ended.append)
    try:
        if not (files.open_path_asking(path) if asking else files.open_path(path)):
            return False
        qtbot.waitUntil(lambda: bool(ended), timeout=timeout)
    finally:
        files.loading_finished.disconnect(ended.append)
    return ended[0]
