"""The interface's string table: switching languages at run time, and a complete Chinese table."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.ui.base import i18n
from xqdesk.ui.base.i18n import CHINESE, Language, language_notifier, set_language, tr

pytestmark = pytest.mark.engines

UI_DIR = Path(i18n.__file__).resolve().parents[1]

UI_MODULES = sorted(path.relative_to(UI_DIR).as_posix() for path in UI_DIR.rglob("*.py"))
"""Every module of the window: each ``tr("...")`` literal in any of them needs a Chinese entry."""

#: The ``tr(...)`` calls whose argument is not a literal (by module file name: the names are unique
#: across the rooms), and what feeds them; a new one fails
#: :func:`test_every_indirect_tr_call_is_known` until its texts are checked here.
INDIRECT_TR_CALLS = {
    ("board_view.py", "tr('Red' if self._board.turn == RED else 'Black')"): "both literals",
    ("board_view.py", "tr('Red to move' if self._board.turn == RED else 'Black to move')"): "both literals",
    ("engine_view.py", "tr(text)"): "EngineView.COLUMNS",
    ("engine_view.py", "tr(self._state)"): "the set_state literals",
    ("engines_dialog.py", "tr(KIND_LABELS[profile.kind])"): "KIND_LABELS",
    ("engines_dialog.py", "tr(KIND_LABELS[kind])"): "KIND_LABELS",
    ("explorer_panel.py", "tr(self.columns[section])"): "ExplorerPanel.MOVE_COLUMNS and GAME_COLUMNS",
    ("i18n.py", "tr(text)"): "tr_outcome: the outcome texts",
    ("i18n.py", "tr(sentence)"): "tr_outcome: the outcome texts",
    ("i18n.py", "tr(side_name(color))"): "side_word: 'Red' and 'Black'",
    ("i18n.py", "tr(name)"): "tr_player: PLAYER_NAMES",
    ("i18n.py", "tr(english)"): "tr_player: PLAYER_NAMES",
    ("move_reasons.py", "tr(reason.value)"): "IllegalReason's texts",
    ("main_window.py", "tr(key)"): "the window's actions and menus, checked on a real window",
    ("move_list.py", "tr(label)"): "NOTATION_LABELS",
    ("move_list.py", "tr(text)"): "CONTEXT_MENU_TEXTS",
    ("position_editor.py", "tr(PIECE_LABELS[problem.piece_type])"): "PIECE_LABELS",
    ("position_editor.py", "tr(PIECE_LABELS[abs(code)])"): "PIECE_LABELS",
    ("reasons.py", "tr(template)"): "REASON_TEMPLATES",
    ("reasons.py", "tr(value)"): "a value of a reason: a known text, or itself",
}


def _string_constants(node: ast.AST) -> list[str]:
    """The string literals ``node`` may evaluate to: a constant, or either branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _string_constants(node.body) + _string_constants(node.orelse)
    return []


