"""UCCI engines in the window: the engines dialog detects the protocol of an executable and says
which it found; a UCCI engine analyses (one line when it offers no MultiPV) and plays. With the
greedy UCCI test engine always, and with the real ElephantEye when its source is given."""
from __future__ import annotations

import pytest
from hang_guard import HANG_GUARD_MS
from ucci_engines import greedy_ucci_executable

from xqdesk.move import Move
from xqdesk.ui.base.settings import EngineKind, EngineProfile, Settings, open_store
from xqdesk.ui.engines.engines_dialog import EnginesDialog
from xqdesk.ui.game.game_controller import GameController, Mode

pytestmark = pytest.mark.engines


@pytest.fixture
def dialog(qtbot, tmp_path):
    widget = EnginesDialog(Settings(), open_store(str(tmp_path / "xqdesk.ini")))
    qtbot.addWidget(widget)
    yield widget
    widget.reject()


def add_and_detect(qtbot, dialog: EnginesDialog, path: str, timeout: int = 20000) -> EngineProfile:
    with qtbot.waitSignal(dialog.options_loaded, timeout=timeout) as loaded:
        dialog.add_engine(path)
    name = loaded.args[0]
    return next(profile for profile in dialog.profiles() if profile.name == name)


def analyse(qtbot, window, profile: EngineProfile) -> None:
    window.engine_panel.set_lines(2)
    window.analysis.start([profile])
    view = window.engine_panel.views[0]
    qtbot.waitUntil(lambda: bool(view.row_texts()), timeout=HANG_GUARD_MS)
    assert window.controller.play_move(Move.from_iccs("h2e2"))
    board = window.controller.board()
    qtbot.waitUntil(lambda: bool(window.board_view.arrows())
                    and all(board.is_legal(arrow.move) for arrow in window.board_view.arrows()), timeout=HANG_GUARD_MS)
    assert len(view.row_texts()) == 1  # no MultiPV option: one line
    window.analysis.stop()
    # the engine answers the stop with its best move; the log shows it within a batch or two
    qtbot.waitUntil(lambda: "< bestmove " in view.log_view.toPlainText(), timeout=HANG_GUARD_MS)
    log = view.log_view.toPlainText()
    assert "> ucci" in log and "< ucciok" in log and "< bestmove " in log


def test_the_dialog_detects_a_ucci_engine_and_shows_its_own_options(qtbot, dialog, tmp_path):
    profile = add_and_detect(qtbot, dialog, greedy_ucci_executable(tmp_path))
    assert profile.kind is EngineKind.UCCI and profile.name == "Greedy UCCI"
    assert "UCCI" in dialog.status_label.text()
    names = [option.name for option in dialog.declared_options(profile.name)]
    assert names == ["hashsize", "offer", "newgame"]  # usemillisec is the window's own business
    dialog.set_option(profile.name, "hashsize", "32")
    with pytest.raises(ValueError, match="'hashsize' takes 1..64"):
        dialog.set_option(profile.name, "hashsize", "100")
    assert profile.to_spec().protocol.value == "ucci"


def test_a_ucci_engine_analyses_in_the_window(qtbot, window, tmp_path):
    analyse(qtbot, window, EngineProfile("Greedy UCCI", EngineKind.UCCI, greedy_ucci_executable(tmp_path)))


def test_a_ucci_engine_plays_in_the_window_and_its_draw_offers_are_reported(qtbot, tmp_path):
    controller = GameController()
    messages: list[str] = []
    controller.status_message.connect(messages.append)
    try:
        engine = EngineProfile("Greedy UCCI", EngineKind.UCCI, greedy_ucci_executable(tmp_path), options=(("offer", "draw"),))
        controller.new_game(Mode.ENGINE_VS_ENGINE, red=engine, black=engine)
        qtbot.waitUntil(lambda: controller.length() >= 4, timeout=HANG_GUARD_MS)
        assert "The engine offers a draw" in messages
    finally:
        controller.shutdown()


def test_eleeye_is_added_in_the_dialog_and_analyses_in_the_window(qtbot, dialog, window, eleeye):
    profile = add_and_detect(qtbot, dialog, eleeye)
    assert profile.kind is EngineKind.UCCI and profile.name == "ElephantEye"
    assert "Found a UCCI engine: ElephantEye" in dialog.status_label.text()
    assert "hashsize" in [option.name for option in dialog.declared_options(profile.name)]
    analyse(qtbot, window, profile)
