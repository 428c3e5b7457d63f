"""The window on laptop screens. A 1366×768 screen leaves a window about 1366×700 once the task bar
and the title bar have their share, a 1024×600 one about 1024×540: the window fits both (its least
height is no more), shows at least ten move rows at 768 px while replaying and while engines
analyse, folds the engine panel when it has nothing to say, and its toolbar fits 800 px; two engines
with long names fit 1024 px, and show three lines each at 768 px."""
from __future__ import annotations

import pytest
from datafiles import GAMES
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar
from window_files import open_file

from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

LONG_GAME = GAMES / "chinese_gb18030" / "eleeye_05.相眼竞技(先负)象棋旋风(A2-A6).PGN"
NEXT_GAME = GAMES / "chinese_gb18030" / "eleeye_07.相眼竞技(先胜)棋乐无穷(A2-A4).PGN"
LAPTOP_768 = (1366, 700)
LAPTOP_600 = (1024, 540)


def move_rows_shown(window) -> int:
    """How many rows of the move list are whole in sight."""
    table = window.move_list.table
    height = table.viewport().height()
    return sum(1 for row in range(table.rowCount())
               if table.rowViewportPosition(row) >= 0
               and table.rowViewportPosition(row) + table.rowHeight(row) <= height)


def resize_to(qtbot, window, size: tuple[int, int]) -> None:
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size, timeout=HANG_GUARD_MS)


def analyse(qtbot, window) -> None:
    """Start the analysis engine from the folded panel's button and wait for its first lines."""
    panel = window.engine_panel
    qtbot.mouseClick(panel.analysis_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(panel.views[0].row_texts()), timeout=HANG_GUARD_MS)
    qtbot.waitUntil(lambda: window.engine_dock.height() > 100, timeout=HANG_GUARD_MS)  # the dock unfolded


def test_at_768_px_ten_move_rows_replaying_and_analysing(qtbot, window):
    resize_to(qtbot, window, LAPTOP_768)
    assert open_file(qtbot, window, LONG_GAME)
    panel = window.engine_panel
    assert window.move_list.table.rowCount() > 20
    # replaying with no engine: the panel folds to one line and the move list takes the height
    assert not panel.is_occupied() and panel.idle_bar.isVisible()
    qtbot.waitUntil(lambda: window.engine_dock.height() < 60, timeout=HANG_GUARD_MS)
    assert move_rows_shown(window) >= 10
    assert window.board_view.height() >= 400

    analyse(qtbot, window)
    assert panel.is_occupied() and panel.views[0].lines_table.isVisible()
    assert (window.width(), window.height()) == LAPTOP_768
    qtbot.waitUntil(lambda: move_rows_shown(window) >= 10, timeout=HANG_GUARD_MS)
    assert window.score_graph.isVisible()

    window.analysis.stop()
    panel.shutdown()  # the engine gone, its scores still in the graph: the panel stays open
    assert panel.is_occupied()
    assert open_file(qtbot, window, NEXT_GAME)  # the next game replayed: folded, the rows come back
    assert not panel.is_occupied() and not window.score_graph.has_scores()
    qtbot.waitUntil(lambda: window.engine_dock.height() < 60, timeout=HANG_GUARD_MS)
    assert move_rows_shown(window) > 10


def test_a_1024x600_laptop_fits_the_window_with_an_engine_analysing(qtbot, window):
    resize_to(qtbot, window, LAPTOP_600)
    assert open_file(qtbot, window, LONG_GAME)  # the game's names and event take their lines
    assert window.minimumSizeHint().height() <= LAPTOP_600[1]
    assert move_rows_shown(window) >= 8
    analyse(qtbot, window)
    assert window.minimumSizeHint().height() <= LAPTOP_600[1]
    assert (window.width(), window.height()) == LAPTOP_600  # never grown past the screen
    assert move_rows_shown(window) >= 3
    assert window.board_view.height() >= 250


