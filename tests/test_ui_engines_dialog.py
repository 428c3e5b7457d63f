"""The engines dialog: add a course player, a UCI engine (options from its own option lines) and
the built-in engine; edit names and options; the list persists through QSettings."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPushButton, QSpinBox

from xqdesk.engines.errors import EngineError
from xqdesk.ui.base.settings import EngineKind, EngineProfile, Settings, load_settings, open_store
from xqdesk.ui.engines.engines_dialog import EnginesDialog, unique_name

pytestmark = pytest.mark.engines

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
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS) as loaded:
        dialog.add_uci_engine(FAIRY)
    name = loaded.args[0]
    assert name.startswith("Fairy-Stockfish")
    options = {option.name: option for option in dialog.declared_options(name)}
    assert "Skill Level" in options and "UCI_Variant" not in options and "MultiPV" not in options
    assert dialog.engine_list.currentItem().text() == name
    skill = dialog.option_widgets["Skill Level"]
    assert isinstance(skill, QSpinBox) and str(skill.value()) == options["Skill Level"].default
    assert (skill.minimum(), skill.maximum()) == (options["Skill Level"].min, options["Skill Level"].max)

    dialog.set_option(name, "skill level", "3")
    with pytest.raises(ValueError, match="'99'"):
        dialog.set_option(name, "Skill Level", "99")
    dialog.option_widgets["Hash"].setValue(32)
    profile = dialog.profiles()[0]
    assert profile.kind is EngineKind.UCI and profile.path == FAIRY
    assert dict(profile.options) == {"Skill Level": "3", "Hash": "32"}


@needs_fairy
def test_options_are_typed_controls_with_defaults_and_no_level_for_a_uci_engine(qtbot, dialog):
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS) as loaded:
        dialog.add_uci_engine(FAIRY)
    name = loaded.args[0]
    declared = {option.name: option for option in dialog.declared_options(name)}
    kinds = {option.type for option in declared.values()}
    assert {"spin", "check", "button", "string"} <= kinds
    expected = {"spin": QSpinBox, "check": QCheckBox, "combo": QComboBox, "button": QPushButton, "string": QLineEdit}
    for option_name, option in declared.items():
        assert isinstance(dialog.option_widgets[option_name], expected[option.type]), option_name
    check_name = next(n for n, o in declared.items() if o.type == "check")
    box = dialog.option_widgets[check_name]
    assert box.isChecked() == (declared[check_name].default == "true")
    box.click()
    button_name = next(n for n, o in declared.items() if o.type == "button")
    dialog.option_widgets[button_name].click()
    options = dict(dialog.profiles()[0].options)
    assert options[check_name] == ("false" if declared[check_name].default == "true" else "true")
    assert options[button_name] == ""
    assert not dialog.form.isRowVisible(dialog.level_box)  # a UCI engine has no Level
    dialog.add_builtin(4)
    assert dialog.form.isRowVisible(dialog.level_box) and dialog.level_box.value() == 4


def test_an_engine_that_does_not_start_is_reported(qtbot, dialog, tmp_path):
    with qtbot.waitSignal(dialog.options_failed, timeout=HANG_GUARD_MS) as failed:
        dialog.add_uci_engine(str(tmp_path / "not-an-engine"))
    assert "not-an-engine" in failed.args[0]


@pytest.mark.parametrize("program", ["missing", "pgn", "cat"])
def test_an_engine_that_fails_to_start_is_refused_with_the_reason(qtbot, dialog, tmp_path, program):
    """A missing file, a game record and a program that never answers the handshake (/bin/cat
    echoes it back) are all refused: they leave the list and the dialog says why."""
    path = {"missing": str(tmp_path / "nothing-here"), "cat": "/bin/cat"}.get(program)
    if path is None:
        record = tmp_path / "game.pgn"
        record.write_text('[Event "x"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
        path = str(record)
    with qtbot.waitSignal(dialog.options_failed, timeout=HANG_GUARD_MS) as failed:
        dialog.add_uci_engine(path)
    assert failed.args[0].startswith("Refused") and len(failed.args[0]) > len("Refused x: ")
    assert dialog.profiles() == () and dialog.engine_list.count() == 0
    assert dialog.status_label.text() == failed.args[0]


def test_players_and_builtin_engines_are_added_renamed_removed_and_saved(qtbot, dialog, store):
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS) as loaded:
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


def test_the_learning_engines_are_added_with_their_options(qtbot, dialog):
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS):
        mcts = dialog.add_learning_engine(EngineKind.MCTS)
    assert mcts.kind is EngineKind.MCTS and mcts.to_spec().command[-1] == "mcts"
    assert "Playouts" in dialog.option_widgets
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS):
        dialog.add_zero_button.click()
    zero = dialog.profiles()[-1]
    assert zero.kind is EngineKind.ZERO and zero.to_spec().command[-1] == "zero"
    assert EngineProfile.from_json(zero.to_json()) == zero


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
    with qtbot.waitSignal(dialog.options_failed, timeout=HANG_GUARD_MS) as failed:
        dialog.add_player(str(folder))
    assert "SyntaxError" in failed.args[0]
    assert "player_9" in dialog.status_label.text()


def many_options_engine(tmp_path: Path) -> str:
    """An executable that starts ``players/uci_scripts/many_options_engine.py`` (30 options)."""
    script = PLAYERS / "uci_scripts" / "many_options_engine.py"
    launcher = tmp_path / "many-options"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {script}\n")
    launcher.chmod(0o755)
    return str(launcher)


def test_thirty_options_scroll_at_full_height_without_protocol_internals(qtbot, dialog, tmp_path, monkeypatch):
    dialog.show()
    qtbot.waitExposed(dialog)
    with qtbot.waitSignal(dialog.options_loaded, timeout=HANG_GUARD_MS) as loaded:
        dialog.add_engine(many_options_engine(tmp_path))
    name = loaded.args[0]
    assert name == "Many Options"
    assert "Protocol" not in dialog.option_widgets and "UCI_Variant" not in dialog.option_widgets
    assert len(dialog.option_widgets) == 28
    area = dialog.options_area
    qtbot.waitUntil(lambda: area.verticalScrollBar().maximum() > 0, timeout=HANG_GUARD_MS)  # laid out: the rest scrolls
    for option, widget in dialog.option_widgets.items():  # no control squeezed below its natural height
        assert widget.height() >= widget.sizeHint().height(), option
    assert area.viewport().height() >= 8 * dialog.option_widgets["Spin 1"].height()
    last = dialog.option_widgets["Text 3"]
    area.ensureWidgetVisible(last)
    assert last.visibleRegion().boundingRect().height() == last.height()
    # the opening book: a position index chosen with its "…" button
    index = tmp_path / "mine.xqdb"
    monkeypatch.setattr("xqdesk.ui.engines.engines_dialog.QFileDialog.getOpenFileName",
                        lambda *args, **kwargs: (str(index), ""))
    assert set(dialog.option_browse_buttons) == {"BookFile", "SyzygyPath"}
    dialog.option_browse_buttons["BookFile"].click()
    assert dialog.option_widgets["BookFile"].text() == str(index)
    assert dict(dialog.profiles()[0].options)["BookFile"] == str(index)


def test_refusals_name_no_command_line_or_python_internals_and_speak_chinese(qtbot, dialog):
    from xqdesk.ui.base.i18n import Language, set_language

    with qtbot.waitSignal(dialog.options_failed, timeout=30000) as failed:
        dialog.add_player(str(PLAYERS / "syntax_error"))
    text = failed.args[0]
    assert text.startswith("Refused syntax_error: cannot load player ") and "SyntaxError: " in text, text
    assert text.endswith("(player.py, line 5)"), text
    for internal in ("[", "xqdesk.engines.host", "<frozen", "xqdesk host", "exited with code"):
        assert internal not in text, text
    set_language(Language.CHINESE)
    try:
        with qtbot.waitSignal(dialog.options_failed, timeout=30000) as failed:
            dialog.add_engine("/bin/ls")
        assert failed.args[0].startswith("已拒绝 ls：该程序既不说 UCI 也不说 UCCI（对 'uci'："), failed.args[0]
        assert "[" not in failed.args[0]
    finally:
        set_language(Language.ENGLISH)
