"""The window on laptop screens. A 1366×768 screen leaves a window about 1366×700 once the task bar
and the title bar have their share, a 1024×600 one about 1024×540: the window fits both (its least
height is no more), shows at least ten move rows at 768 px while replaying and while engines
analyse, folds the engine panel when it has nothing to say, and its toolbar fits 800 px."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar

from datafiles import GAMES
from hang_guard import HANG_GUARD_MS
from window_files import open_file

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

    window.stop_analysis()
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
    from xqdesk.ui.i18n import Language, set_language

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
