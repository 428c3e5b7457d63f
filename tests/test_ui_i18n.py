"""The interface's string table: switching languages at run time, and a complete Chinese table."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from xqdesk.ui import i18n
from xqdesk.ui.i18n import CHINESE, Language, language_notifier, set_language, tr

UI_DIR = Path(i18n.__file__).resolve().parent

#: The window's modules whose every ``tr("...")`` literal must have a Chinese entry.
TRANSLATED_MODULES = (
    "i18n.py",
    "engine_panel.py",
    "engine_worker.py",
    "score_graph.py",
    "engines_dialog.py",
    "settings.py",
    "position_editor.py",
)


def tr_literals(source: str) -> list[str]:
    """Every string literal passed as the first argument of a call to ``tr`` in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "tr"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return found


def format_fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language(Language.ENGLISH)


def test_switching_language_translates_and_notifies_once(qtbot):
    assert tr("Take back") == "Take back"
    with qtbot.waitSignal(language_notifier().language_changed, timeout=1000) as blocker:
        set_language("zh_CN")
    assert blocker.args == ["zh_CN"]
    assert tr("Take back") == "悔棋"
    assert tr("Illegal move: {reason}").format(reason="x") == "着法不合规则：x"
    with qtbot.assertNotEmitted(language_notifier().language_changed):
        set_language(Language.CHINESE)
    set_language(Language.ENGLISH)
    assert tr("Take back") == "Take back"


def test_untranslated_text_falls_back_to_english():
    set_language(Language.CHINESE)
    assert tr("A sentence nobody translated") == "A sentence nobody translated"


def test_language_names_parse_and_unknown_ones_are_refused():
    assert Language.from_name("zh-CN") is Language.CHINESE
    assert Language.from_name("en_US") is Language.ENGLISH
    with pytest.raises(ValueError, match="'klingon'"):
        Language.from_name("klingon")


def test_translations_keep_the_placeholders_of_their_source():
    for english, chinese in CHINESE.items():
        assert format_fields(english) == format_fields(chinese), english


@pytest.mark.parametrize("module", TRANSLATED_MODULES)
def test_every_tr_literal_has_a_chinese_entry(module):
    path = UI_DIR / module
    missing = [text for text in tr_literals(path.read_text(encoding="utf-8")) if text not in CHINESE]
    assert missing == []


def test_a_deleted_widget_no_longer_follows_the_language(qtbot):
    from PySide6.QtWidgets import QLabel
    from shiboken6 import isValid

    from xqdesk.ui.i18n import follow_language

    calls = []
    label = QLabel()
    follow_language(label, lambda: calls.append(label.text()))
    set_language(Language.CHINESE)
    assert calls == [""]
    label.deleteLater()
    qtbot.waitUntil(lambda: not isValid(label), timeout=1000)
    set_language(Language.ENGLISH)
    assert calls == [""]


def test_outcome_texts_translate_and_keep_their_reason():
    from xqdesk.outcome import Outcome
    from xqdesk.pieces import BLACK, RED
    from xqdesk.ui.i18n import tr_outcome

    illegal = Outcome.illegal_move(RED, "h2h9: no such move")
    assert tr_outcome(illegal.text) == illegal.text
    set_language(Language.CHINESE)
    assert tr_outcome(illegal.text) == "红方走法违例，黑胜！（h2h9: no such move）"
    assert tr_outcome(Outcome.no_legal_moves(BLACK).text) == "黑方告负，红胜！"
    assert tr_outcome(Outcome.capture_free_draw().text) == "双方六十回合未吃子，和棋！"
    for outcome in (Outcome.timeout(RED), Outcome.timeout(BLACK), Outcome.resignation(RED),
                    Outcome.resignation(BLACK), Outcome.illegal_move(BLACK), Outcome.aborted()):
        assert tr_outcome(outcome.text) != outcome.text


def test_qt_standard_buttons_follow_the_language(qtbot):
    from PySide6.QtWidgets import QDialogButtonBox

    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.text().replace("&", "") == "Cancel"
    set_language(Language.CHINESE)  # Qt retranslates on the LanguageChange events it posts
    qtbot.waitUntil(lambda: cancel.text().replace("&", "").startswith("取消"), timeout=2000)
    set_language(Language.ENGLISH)
    qtbot.waitUntil(lambda: cancel.text().replace("&", "") == "Cancel", timeout=2000)
