"""The engines dialog: add a course player, a UCI engine (options from its own option lines) and
the built-in engine; edit names and options; the list persists through QSettings."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from xqdesk.engines.errors import EngineError
from xqdesk.ui.engines_dialog import EnginesDialog, unique_name
from xqdesk.ui.settings import EngineKind, EngineProfile, Settings, load_settings, open_store

FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK), reason="fairy-stockfish is not installed")
PLAYERS = Path(__file__).resolve().parent / "players"


@pytest.fixture
def store(tmp_path):
    return open_store(str(tmp_path / "xqdesk.ini"))


@pytest.fixture
def dialog(qtbot, store):
    widget = EnginesDialog(Settings(language="zh_CN"), store)
    qtbot.addWidget(widget)
    yield widget
    widget.reject()


@needs_fairy
def test_a_uci_engine_brings_its_own_options(qtbot, dialog):
    with qtbot.waitSignal(dialog.options_loaded, timeout=10000) as loaded:
        dialog.add_uci_engine(FAIRY)
    name = loaded.args[0]
    assert name.startswith("Fairy-Stockfish")
    options = {option.name: option for option in dialog.declared_options(name)}
    assert "Skill Level" in options and "UCI_Variant" not in options and "MultiPV" not in options
    assert dialog.engine_list.currentItem().text() == name
    rows = {dialog.options_table.item(row, 0).text(): dialog.options_table.item(row, 1).text()
            for row in range(dialog.options_table.rowCount())}
    assert rows["Skill Level"] == options["Skill Level"].default

    dialog.set_option(name, "skill level", "3")
    with pytest.raises(ValueError, match="'99'"):
        dialog.set_option(name, "Skill Level", "99")
    row = [dialog.options_table.item(r, 0).text() for r in range(dialog.options_table.rowCount())].index("Hash")
    dialog.options_table.item(row, 1).setText("32")
    profile = dialog.profiles()[0]
    assert profile.kind is EngineKind.UCI and profile.path == FAIRY
    assert dict(profile.options) == {"Skill Level": "3", "Hash": "32"}


def test_an_engine_that_does_not_start_is_reported(qtbot, dialog, tmp_path):
    with qtbot.waitSignal(dialog.options_failed, timeout=5000) as failed:
        dialog.add_uci_engine(str(tmp_path / "not-an-engine"))
    assert "not-an-engine" in failed.args[0]


def test_players_and_builtin_engines_are_added_renamed_removed_and_saved(qtbot, dialog, store):
    with qtbot.waitSignal(dialog.options_loaded, timeout=10000) as loaded:
        player = dialog.add_player(str(PLAYERS / "ordinary"))
    assert player.kind is EngineKind.PLAYER and player.name == "ordinary" and loaded.args == ["ordinary"]
    with pytest.raises(EngineError, match="nowhere"):
        dialog.add_player(str(PLAYERS / "nowhere"))
    builtin = dialog.add_builtin(5)
    assert builtin.kind is EngineKind.BUILTIN and builtin.level == 5
    dialog.level_box.setValue(7)
    dialog.name_edit.setText("ordinary")
    dialog.name_edit.editingFinished.emit()
    assert [p.name for p in dialog.profiles()] == ["ordinary", "ordinary (2)"]
    assert dialog.profiles()[1].level == 7
    dialog.add_builtin(2)
    dialog.remove(dialog.profiles()[2].name)
    dialog.accept()
    saved = load_settings(store)
    assert saved.engines == dialog.profiles()
    assert saved.language == "zh_CN"


def test_the_dialog_starts_from_the_saved_list(qtbot, store):
    first = EngineProfile("mine", EngineKind.BUILTIN, level=4)
    dialog = EnginesDialog(Settings(engines=(first,)), store)
    qtbot.addWidget(dialog)
    assert dialog.engine_list.count() == 1 and dialog.name_edit.text() == "mine"
    assert dialog.level_box.value() == 4 and dialog.level_box.isEnabled()
    dialog.reject()
    assert load_settings(store).engines == ()


def test_names_are_made_unique():
    assert unique_name("a", set()) == "a"
    assert unique_name("a", {"a", "a (2)"}) == "a (3)"


def test_a_player_that_cannot_load_says_why_at_once(qtbot, dialog, tmp_path):
    folder = tmp_path / "player_9"
    folder.mkdir()
    (folder / "player_9.py").write_text("class Player:\n    def __init__(self, side)\n", encoding="utf-8")
    with qtbot.waitSignal(dialog.options_failed, timeout=10000) as failed:
        dialog.add_player(str(folder))
    assert "SyntaxError" in failed.args[0]
    assert "player_9" in dialog.status_label.text()
