"""The window on a laptop and in a game: the evaluation bar follows the seated engines' scores
during engine games; an aborted game is not called a draw; built-in
levels are named in the interface language."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

ENGINE = EngineProfile("Built-in level 20", EngineKind.BUILTIN, level=20)


def test_the_evaluation_bar_shows_the_seated_engines_scores_between_their_moves(qtbot, window):
    clock = TimeControl.per_move(0.3)
    window.controller.live.configure(replace(window.controller.live.settings, engine_delay=0.0))
    window.start_game(ENGINE, ENGINE, time_controls={RED: clock, BLACK: clock})
    qtbot.waitUntil(lambda: window.controller.length() >= 4, timeout=HANG_GUARD_MS)
    assert window.controller.stop_game()
    qtbot.wait(300)  # whatever the stopped searches still report has arrived
    assert window.eval_bar.score() is not None  # not grey: the last seated engine's score of the position
    assert window.eval_bar.text()
    window.controller.back()
    assert window.eval_bar.score() is not None  # and of the position before it


def test_an_aborted_game_is_not_called_a_draw(qtbot):
    from xqdesk.outcome import Outcome
    from xqdesk.ui.base.i18n import Language, set_language
    from xqdesk.ui.record.game_info import result_text, winner_text

    aborted = Outcome.aborted("Game aborted (the engine could not start)")
    assert result_text(aborted) == "* — Game aborted (the engine could not start)"
    assert winner_text(aborted) == "No result"
    assert "Draw" not in result_text(Outcome.aborted(""))
    set_language(Language.CHINESE)
    try:
        assert "和棋" not in result_text(aborted) and "对局中止" in result_text(aborted)
        assert winner_text(aborted) == "无结果"
    finally:
        set_language(Language.ENGLISH)


def test_built_in_levels_are_named_in_the_interface_language(qtbot, window):
    from xqdesk.ui.base.i18n import Language, set_language
    from xqdesk.ui.game.seat_dialogs import BUILTIN_PROFILES, NewGameDialog

    set_language(Language.CHINESE)
    try:
        dialog = NewGameDialog(BUILTIN_PROFILES, "10s", "none", 0.0, can_continue=False)
        qtbot.addWidget(dialog)
        texts = [dialog.red_box.itemText(index) for index in range(dialog.red_box.count())]
        assert "内置引擎 3 级" in texts and not any("Built-in" in text for text in texts)
        window.start_game(None, BUILTIN_PROFILES[1])  # level 3
        assert window.controller.game().headers["Black"] == "内置引擎 3 级"
        assert window.controller.game().headers["Red"] == "棋手"
    finally:
        set_language(Language.ENGLISH)
