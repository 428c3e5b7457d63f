"""GIF and PDF exports of the window: drawn in the background with progress and Cancel, the PDF
with the players, the opening, the moves, comments (without review commands) and diagrams."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from datafiles import GAMES
from hang_guard import HANG_GUARD_MS
from PIL import Image
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog

from xqdesk.formats import read_games
from xqdesk.notation import Notation
from xqdesk.ui.exports.game_pdf import game_sheet
from xqdesk.ui.game.game_controller import Mode

pytestmark = pytest.mark.engines

COMMENTED = GAMES / "xqf" / "eleeye_XQFEXAMA.XQF"
LONG_GAME = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def long_game():
    return max(read_games(LONG_GAME).games[:60], key=len)


def test_a_gif_export_runs_in_the_background_and_cancel_leaves_no_file(qtbot, window, tmp_path, monkeypatch):
    game = long_game()
    window.controller.load_game(game, Mode.REPLAY, ply=0)
    out = tmp_path / "long.gif"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(out), "GIF (*.gif)"))
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *args, **kwargs: (0.2, True))
    exports = window.exports
    window.action("Export game as GIF…").trigger()
    assert exports.is_busy()
    bar = exports.progress_bar
    qtbot.waitUntil(lambda: bar.bar.value() > 0, timeout=HANG_GUARD_MS)  # frames are being drawn
    window.controller.forward()  # the window goes on working meanwhile
    assert window.controller.ply() == 1
    with qtbot.waitSignal(exports.problem, timeout=HANG_GUARD_MS) as stopped:
        qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    assert stopped.args == ["Stopped writing long.gif"]
    assert not out.exists() and not exports.is_busy() and exports.progress_bar is None
    with qtbot.waitSignal(exports.finished, timeout=HANG_GUARD_MS) as written:
        window.action("Export game as GIF…").trigger()
    assert written.args == [str(out)]
    with Image.open(out) as image:
        assert image.n_frames == len(game.mainline_moves()) + 1 and image.info["duration"] == 200
        image.seek(image.n_frames - 1)
        assert len(image.convert("RGB").getcolors(65536)) > 8  # a board, not a blank frame


def test_the_pdf_prints_players_opening_moves_comments_and_the_chosen_diagrams(qtbot, window, tmp_path, monkeypatch):
    record = read_games(COMMENTED).games[0]
    window.controller.load_game(record, Mode.REPLAY, ply=10)
    game = window.controller.game()
    game.mainline()[3].comment = "[%eval 0.35,12] [%best h2e2] A quiet move."
    out = tmp_path / "game.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(out), "PDF (*.pdf)"))

    def choose_diagrams():
        dialog = window.pictures.pdf_dialog
        assert dialog is not None and dialog.diagram_plies() == [10]  # the position on show, to begin with
        dialog.moves.item(0).setCheckState(Qt.CheckState.Checked)  # and the start
        dialog.notation_box.setCurrentIndex(dialog.notation_box.findData(Notation.ICCS))
        assert dialog.diagram_plies() == [0, 10]
        dialog.accept()

    QTimer.singleShot(0, choose_diagrams)
    with qtbot.waitSignal(window.exports.finished, timeout=HANG_GUARD_MS) as written:
        window.action("Export game as PDF…").trigger()
    assert written.args == [str(out)]
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 20000
    sheet = game_sheet(game, Notation.ICCS, [0, 10])
    assert sheet.diagram_count() == 2 and sheet.start_diagram is not None
    assert sheet.lines[4].diagram is not None and sheet.lines[4].text.startswith("5. ")
    assert any(text.endswith("A quiet move.") for line in sheet.lines for text in line.comments)
    assert not any("%eval" in text or "%best" in text for line in sheet.lines for text in line.comments)
    assert any("E09" in detail for detail in sheet.details)
    if shutil.which("pdftotext"):  # the text really is in the file
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
        assert "柳大华" in text and "A quiet move." in text and "%eval" not in text, text[:300]
        assert "1. c3c4" in text