def _calls(source: str, name: str) -> list[ast.Call]:
    """Every call with arguments of a function or method called ``name`` in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if callee == name:
                found.append(node)
    return found


def tr_literals(source: str) -> list[str]:
    """Every string literal passed as the first argument of a call to ``tr`` in ``source`` (both
    branches of a conditional expression too), and the engine states given to ``set_state``."""
    found = []
    for call in _calls(source, "tr") + _calls(source, "set_state"):
        found.extend(_string_constants(call.args[0]))
    return found


def indirect_tr_calls(source: str) -> list[str]:
    """The ``tr(...)`` calls of ``source`` whose argument is not a string literal."""
    return [ast.unparse(call) for call in _calls(source, "tr")
            if isinstance(call.func, ast.Name) and not isinstance(call.args[0], ast.Constant)]


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


def test_every_reason_a_move_is_refused_has_a_chinese_entry():
    from xqdesk.board import IllegalReason

    assert [reason for reason in IllegalReason if reason and reason.value not in CHINESE] == []


@pytest.mark.parametrize("module", UI_MODULES)
def test_every_tr_literal_has_a_chinese_entry(module):
    path = UI_DIR / module
    missing = [text for text in tr_literals(path.read_text(encoding="utf-8")) if text and text not in CHINESE]
    assert missing == []


def test_the_completeness_check_sees_every_ui_module_and_conditional_texts():
    assert {"main_window.py", "game_controller.py", "board_view.py", "move_list.py", "game_info.py",
            "comment_editor.py", "variation_list.py", "files.py", "app.py"} <= {Path(m).name for m in UI_MODULES}
    rooms = {path.name for path in UI_DIR.iterdir() if (path / "__init__.py").exists()}
    assert rooms == {module.split("/")[0] for module in UI_MODULES if "/" in module}
    names = [Path(m).name for m in UI_MODULES if Path(m).name != "__init__.py"]
    assert len(names) == len(set(names)), "INDIRECT_TR_CALLS names modules by file name"
    assert tr_literals('tr("A" if x else "B"); view.set_state("Ready")') == ["A", "B", "Ready"]
    assert indirect_tr_calls('tr(key); tr("literal")') == ["tr(key)"]


@pytest.mark.parametrize("module", UI_MODULES)
def test_every_indirect_tr_call_is_known(module):
    source = (UI_DIR / module).read_text(encoding="utf-8")
    unknown = [call for call in indirect_tr_calls(source) if (Path(module).name, call) not in INDIRECT_TR_CALLS]
    assert unknown == [], "check the texts such a call translates and add it to INDIRECT_TR_CALLS"


def test_tables_of_texts_translated_indirectly_have_chinese_entries():
    from xqdesk.ui.analysis.engine_view import EngineView
    from xqdesk.ui.base.reasons import REASON_TEMPLATES
    from xqdesk.ui.board.position_editor import PIECE_LABELS
    from xqdesk.ui.engines.engines_dialog import KIND_LABELS
    from xqdesk.ui.explorer.explorer_panel import ExplorerPanel
    from xqdesk.ui.record.files import GameTable
    from xqdesk.ui.record.move_list import CONTEXT_MENU_TEXTS, NOTATION_LABELS

    texts = [*EngineView.COLUMNS, *KIND_LABELS.values(), *GameTable.COLUMNS,
             *ExplorerPanel.MOVE_COLUMNS, *ExplorerPanel.GAME_COLUMNS,
             *(label for _notation, label in NOTATION_LABELS), *PIECE_LABELS.values(), *CONTEXT_MENU_TEXTS,
             *REASON_TEMPLATES, *i18n.PLAYER_NAMES]
    assert [text for text in texts if text not in CHINESE and text != "#"] == []


def test_every_action_and_menu_of_the_window_reads_chinese(qtbot, window):
    from PySide6.QtGui import QAction

    window.set_language(Language.CHINESE)
    languages = {language.native_name for language in Language}
    shown = [action.text() for action in window.findChildren(QAction)
             if action.text() and not action.isSeparator() and action.text() not in languages]
    shown += [action.menu().title() for action in window.menuBar().actions()]
    assert len(shown) > 30
    untranslated = [text for text in shown if not any("\u4e00" <= char <= "\u9fff" for char in text)]
    assert untranslated == []


def test_a_deleted_widget_no_longer_follows_the_language(qtbot):
    from PySide6.QtWidgets import QLabel
    from shiboken6 import isValid

    from xqdesk.ui.base.i18n import follow_language

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
    from xqdesk.ui.base.i18n import tr_outcome

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
    qtbot.waitUntil(lambda: cancel.text().replace("&", "").startswith("取消"), timeout=HANG_GUARD_MS)
    set_language(Language.ENGLISH)
    qtbot.waitUntil(lambda: cancel.text().replace("&", "") == "Cancel", timeout=HANG_GUARD_MS)


def test_problem_reasons_are_said_in_chinese_and_unknown_ones_kept():
    from xqdesk.ui.base.reasons import engine_reason, tr_reason

    set_language(Language.CHINESE)
    try:
        assert tr_reason("missing.pgn, whole file: no such file or folder") == "missing.pgn，整个文件：没有这个文件或文件夹"
        assert tr_reason("FEN 'rnbakabnr/9/9 w' has 3 ranks, expected 10") == "FEN 'rnbakabnr/9/9 w' 有 3 行，应为 10 行"
        assert tr_reason("FEN '4k4/9/9/9/9/9/9/9/9/9 w': 0 red kings, expected 1") == \
            "FEN '4k4/9/9/9/9/9/9/9/9/9 w'：红帅 0 个，应为 1 个"
        assert tr_reason("something nobody wrote a template for") == "something nobody wrote a template for"
        assert engine_reason("cannot start engine '/etc/passwd': Permission denied") == "无法启动引擎 '/etc/passwd'：没有权限"
    finally:
        set_language(Language.ENGLISH)
    assert tr_reason("missing.pgn, whole file: no such file or folder") == "missing.pgn, whole file: no such file or folder"


def test_a_refused_paste_and_the_program_s_player_names_read_chinese():
    from xqdesk.formats import read_games_text
    from xqdesk.ui.base.i18n import tr_player
    from xqdesk.ui.base.reasons import tr_reason

    set_language(Language.CHINESE)
    try:
        record = read_games_text("hello world", "clipboard")
        said = tr_reason(str(record.errors[0]))
        assert said.startswith("剪贴板，整个文件：不是任何已知格式的棋谱；已尝试 ")
        assert "（作为着法列表：无法在局面 " in said and "不是 WXF 记法（应形如 " in said
        for english in ("whole file", "as a move list", "cannot read move", "not WXF notation"):
            assert english not in said
        empty = read_games_text("", "clipboard")
        assert tr_reason(str(empty.errors[0])) == "剪贴板，整个文件：其中没有棋局"
        assert [tr_player(name) for name in ("Person", "xqdesk builtin", "Built-in level 3", "Hu Ronghua")] == \
            ["棋手", "xqdesk 内置引擎", "内置引擎 3 级", "Hu Ronghua"]
    finally:
        set_language(Language.ENGLISH)
    assert tr_player("棋手") == "Person" and tr_player("xqdesk builtin") == "xqdesk builtin"