def test_the_toolbar_fits_800_px_in_both_languages(qtbot, window):
    from xqdesk.ui.base.i18n import Language, set_language

    resize_to(qtbot, window, (800, LAPTOP_600[1]))
    toolbar = window.findChild(QToolBar, "main-toolbar")
    for language in (Language.ENGLISH, Language.CHINESE):
        set_language(language)
        qtbot.waitUntil(lambda: toolbar.sizeHint().width() <= window.width(), timeout=HANG_GUARD_MS)
        hidden = [action.text() for action in toolbar.actions()
                  if not action.isSeparator() and not toolbar.widgetForAction(action).isVisible()]
        assert hidden == [], language
    step = toolbar.widgetForAction(window.action("Next move"))
    assert step.toolButtonStyle() is Qt.ToolButtonStyle.ToolButtonIconOnly
    assert window.action("Next move").toolTip() == "下一步"  # the text is still there, as the tooltip


LONG_NAMED = (EngineProfile("Fairy-Stockfish 11.1 LB 64 (xiangqi, 16 MB hash)", EngineKind.BUILTIN, level=20),
              EngineProfile("ElephantEye 3.31 by Morning Yellow (UCCI)", EngineKind.BUILTIN, level=6))


def analyse_with_two(qtbot, window) -> None:
    """Two engines with long names analyse three lines each; wait until both show them."""
    window.engine_panel.set_lines(3)
    window.analysis.start(list(LONG_NAMED))
    views = window.engine_panel.views
    qtbot.waitUntil(lambda: all(len(view.row_texts()) >= 3 for view in views), timeout=HANG_GUARD_MS)
    qtbot.wait(200)  # laid out


def pv_rows_shown(view) -> int:
    """How many rows of an engine view's lines are whole in sight."""
    table = view.lines_table
    height = table.viewport().height()
    return sum(1 for row in range(table.rowCount())
               if table.rowViewportPosition(row) >= 0
               and table.rowViewportPosition(row) + table.rowHeight(row) <= height)


def test_two_engines_with_long_names_fit_a_1024_px_laptop(qtbot, window):
    resize_to(qtbot, window, LAPTOP_600)
    analyse_with_two(qtbot, window)
    assert window.minimumSizeHint().width() <= LAPTOP_600[0]
    assert (window.width(), window.height()) == LAPTOP_600  # never grown past the screen
    assert all(view.isVisible() and pv_rows_shown(view) >= 1 for view in window.engine_panel.views)
    view = window.engine_panel.views[0]
    assert view.name_label.toolTip() == view.engine_name  # the whole name at hand when it is cut


def test_three_pv_lines_of_each_engine_in_sight_at_768_px(qtbot, window):
    resize_to(qtbot, window, LAPTOP_768)
    analyse_with_two(qtbot, window)
    assert (window.width(), window.height()) == LAPTOP_768  # long names do not widen the window
    assert [pv_rows_shown(view) for view in window.engine_panel.views] == [3, 3]
    assert window.board_view.height() >= 380


def test_a_1024x600_laptop_fits_the_window_while_a_person_plays_an_engine(qtbot, window):
    """Playing puts the clocks, the seats and the engine's line on show: the window still fits
    1024×540 and never grows past it."""
    from xqdesk.move import Move
    from xqdesk.pieces import BLACK, RED
    from xqdesk.time_control import TimeControl

    resize_to(qtbot, window, LAPTOP_600)
    clock = TimeControl.parse("10m+5s")
    window.start_game(None, EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1),
                      time_controls={RED: clock, BLACK: clock})
    assert window.controller.play_move(Move.from_iccs("h2e2"))
    qtbot.waitUntil(lambda: window.controller.length() >= 2, timeout=HANG_GUARD_MS)  # the engine replied
    qtbot.wait(300)  # the clocks, the seats and the engine's line laid out
    from xqdesk.ui.base.i18n import Language

    for language in (Language.ENGLISH, Language.CHINESE):
        window.set_language(language)
        qtbot.wait(100)
        assert window.minimumSizeHint().height() <= LAPTOP_600[1], language
        assert window.minimumSizeHint().width() <= LAPTOP_600[0], language
        assert (window.width(), window.height()) == LAPTOP_600, language
        assert window.board_view.height() >= 250, language
