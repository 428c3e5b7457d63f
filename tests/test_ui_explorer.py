"""The window's opening explorer pane and picture actions, with real widgets and a real index."""
from __future__ import annotations

import pytest
from datafiles import GAMES
from hang_guard import HANG_GUARD_MS
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox
from window_files import answer_question

from xqdesk.board import Board
from xqdesk.ecco import classify_game, classify_moves
from xqdesk.fen import STARTING_FEN
from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.position_index import PositionIndex
from xqdesk.position_key import canonical_key
from xqdesk.ui.base.i18n import Language, set_language
from xqdesk.ui.explorer.explorer_panel import ExplorerPanel, average_text
from xqdesk.ui.game.game_controller import Mode

pytestmark = pytest.mark.engines

RECORDS = (GAMES / "notation_15" / "iccs.pgn", GAMES / "chinese_gb18030")


@pytest.fixture(scope="module")
def index_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer") / "games.xqdb"
    with PositionIndex(path) as index:
        index.add(RECORDS)
    return str(path)


def _expected(index_path: str, board: Board):
    with PositionIndex(index_path) as index:
        return index.moves(board), index.games(board)


def _double_click(qtbot, table, row: int) -> None:
    index = table.model().index(row, 0)
    table.scrollTo(index)
    rect = table.visualRect(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _after(*moves: str) -> Board:
    board = Board()
    for move in moves:
        board.push_iccs(move)
    return board


@pytest.fixture
def panel(qtbot):
    widget = ExplorerPanel()
    qtbot.addWidget(widget)
    yield widget
    widget.shutdown()


def test_the_pane_shows_the_moves_and_games_of_the_position(qtbot, panel, index_path):
    panel.set_position(STARTING_FEN, ())
    assert "No position index" in panel.summary.text()
    panel.set_database(index_path)
    qtbot.waitUntil(lambda: panel.result() is not None and not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    moves, games = _expected(index_path, Board())
    table = panel.moves_model
    assert table.rowCount() == len(moves) > 3
    for row, stat in enumerate(moves):
        cells = [table.text(row, column) for column in range(table.columnCount())]
        assert cells[1:] == [str(stat.games), str(stat.red_wins), str(stat.draws), str(stat.black_wins),
                             average_text(stat.red_wins, stat.draws, stat.black_wins)]
    assert table.text(0, 0) == "炮二平五"  # h2e2, in the move list's notation
    assert panel.games_model.rowCount() == len(games) == 25  # one of the 26 starts elsewhere
    assert "25 games reached this position" in panel.summary.text() and "over 10 with a result" in panel.summary.text()


def test_only_the_newest_position_is_shown_after_quick_steps(qtbot, panel, index_path):
    panel.set_database(index_path)
    line = [Move.from_iccs(text) for text in ("h2e2", "h9g7", "h0g2", "i9h9")]
    for ply in range(len(line) + 1):
        panel.set_position(STARTING_FEN, line[:ply])
    qtbot.waitUntil(lambda: not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    result = panel.result()
    assert result is not None and result.board.fen() == _after("h2e2", "h9g7", "h0g2", "i9h9").fen()
    assert [stat.move for stat in result.moves] == [stat.move for stat in _expected(index_path, result.board)[0]]


def test_a_file_that_is_no_index_is_reported(qtbot, panel, tmp_path):
    bad = tmp_path / "bad.xqdb"
    bad.write_text("not sqlite " * 200)
    panel.set_position(STARTING_FEN, ())
    panel.set_database(str(bad))
    qtbot.waitUntil(lambda: panel.result() is not None, timeout=HANG_GUARD_MS)
    assert "bad.xqdb" in panel.summary.text() and panel.moves_model.rowCount() == 0


def test_the_window_explores_the_board_on_show_and_opens_a_game_there(qtbot, window, index_path):
    window.explorer.set_database(index_path)
    assert window.explorer_dock.isVisible() and window.action("Opening explorer").isChecked()
    panel = window.explorer_panel
    qtbot.waitUntil(lambda: panel.result() is not None and not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    _double_click(qtbot, panel.moves_table, 0)  # 炮二平五
    assert window.controller.board().fen() == _after("h2e2").fen()
    qtbot.waitUntil(lambda: not panel.is_looking_up() and panel.result().board.fen() == _after("h2e2").fen(),
                    timeout=HANG_GUARD_MS)
    reached = panel.result().games[3]
    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Discard)  # the move played there
    _double_click(qtbot, panel.games_table, 3)
    qtbot.waitUntil(lambda: window.controller.game().headers.get("Red") == reached.red
                    and window.controller.ply() == reached.ply, timeout=HANG_GUARD_MS)
    assert window.controller.mode() is Mode.REPLAY and "unsaved changes" in seen[0]
    assert canonical_key(window.controller.board()) == canonical_key(_after("h2e2"))
    assert window.settings.explorer_database == index_path
    # the pane names the opening of the game on show, at the move on show, in the interface language
    controller = window.controller
    opening = classify_moves(controller.line_moves()[:controller.ply()])
    assert panel.opening() == opening and panel.opening_label.text() == f"{opening.code} {opening.english}"
    controller.to_end()
    at_end = classify_game(controller.game())
    assert panel.opening() == at_end
    window.set_language(Language.CHINESE)
    assert panel.opening_label.text() == f"{at_end.code} {at_end.name}" and panel.opening_label.isVisibleTo(panel)


def test_picture_actions_of_the_window(qtbot, window, tmp_path, monkeypatch):
    game = read_games(GAMES / "notation_15" / "iccs.pgn").games[2]
    window.controller.load_game(game, Mode.REPLAY, ply=9)
    png, svg, gif = tmp_path / "pos.png", tmp_path / "pos.svg", tmp_path / "line.gif"
    answers = iter([(str(png), "PNG (*.png)"), (str(tmp_path / "pos"), "SVG (*.svg)"), (str(gif), "GIF (*.gif)")])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: next(answers))
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *args, **kwargs: (0.3, True))
    plain = tmp_path / "plain.png"
    assert window.pictures.export_position(str(plain))
    window.action("Show coordinates").trigger()
    assert not window.board_view.has_coordinates() and not window.settings.show_coordinates
    window.action("Flip board").trigger()
    window.action("Export position…").trigger()
    window.action("Export position…").trigger()
    with qtbot.waitSignal(window.exports.finished, timeout=HANG_GUARD_MS):  # drawn in the background
        window.action("Export game as GIF…").trigger()
        assert window.exports.is_busy() and window.exports.progress_bar is not None
    with Image.open(png) as image:
        assert image.size == (720, 792)
        band = (80, 758, 640, 782)  # under the bottom rank: Red's file numbers when shown
        with Image.open(plain) as before:
            assert before.crop(band).getcolors(4096) != image.crop(band).getcolors(4096)
        assert len(image.crop(band).getcolors(4096)) < 4  # nothing but the board there now
    assert svg.read_bytes().startswith(b"<?xml")
    with Image.open(gif) as image:
        assert image.n_frames == len(game.mainline_moves()) + 1 and image.info["duration"] == 300
    window.action("Copy position picture").trigger()
    copied = QGuiApplication.clipboard().image()
    assert (copied.width(), copied.height()) == (720, 792)
    assert "pos.png" not in window.statusBar().currentMessage()


def test_the_new_actions_read_chinese(qtbot, window):
    set_language(Language.CHINESE)
    for key in ("Opening explorer", "Choose position index…", "Export position…", "Export game as GIF…",
                "Copy position picture", "Show coordinates"):
        assert any("\u4e00" <= char <= "\u9fff" for char in window.action(key).text()), key
    assert window.explorer_dock.windowTitle() == "开局浏览"
    assert window.explorer_panel.moves_model.headerData(1, Qt.Orientation.Horizontal) == "对局"


def test_the_window_builds_an_index_in_the_background_and_explores_it(qtbot, window, tmp_path, monkeypatch):
    database = tmp_path / "built.xqdb"
    records = [str(GAMES / "notation_15" / "iccs.pgn"), str(GAMES / "chinese_gb18030")]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *args, **kwargs: (records, ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(tmp_path / "built"), ""))
    window.action("Add games to the position index…").trigger()
    assert window.explorer.builder is not None
    qtbot.waitUntil(lambda: window.settings.explorer_database == str(database), timeout=HANG_GUARD_MS)
    assert "Indexed 12 files, 26 games" in window.statusBar().currentMessage() and database.is_file()
    panel = window.explorer_panel
    qtbot.waitUntil(lambda: panel.result() is not None and not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    assert panel.moves_model.text(0, 1) == "13"  # 炮二平五 in 13 of the 26 games


def test_a_cancelled_build_in_the_window_says_so(qtbot, window, tmp_path):
    builder = window.explorer.index_files(str(tmp_path / "cut.xqdb"), [str(GAMES / "notation_15")])
    assert builder is not None
    builder.cancel()
    qtbot.waitUntil(lambda: "cancelled" in window.statusBar().currentMessage(), timeout=HANG_GUARD_MS)
    assert not builder.is_running() and window.settings.explorer_database.endswith("cut.xqdb")


def test_a_fresh_profile_explores_the_masters_book_with_no_set_up(qtbot, window, index_path):
    from xqdesk.opening_book import shipped_book

    assert not window.settings.explorer_database  # a fresh profile: no index chosen
    window.action("Opening explorer").trigger()
    panel = window.explorer_panel
    assert window.explorer_dock.isVisible()
    qtbot.waitUntil(lambda: panel.result() is not None and not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    masters = shipped_book().moves(Board())
    table = panel.book_model
    assert table.rowCount() == len(masters) > 10
    for row, stat in enumerate(masters):
        assert [table.text(row, column) for column in range(1, table.columnCount())] == [
            str(stat.games), str(stat.red_wins), str(stat.draws), str(stat.black_wins),
            average_text(stat.red_wins, stat.draws, stat.black_wins)]
    assert table.text(0, 0) == "炮二平五" and panel.book_table.isVisibleTo(panel)
    assert "Master games: " in panel.book_label.text() and "CCPD" in panel.book_label.text()
    assert not panel.moves_table.isVisibleTo(panel) and "No position index" in panel.summary.text()
    _double_click(qtbot, panel.book_table, 1)  # 兵七进一, the second most played
    assert window.controller.board().fen() == _after("c3c4").fen()
    qtbot.waitUntil(lambda: not panel.is_looking_up() and panel.result().board.fen() == _after("c3c4").fen(),
                    timeout=HANG_GUARD_MS)
    assert [stat.move for stat in panel.book_moves()] == [stat.move for stat in shipped_book().moves(_after("c3c4"))]
    # the user's own index adds its games beside the masters'
    window.explorer.set_database(index_path)
    qtbot.waitUntil(lambda: not panel.is_looking_up() and bool(panel.result().moves), timeout=HANG_GUARD_MS)
    assert panel.book_model.rowCount() == len(panel.book_moves()) > 0 and panel.moves_table.isVisibleTo(panel)
    window.set_language(Language.CHINESE)
    assert panel.book_label.text().startswith("大师对局")


def test_the_board_shows_the_book_moves_when_asked(qtbot, window):
    from xqdesk.opening_book import shipped_book

    board_view = window.board_view
    window.explorer_panel.set_position(STARTING_FEN, ())
    qtbot.waitUntil(lambda: not window.explorer_panel.is_looking_up(), timeout=HANG_GUARD_MS)
    assert board_view.book_arrows() == ()  # off by default
    window.action("Show book moves").trigger()
    assert window.settings.show_book_moves
    masters = shipped_book().moves(Board())
    total = sum(stat.games for stat in masters)
    arrows = board_view.book_arrows()
    assert [arrow.move for arrow in arrows] == [stat.move for stat in masters[:len(arrows)]] and len(arrows) >= 3
    assert arrows[0].book and arrows[0].label == f"{100 * masters[0].games / total:.0f}%"
    window.controller.play_move(Move.from_iccs("h2e2"))
    qtbot.waitUntil(lambda: bool(board_view.book_arrows()) and board_view.book_arrows()[0].move == Move.from_iccs("h9g7"),
                    timeout=HANG_GUARD_MS)
    window.action("Show book moves").trigger()
    assert board_view.book_arrows() == () and not window.settings.show_book_moves


def test_the_about_box_credits_the_master_games_source(qtbot, window):
    window.action("About xqdesk…").trigger()
    box = window.about_box
    qtbot.waitUntil(box.isVisible, timeout=HANG_GUARD_MS)
    text = box.text()
    assert "Yu-Han Tseng and Bo-Nian Chen (2026), Chinese Chess Practical Dataset (CCPD)" in text
    assert "CC BY 4.0" in text and "27299 master games" in text
    assert "evaluation weights and the zero engine" in text and "network learned from the same collection" in text
    box.close()
    window.set_language(Language.CHINESE)
    window.action("About xqdesk…").trigger()
    assert "大师对局" in window.about_box.text() and window.action("About xqdesk…").text() == "关于 xqdesk…"
    window.about_box.close()


def test_a_collection_without_results_says_so_instead_of_a_dash(qtbot, panel, tmp_path):
    """The 15 games of notation_15/iccs.pgn carry no Result tag: every average reads "no results"."""
    path = tmp_path / "no_results.xqdb"
    with PositionIndex(path) as index:
        index.add([GAMES / "notation_15" / "iccs.pgn"])
    panel.set_position(STARTING_FEN, ())
    panel.set_database(str(path))
    qtbot.waitUntil(lambda: panel.result() is not None and not panel.is_looking_up(), timeout=HANG_GUARD_MS)
    table = panel.moves_model
    assert table.rowCount() >= 1
    assert {table.text(row, table.columnCount() - 1) for row in range(table.rowCount())} == {"no results"}
    assert "none of them has a result" in panel.summary.text() and "–" not in panel.summary.text()
    set_language(Language.CHINESE)
    try:
        assert table.text(0, table.columnCount() - 1) == "无结果"
    finally:
        set_language(Language.ENGLISH)
