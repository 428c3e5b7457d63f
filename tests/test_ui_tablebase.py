"""The window with endgame tables: the tablebase pane and the tables as an analysis engine."""
import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.ui.base.i18n import Language, set_language
from xqdesk.ui.game.game_controller import Mode

pytestmark = pytest.mark.engines

WON = "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w"
"""Red mates in 5 plies, only by h8h9."""


def test_the_pane_says_who_wins_and_in_how_many_plies(window, qtbot, egtb_dir):
    pane = window.tablebase_pane
    assert not pane.isVisible()
    window.analysis.set_tablebase_directory(str(egtb_dir))
    # a middlegame has nothing to do with these small tables: the pane takes no room at all
    assert not pane.isVisible() and pane.verdict() == ""
    window.controller.new_game(Mode.ANALYSIS, start_fen=WON)
    assert pane.isVisible() and pane.verdict() == "Red wins, mate in 5"
    qtbot.waitUntil(lambda: window.tablebase_pane.height() > 0, timeout=HANG_GUARD_MS)
    list_with_pane = window.move_list.height()
    assert pane.move_texts()[0].endswith("mates in 5") and len(pane.move_texts()) == 8
    window.controller.new_game(Mode.ANALYSIS, start_fen="3a1k3/9/9/9/9/9/9/3K5/9/8R b")
    assert pane.verdict() == "Red wins, mate in 6" and pane.move_texts()[0].endswith("is mated in 6")
    window.controller.new_game(Mode.ANALYSIS, start_fen="2bakab2/9/9/9/9/9/9/9/4N4/3K5 w")
    assert pane.verdict() == "Draw" and pane.move_texts()[0].endswith("draw")
    window.controller.new_game(Mode.ANALYSIS, start_fen="3k5/4a4/9/9/9/9/9/9/RR7/4K4 w")
    assert pane.verdict() == "Not in the tablebase (needs KRRKA)" and pane.move_texts() == []
    assert pane.isVisible() and not pane.moves_list.isVisible()  # one line, no empty list
    set_language(Language.CHINESE)
    assert pane.verdict() == "残局库未收录（需要 KRRKA）"
    window.controller.new_game(Mode.ANALYSIS, start_fen=WON)
    assert pane.verdict() == "红胜，5 步（半回合）杀"
    assert window.settings.tablebase_path == str(egtb_dir)
    window.controller.new_game(Mode.ANALYSIS)  # back to a middlegame: the move list gets the room back
    qtbot.waitUntil(lambda: window.move_list.height() > list_with_pane, timeout=HANG_GUARD_MS)
    assert not pane.isVisible()


def test_a_tablebase_is_picked_like_an_engine_for_analysis(window, qtbot, egtb_dir):
    window.analysis.set_tablebase_directory(str(egtb_dir))
    profile = window.analysis.tablebase_profile()
    assert profile in window.analysis.candidates()
    window.controller.new_game(Mode.ANALYSIS, start_fen=WON)
    window.analysis.start([profile])
    view = window.engine_panel.views[0]
    qtbot.waitUntil(lambda: bool(view.row_texts()), timeout=HANG_GUARD_MS)
    assert view.row_texts()[0][1] == "#3"
    window.analysis.stop()
    qtbot.waitUntil(lambda: not window.engine_panel.is_analysing(), timeout=HANG_GUARD_MS)


def test_after_an_install_the_pane_waits_for_the_solver_in_view_instead_of_freezing(window, qtbot, egtb_dir,
                                                                                  tmp_path, monkeypatch):
    from xqdesk.engines.compiled_code import is_ready
    from xqdesk.ui.engines.engine_preparation import EnginePreparation

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no stamp: as after an install
    preparation = EnginePreparation(window.statusBar())
    preparation.install()
    try:
        pane = window.tablebase_pane
        window.analysis.set_tablebase_directory(str(egtb_dir))
        window.controller.new_game(Mode.ANALYSIS, start_fen=WON)
        assert pane.verdict() == "Preparing the tablebase solver…" and preparation.kind == "egtb"
        assert preparation.label.text().startswith("Preparing the tablebase solver for this computer")
        qtbot.waitUntil(lambda: pane.verdict() == "Red wins, mate in 5", timeout=HANG_GUARD_MS)
        assert is_ready("egtb") and pane.move_texts()[0].endswith("mates in 5")
    finally:
        preparation.stop()
