"""The main window as a whole: screenshot start, languages, FEN and moves on the clipboard, the
position editor starting a game, analysis with two engines side by side, keyboard stepping."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from datafiles import DATA
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication, QImage
from window_files import open_file

from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.squares import parse_square
from xqdesk.ui.app import main
from xqdesk.ui.base.i18n import Language, set_language
from xqdesk.ui.base.settings import EngineKind, EngineProfile, ScoreView
from xqdesk.ui.game.game_controller import Mode

pytestmark = pytest.mark.engines

XQF_GAME = DATA / "games" / "xqf" / "cchess_030-黄松轩先胜冯敬如.XQF"
FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"



def test_screenshot_renders_the_window_with_a_game(tmp_path, qapp, capsys):
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), str(XQF_GAME)]) == 0
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    colours = {image.pixelColor(x, y).rgb() for x in range(0, image.width(), 23) for y in range(0, image.height(), 23)}
    assert len(colours) > 20  # a drawn board, not a blank frame


def test_switching_to_chinese_translates_the_window(qtbot, window):
    window.set_language(Language.CHINESE)
    assert window.action("Take back").text() == "悔棋"
    assert window.move_list.table.horizontalHeaderItem(0).text() == "红方"
    window.set_language(Language.ENGLISH)
    assert window.action("Take back").text() == "Take back"


def test_fen_round_trips_through_the_clipboard(qtbot, window):
    fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"
    QGuiApplication.clipboard().setText(fen)
    window.action("Paste FEN").trigger()
    assert window.controller.mode() is Mode.ANALYSIS
    assert window.controller.board().fen() == fen
    QGuiApplication.clipboard().setText("")
    window.action("Copy FEN").trigger()
    assert QGuiApplication.clipboard().text() == fen
    QGuiApplication.clipboard().setText("not a fen")
    window.action("Paste FEN").trigger()
    assert "FEN" in window.statusBar().currentMessage()
    assert window.controller.board().fen() == fen


def test_moves_paste_in_any_notation_and_copy_in_rounds(qtbot, window):
    QGuiApplication.clipboard().setText("1. 炮二平五 马8进7\n2. H2+3 b7e7")
    window.action("Paste moves").trigger()
    assert [move.iccs() for move in window.controller.game().mainline_moves()] == ["h2e2", "h9g7", "h0g2", "b7e7"]
    window.action("Copy moves").trigger()
    assert QGuiApplication.clipboard().text().splitlines()[0].startswith("1. 炮二平五 ")


def test_keyboard_steps_through_the_moves(qtbot, window):
    assert open_file(qtbot, window, XQF_GAME)
    controller = window.controller
    total = controller.length()
    assert total > 20 and controller.ply() == 0
    table = window.move_list.table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Right)
    qtbot.keyClick(table, Qt.Key.Key_Right)
    assert controller.ply() == 2
    assert window.move_list.current_text().startswith(window.move_list.move_texts()[1])
    qtbot.keyClick(table, Qt.Key.Key_End)
    assert controller.ply() == total
    qtbot.keyClick(table, Qt.Key.Key_Left)
    assert controller.ply() == total - 1
    qtbot.keyClick(table, Qt.Key.Key_Home)
    assert controller.ply() == 0
    row, column = window.move_list.cell_of_ply(5)
    rect = table.visualItemRect(table.item(row, column))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert controller.ply() == 5
    assert window.board_view.board().fen() == controller.game().board_at(5).fen()


def test_a_dropped_file_opens(qtbot, window):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(XQF_GAME))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.files.loading_finished, timeout=HANG_GUARD_MS):
        window.dropEvent(event)
    assert window.controller.length() > 20
    assert str(XQF_GAME) in window.settings.recent_files


def test_position_editor_makes_a_position_and_starts_a_game_there(qtbot, window):
    window.action("Edit position…").trigger()
    editor = window.starts.position_editor.editor
    editor.clear()
    for name, code in (("e0", 7), ("d9", -7), ("a4", 6), ("i9", -6)):
        editor.place(parse_square(name), code)
    assert editor.is_valid(), editor.problems()
    fen = editor.fen()
    with qtbot.waitSignal(window.controller.position_changed, timeout=HANG_GUARD_MS):
        editor.start_game_requested.emit(fen)
    assert window.starts.position_editor is None or not window.starts.position_editor.isVisible()
    assert window.controller.game().start_fen == fen
    assert window.controller.mode() is Mode.PERSON_VS_PERSON
    click = window.board_view.square_center
    qtbot.mouseClick(window.board_view, Qt.MouseButton.LeftButton, pos=click(parse_square("a4")).toPoint())
    with qtbot.waitSignal(window.controller.move_made, timeout=HANG_GUARD_MS):
        qtbot.mouseClick(window.board_view, Qt.MouseButton.LeftButton, pos=click(parse_square("d4")).toPoint())
    assert window.controller.game().mainline_moves() == [Move.from_iccs("a4d4")]


@pytest.mark.skipif(not Path(FAIRY).exists(), reason="fairy-stockfish is not installed")
def test_analysis_with_two_engines_shows_both_and_follows_moves(qtbot, window):
    profiles = [EngineProfile("Built-in level 2", EngineKind.BUILTIN, level=2),
                EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY, options=(("Hash", "16"),))]
    window.analysis.start(profiles)
    panel = window.engine_panel
    assert window.controller.mode() is Mode.ANALYSIS
    qtbot.waitUntil(lambda: all(panel.views[i].row_texts() for i in (0, 1)), timeout=HANG_GUARD_MS)
    assert panel.views[1].isVisible()
    assert window.board_view.arrows()
    assert window.controller.play_move(Move.from_iccs("h2e2"))
    qtbot.waitUntil(lambda: all(view.row_texts() and view.row_texts()[0][-1] and
                                panel.position.ply == 1 for view in panel.views), timeout=HANG_GUARD_MS)
    assert window.controller.board().turn == BLACK
    window.analysis.stop()
    assert not panel.is_analysing()
    window.start_game(None, None)  # a new game sends the analysis engines away
    assert panel.worker(0) is None and panel.worker(1) is None
    assert window.controller.board().turn == RED


def test_the_xqdesk_command_without_a_subcommand_starts_the_window(tmp_path, qapp):
    from xqdesk.cli import main as cli_main

    out = tmp_path / "cli.png"
    assert cli_main(["--screenshot", str(out), "--language", "zh_CN"]) == 0
    assert QImage(str(out)).width() >= 1000
    set_language(Language.ENGLISH)


def test_chosen_analysis_engines_are_remembered(qtbot, window):
    names = [profile.name for profile in window.analysis.candidates()]
    assert names[0] == "Built-in" and "Built-in level 1" in names
    window.update_settings(analysis_engines=("Built-in level 1", "no such engine"))
    assert [profile.name for profile in window.analysis.engines()] == ["Built-in level 1"]
    window.update_settings(analysis_engines=())
    assert [profile.name for profile in window.analysis.engines()] == ["Built-in"]


def test_arrow_scores_follow_the_engine_panels_point_of_view(qtbot, window):
    window.controller.new_game(Mode.ANALYSIS, start_fen="3k5/9/9/9/9/9/9/9/4R4/5K3 b - - 0 1")
    window.analysis.start([EngineProfile("Built-in level 2", EngineKind.BUILTIN, level=2)])
    panel = window.engine_panel
    qtbot.waitUntil(lambda: bool(window.board_view.arrows() and panel.views[0].row_texts()), timeout=HANG_GUARD_MS)
    window.analysis.stop()
    qtbot.waitUntil(lambda: not panel.is_analysing(), timeout=HANG_GUARD_MS)
    assert panel.score_view is ScoreView.RED
    red_view = window.board_view.arrows()[0].label
    assert red_view.startswith("+") or red_view.startswith("#") and not red_view.startswith("#-")
    assert red_view == panel.views[0].row_texts()[0][1]
    panel.score_view_box.setCurrentIndex(1)  # Mover's view: Black, a chariot down
    mover_view = window.board_view.arrows()[0].label
    assert mover_view.startswith("-") or mover_view.startswith("#-")
    assert mover_view == panel.views[0].row_texts()[0][1]
    assert window.settings.score_view is ScoreView.MOVER


def test_a_small_screenshot_keeps_the_score_graph_readable_and_the_board_large(tmp_path, qapp):
    out = tmp_path / "small.png"
    assert main(["--screenshot", str(out), "--size", "1024x768", "--language", "zh_CN", "--ply", "31",
                 str(XQF_GAME)]) == 0
    set_language(Language.ENGLISH)
    assert (QImage(str(out)).width(), QImage(str(out)).height()) == (1024, 768)
    with pytest.raises(SystemExit):
        main(["--screenshot", str(out), "--size", "big"])


def test_the_score_graph_has_room_beside_the_engine_lines(qtbot, window):
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.height() == 768, timeout=HANG_GUARD_MS)
    graph, lines = window.score_graph, window.engine_panel.views[0]
    graph.set_score(0, 0.3)  # a score to draw: the folded panel opens
    qtbot.waitUntil(lambda: graph.isVisible() and graph.height() >= 100, timeout=HANG_GUARD_MS)
    panel = window.engine_panel
    graph_left = graph.mapTo(panel, graph.rect().topLeft()).x()
    lines_right = lines.mapTo(panel, lines.rect().topRight()).x()
    assert graph_left >= lines_right  # beside the lines, not a strip below
    assert window.board_view.height() >= 400


def test_paste_game_reads_any_record_format_and_says_which(qtbot, window):
    assert open_file(qtbot, window, XQF_GAME) and window.files.current_path == XQF_GAME
    ubb = (DATA / "games" / "dpxq" / "yilin_xinbian_variations.ubb").read_text("utf-8")
    QGuiApplication.clipboard().setText(ubb)
    window.action("Paste game").trigger()
    assert window.files.current_path is None  # Save must not overwrite the file opened before
    game = window.controller.game()
    assert len(game.mainline_moves()) == 63 and sum(1 for _ in game.walk()) == 233
    assert "DhtmlXQ (UBB)" in window.statusBar().currentMessage()
    QGuiApplication.clipboard().setText((DATA / "games" / "playok" / "tmt6838g_vs_computerhuang.wxf").read_text("utf-8"))
    window.action("Paste game").trigger()
    assert len(window.controller.game().mainline_moves()) == 55
    assert "PlayOK WXF" in window.statusBar().currentMessage()
    QGuiApplication.clipboard().setText("just some words")
    window.action("Paste game").trigger()
    message = window.statusBar().currentMessage()
    assert "not a game record in any known format" in message and "DhtmlXQ (UBB)" in message
    assert len(window.controller.game().mainline_moves()) == 55  # the game on show is kept


def test_paste_game_with_several_games_lists_them(qtbot, window):
    QGuiApplication.clipboard().setText((DATA / "games" / "notation_15" / "chinese.pgn").read_text("utf-8"))
    window.action("Paste game").trigger()
    assert window.files.game_table is not None and window.files.game_table.row_count() == 15
    assert "15" in window.statusBar().currentMessage() and "PGN" in window.statusBar().currentMessage()


def test_a_xiangqi_bridge_library_opens_as_a_table_of_games(qtbot, window):
    assert open_file(qtbot, window, DATA / "games" / "ccbridge" / "1956_national_championship_first5.cbl")
    table = window.files.game_table
    assert table is not None and table.row_count() == 5
    columns = table.COLUMNS
    assert table.text(0, columns.index("Red")) == "保定邓裕如" and table.text(0, columns.index("Result")) == "0-1"
    qtbot.waitExposed(table)
    table.table.scrollTo(table.model.index(2, 0))
    qtbot.mouseClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(2))
    qtbot.mouseDClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(2))
    assert len(window.controller.game().mainline_moves()) == 93
