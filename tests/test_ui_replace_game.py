"""Every action that replaces the game on show asks first when a person's moves or comments are
unsaved (Cancel keeps the game, Discard replaces it), and the game given up stays whole in the
autosave's second slot, which *File → Open previous autosave* opens."""
from __future__ import annotations

import pytest
from datafiles import GAMES
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox
from window_files import answer_question

from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.ui.game.game_controller import Mode
from xqdesk.ui.game.seat_dialogs import NewGameDialog

pytestmark = pytest.mark.engines

COMMENT = "a fine move"
FEN = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
EXPLORED = GAMES / "chinese_gb18030" / "eleeye_07.相眼竞技(先胜)棋乐无穷(A2-A4).PGN"


def accept_new_game_dialog() -> None:
    """Once *New game*'s dialog is up, press OK as it stands."""
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, NewGameDialog):
        QTimer.singleShot(20, accept_new_game_dialog)
        return
    dialog.accept()


def new_game(window) -> None:
    QTimer.singleShot(0, accept_new_game_dialog)
    window.action("New game").trigger()


def paste_fen(window) -> None:
    QGuiApplication.clipboard().setText(FEN)
    window.action("Paste FEN").trigger()


def paste_game(window) -> None:
    QGuiApplication.clipboard().setText('[Event "pasted"]\n\n1. h2e2 h9g7 2. h0g2 *\n')
    window.action("Paste game").trigger()


def position_editor(window) -> None:
    window.action("Edit position…").trigger()
    window.starts.position_editor.editor.set_fen(FEN)
    window.starts.position_editor.editor.start_button.click()


def explorer_game(window) -> None:
    window.explorer.open_game(read_games(EXPLORED).games[0], 3)


REPLACERS = {
    "New game": new_game,
    "Person vs person": lambda window: window.action("Person vs person").trigger(),
    "Play Red against the engine": lambda window: window.action("Play Red against the engine").trigger(),
    "Play Black against the engine": lambda window: window.action("Play Black against the engine").trigger(),
    "Paste FEN": paste_fen,
    "Paste game": paste_game,
    "Edit position": position_editor,
    "Explorer game": explorer_game,
}


@pytest.mark.parametrize("replace", REPLACERS.values(), ids=REPLACERS.keys())
def test_replacing_unsaved_work_asks_and_keeps_it_in_the_second_autosave_slot(qtbot, window, replace):
    window.action("Person vs person").trigger()  # nothing unsaved yet: no question
    window.controller.play_move(Move.from_iccs("h2e2"))
    qtbot.keyClicks(window.comment_editor.editor, COMMENT)
    mine = window.controller.game()
    assert window.files.has_unsaved_changes()

    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
    replace(window)
    assert seen and "unsaved changes" in seen[0]
    assert window.controller.game() is mine  # cancelled: the game, its move and comment stay
    assert window.controller.game().mainline_moves() == [Move.from_iccs("h2e2")]
    assert window.comment_editor.editor.toPlainText() == COMMENT

    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Discard)
    replace(window)
    assert seen and window.controller.game() is not mine  # given up: replaced
    window.files.autosave.write_now()
    previous = window.files.autosave.previous_path
    assert read_games(previous).games[0].mainline_moves() == [Move.from_iccs("h2e2")]
    assert COMMENT in previous.read_text(encoding="utf-8")  # the second slot has the work given up
    window.action("Open previous autosave").trigger()  # and the File menu brings it back
    assert window.controller.game().mainline_moves() == [Move.from_iccs("h2e2")]
    assert window.controller.ply() == 1 and window.comment_editor.editor.toPlainText() == COMMENT


def test_paste_fen_plays_the_moves_after_it_and_refuses_a_bad_move(qtbot, window):
    QGuiApplication.clipboard().setText(FEN + " moves e1f1 d9d8")
    window.action("Paste FEN").trigger()
    assert window.controller.mode() is Mode.ANALYSIS
    assert window.controller.game().start_fen == FEN
    assert [move.iccs() for move in window.controller.game().mainline_moves()] == ["e1f1", "d9d8"]
    shown = window.controller.game()
    QGuiApplication.clipboard().setText(FEN + " moves e1f1 a0a9")
    window.action("Paste FEN").trigger()
    assert "a0a9" in window.statusBar().currentMessage()  # said, and nothing changed
    assert window.controller.game() is shown
