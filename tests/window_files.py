"""Opening files in the real window from tests: every file is read in the background, so a test
opens it as the user does and waits for the reading to end; the window's question about unsaved
changes is answered as the user would."""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox


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


def answer_question(qtbot, window, button: QMessageBox.StandardButton, then=None) -> list[str]:
    """Once the window's question box is up: remember its text, click ``button`` (then ``then()``)."""
    seen: list[str] = []

    def answer() -> None:
        box = window.files.question
        if box is None or not box.isVisible():
            QTimer.singleShot(20, answer)
            return
        seen.append(box.text())
        box.button(button).click()
        if then is not None:
            QTimer.singleShot(0, then)
    QTimer.singleShot(0, answer)
    return seen
