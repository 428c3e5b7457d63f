"""*Save* in a file of several games, in the real window: the game on show replaces its own text
and every other game stays, byte for byte; where that cannot be done the window asks for *Save
as* and writes nothing."""
from __future__ import annotations

import re
import shutil

import pytest
from datafiles import GAMES
from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox
from window_files import answer_question, open_file

from xqdesk.formats import read_games
from xqdesk.formats.pgn import format_pgn
from xqdesk.move import Move

pytestmark = pytest.mark.engines

FIFTEEN = GAMES / "notation_15" / "chinese.pgn"
"""15 master games in Chinese notation, UTF-8, no ``Format`` tag."""
BIG_FILE = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
GAME_START = re.compile(rb"^\[Event ", re.MULTILINE)


def game_bytes(data: bytes) -> list[bytes]:
    """Each game's bytes (these files start every game with an ``[Event`` tag)."""
    starts = [found.start() for found in GAME_START.finditer(data)] + [len(data)]
    return [data[begin:end] for begin, end in zip(starts, starts[1:])]


def show_game(window, number: int) -> None:
    files = window.files
    assert files.show_game(files.record, number)


def press_save(window) -> None:
    """*Save* by its shortcut, Ctrl+S (the action the key sequence triggers; the offscreen platform
    has no active window to deliver the key to)."""
    save = window.action("Save")
    assert save.shortcut() == QKeySequence("Ctrl+S")
    save.trigger()


def test_ctrl_s_in_a_file_of_several_games_keeps_every_other_game(qtbot, window, tmp_path):
    path = tmp_path / "fifteen.pgn"
    shutil.copy(FIFTEEN, path)
    original = path.read_bytes()
    before = read_games(path)
    assert open_file(qtbot, window, path)
    show_game(window, 5)
    window.controller.set_comment("a comment on the sixth game")
    assert window.files.has_unsaved_changes()
    press_save(window)
    assert not window.files.has_unsaved_changes()
    after = read_games(path)
    assert len(after.games) == 15 and not after.errors
    assert after.games[5].comment == "a comment on the sixth game"
    assert after.games[5].mainline_moves() == before.games[5].mainline_moves()
    assert "炮二平五" in path.read_text(encoding="utf-8").split("a comment on the sixth game")[1][:40]  # its notation
    old_pieces, new_pieces = game_bytes(original), game_bytes(path.read_bytes())
    assert len(new_pieces) == 15
    assert [piece for number, piece in enumerate(new_pieces) if number != 5] == \
        [piece for number, piece in enumerate(old_pieces) if number != 5]  # byte for byte
    # another game opened after the save is read from where it now lies, and saved too
    show_game(window, 6)
    assert window.controller.game().mainline_moves() == before.games[6].mainline_moves()
    show_game(window, 14)
    window.controller.set_comment("and the last one")
    window.action("Save").trigger()
    final = read_games(path)
    assert [game.comment for game in final.games][5::9] == ["a comment on the sixth game", "and the last one"]
    assert [format_pgn(game) for number, game in enumerate(final.games) if number not in (5, 14)] == \
        [format_pgn(game) for number, game in enumerate(before.games) if number not in (5, 14)]


def test_saving_one_game_of_the_1391_game_file_keeps_the_other_1390(qtbot, window, tmp_path):
    path = tmp_path / BIG_FILE.name
    shutil.copy(BIG_FILE, path)
    original = path.read_bytes()
    assert open_file(qtbot, window, path)
    show_game(window, 700)
    window.controller.set_comment("kept")
    window.action("Save").trigger()
    new = path.read_bytes()
    old_pieces, new_pieces = game_bytes(original), game_bytes(new)
    assert len(new_pieces) == 1391
    assert new_pieces[:700] == old_pieces[:700] and new_pieces[701:] == old_pieces[701:]
    assert b"{kept}" in new_pieces[700]
    assert len(read_games(path).games) == 1391


def test_save_as_onto_the_open_collection_keeps_its_games(qtbot, window, tmp_path):
    from test_ui_daily_use import fill_save_dialog

    from xqdesk.notation import Notation
    from xqdesk.ui.record.files import SAVE_FORMATS

    path = tmp_path / "fifteen.pgn"
    shutil.copy(FIFTEEN, path)
    assert open_file(qtbot, window, path)
    show_game(window, 2)
    window.controller.set_comment("third")
    iccs = next(choice for choice in SAVE_FORMATS if choice.suffix == ".pgn" and choice.notation is Notation.ICCS)
    confirmed: list[str] = []

    def confirm_replacing() -> None:  # the file dialog's own "already exists, replace it?"
        box = next((widget for widget in QApplication.topLevelWidgets()
                    if isinstance(widget, QMessageBox) and widget.isVisible()), None)
        if box is None:
            QTimer.singleShot(20, confirm_replacing)
            return
        confirmed.append(box.text())
        box.button(QMessageBox.StandardButton.Yes).click()
    fill_save_dialog(window, path, iccs.filter_text())
    QTimer.singleShot(0, confirm_replacing)
    window.action("Save as…").trigger()
    assert "already exists" in confirmed[0]
    games = read_games(path).games
    assert len(games) == 15 and games[2].comment == "third"


def test_a_collection_changed_since_it_was_opened_is_not_overwritten(qtbot, window, tmp_path):
    path = tmp_path / "fifteen.pgn"
    shutil.copy(FIFTEEN, path)
    assert open_file(qtbot, window, path)
    show_game(window, 1)
    window.controller.set_comment("mine")
    changed = path.read_bytes() + b'\n[Event "added by another program"]\n\n1. h2e2 *\n'
    path.write_bytes(changed)
    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
    assert not window.files.save()
    assert "changed by another program" in seen[0] and "Save the game as another file" in seen[0]
    assert path.read_bytes() == changed
    assert window.files.has_unsaved_changes()


def test_a_damaged_collection_offers_save_as_and_stays_whole(qtbot, window, tmp_path):
    path = tmp_path / "damaged.pgn"
    text = FIFTEEN.read_text(encoding="utf-8")
    pieces = text.split("[Event ")
    pieces[4] = pieces[4].replace("马二进三", "马二进九", 1)  # an impossible move in game 4
    path.write_text("[Event ".join(pieces), encoding="utf-8")
    original = path.read_bytes()
    assert open_file(qtbot, window, path)
    show_game(window, 0)
    window.controller.set_comment("mine")
    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
    assert not window.files.save()
    assert "damaged" in seen[0] and "Save the game as another file" in seen[0]
    assert path.read_bytes() == original


def test_a_new_game_is_never_saved_over_an_open_collection(qtbot, window, tmp_path):
    path = tmp_path / "fifteen.pgn"
    shutil.copy(FIFTEEN, path)
    original = path.read_bytes()
    assert open_file(qtbot, window, path)
    window.start_game(None, None)
    assert window.controller.play_move(Move.from_iccs("h2e2"))
    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
    assert not window.files.save()
    assert "not one of the 15 games" in seen[0]
    assert path.read_bytes() == original
