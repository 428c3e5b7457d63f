"""The window for daily use, walked through as a player would: engines that cannot start, saving,
unsaved changes, messages that stay, a big collection opening in the background, themes, sounds,
arrows, the engine panel's place, the position editor's seats, pausing an engine game, hints,
replay variations, the result line, clocks, stepping back in a live game and menu access keys."""
from __future__ import annotations

import gc
import math
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import miniaudio
import pytest
from datafiles import DATA
from hang_guard import HANG_GUARD, HANG_GUARD_MS
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDockWidget, QLineEdit, QMessageBox
from window_files import answer_question, open_file

from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.pieces import BLACK, RED
from xqdesk.squares import parse_square
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.i18n import Language
from xqdesk.ui.base.message_banner import BannerKind
from xqdesk.ui.base.settings import EngineKind, EngineProfile, load_settings, open_store
from xqdesk.ui.base.sounds import SoundEvent, SoundPlayer
from xqdesk.ui.board.board_view import PIECE_RADIUS, Arrow, arrow_style
from xqdesk.ui.game.game_controller import Mode
from xqdesk.ui.game.seat_dialogs import NewGameDialog, available_engines
from xqdesk.ui.main_window import MainWindow
from xqdesk.ui.record.files import SAVE_FORMATS
from xqdesk.ui.record.game_list import GameRow, match_score, points_text

pytestmark = pytest.mark.engines

BIG_FILE = DATA / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
XQF_GAME = DATA / "games" / "xqf" / "cchess_030-黄松轩先胜冯敬如.XQF"
READ_ONLY_GAME = DATA / "games" / "ccbridge" / "huang_danqing_lecture_004.cbr"
"""A XiangQi Bridge record: xqdesk reads this format but does not write it."""
WEAK = EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1)


def click_square(qtbot, window, name: str) -> None:
    point = window.board_view.square_center(parse_square(name)).toPoint()
    qtbot.mouseClick(window.board_view, Qt.MouseButton.LeftButton, pos=point)


def fill_save_dialog(window, path: Path, filter_text: str) -> None:
    """Once the window's Save as dialog is up: choose ``filter_text``, type ``path`` and accept."""
    def fill() -> None:
        dialog = window.files.save_dialog
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(20, fill)
            return
        dialog.selectNameFilter(filter_text)
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))  # typed as a person would
        dialog.accept()
    QTimer.singleShot(0, fill)


def play(window, *moves: str) -> None:
    for text in moves:
        assert window.controller.play_move(Move.from_iccs(text)), text


# --- engines -------------------------------------------------------------------------------------
def test_an_engine_whose_program_is_gone_is_never_offered(qtbot, window, tmp_path):
    record = tmp_path / "game.pgn"
    record.write_text("[Event \"x\"]\n\n1. h2e2 *\n", encoding="utf-8")
    gone = EngineProfile("gone", EngineKind.UCI, str(tmp_path / "no-such-engine"))
    not_a_program = EngineProfile("a record", EngineKind.UCI, str(record))
    window.update_settings(engines=(gone, not_a_program, WEAK))
    offered = [profile.name for profile in available_engines(window.settings)]
    assert "gone" not in offered and "a record" not in offered and WEAK.name in offered
    dialog = NewGameDialog(available_engines(window.settings), "10s", "none", 0.0, True, window)
    names = [dialog.red_box.itemText(index) for index in range(dialog.red_box.count())]
    assert "gone" not in names and "a record" not in names
    dialog.deleteLater()
    assert "gone" not in [profile.name for profile in window.analysis.candidates()]
    window.action("Play Red against the engine").trigger()  # the quick start passes over the gone ones
    assert window.controller.seat(BLACK) == WEAK and window.controller.seat(RED) is None


# --- files: saving and unsaved changes -------------------------------------------------------------
def test_save_as_offers_each_format_and_pgn_notation(qtbot, window, tmp_path):
    window.start_game(None, None)
    play(window, "h2e2", "h9g7")
    wxf = next(choice for choice in SAVE_FORMATS if choice.suffix == ".pgn" and choice.notation is Notation.WXF)
    fill_save_dialog(window, tmp_path / "mine", wxf.filter_text())
    assert window.files.choose_and_save()
    text = (tmp_path / "mine.pgn").read_text(encoding="utf-8")
    assert "C2.5" in text and "H8+7" in text  # WXF moves, the extension added
    assert not window.files.has_unsaved_changes()
    play(window, "h0g2")
    assert window.files.has_unsaved_changes()
    window.action("Save").trigger()  # the same file, the same notation, no question
    assert "C2.5" in (tmp_path / "mine.pgn").read_text(encoding="utf-8")
    assert len(read_games(tmp_path / "mine.pgn").games[0].mainline_moves()) == 3
    chinese = next(choice for choice in SAVE_FORMATS if choice.suffix == ".pgn" and choice.notation is Notation.CHINESE)
    fill_save_dialog(window, tmp_path / "zh.pgn", chinese.filter_text())
    window.action("Save as…").trigger()
    assert "炮二平五" in (tmp_path / "zh.pgn").read_text(encoding="utf-8")
    history = next(choice for choice in SAVE_FORMATS if choice.suffix == ".txt")
    fill_save_dialog(window, tmp_path / "course", history.filter_text())
    window.action("Save as…").trigger()
    assert (tmp_path / "course.txt").read_text(encoding="utf-8").startswith("[(")


def test_save_on_a_file_xqdesk_cannot_write_offers_save_as(qtbot, window, tmp_path):
    original = READ_ONLY_GAME.read_bytes()
    assert open_file(qtbot, window, READ_ONLY_GAME)
    iccs = next(choice for choice in SAVE_FORMATS if choice.suffix == ".pgn" and choice.notation is Notation.ICCS)
    seen = answer_question(qtbot, window, QMessageBox.StandardButton.Save,
                           then=lambda: fill_save_dialog(window, tmp_path / "copy.pgn", iccs.filter_text()))
    window.action("Save").trigger()
    assert ".cbr" in seen[0] and "Save the game as another file" in seen[0]
    assert window.files.current_path == tmp_path / "copy.pgn", (window.files.current_path, list(tmp_path.iterdir()))
    assert read_games(tmp_path / "copy.pgn").games[0].mainline_moves() == window.controller.game().mainline_moves()
    assert READ_ONLY_GAME.read_bytes() == original  # the original left alone


def test_opening_or_closing_over_unsaved_changes_asks(qtbot, tmp_path):
    window = MainWindow(settings_store=open_store(str(tmp_path / "s.ini")), autosave_path=str(tmp_path / "a.pgn"))
    qtbot.addWidget(window)
    window.show()
    try:
        window.start_game(None, None)
        play(window, "h2e2")
        seen = answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
        assert not open_file(qtbot, window, XQF_GAME, asking=True)
        assert "unsaved changes" in seen[0]
        assert window.controller.game().mainline_moves() == [Move.from_iccs("h2e2")]  # kept
        answer_question(qtbot, window, QMessageBox.StandardButton.Cancel)
        window.close()
        assert window.isVisible()  # cancelled: the window stays
        answer_question(qtbot, window, QMessageBox.StandardButton.Discard)
        assert open_file(qtbot, window, XQF_GAME, asking=True)
        assert window.controller.mode() is Mode.REPLAY
        assert not window.files.has_unsaved_changes()  # a record just opened has nothing to save
        window.close()  # nothing unsaved: no question
        assert not window.isVisible()
    finally:
        window.shutdown()


# --- messages ------------------------------------------------------------------------------------
def test_game_ends_and_failures_stay_in_a_banner_until_dismissed(qtbot, window, tmp_path):
    window.start_game(None, None)
    window.action("Resign").trigger()
    assert "Red resigns, Black wins!" in window.banner.text() and window.banner.kind() is BannerKind.INFO
    window.statusBar().clearMessage()  # the status bar forgets; the banner does not
    assert window.banner.isVisible()
    window.banner.close_button.click()
    assert window.banner.text() == "" and not window.banner.isVisible()
    assert not open_file(qtbot, window, tmp_path / "missing.pgn")
    assert "missing.pgn" in window.banner.text() and window.banner.kind() is BannerKind.ERROR
    window.start_game(None, None)  # a new game: the stale message goes
    assert window.banner.text() == "" and window.statusBar().currentMessage() == ""


def test_a_failing_engine_seat_is_reported_in_the_banner(qtbot, window, tmp_path):
    script = tmp_path / "dies.sh"
    script.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    dying = EngineProfile("dies", EngineKind.UCI, str(script))
    with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS):
        window.start_game(dying, None)
    text = window.banner.text()
    assert "Engine failed" in text and "Game over" in text and window.banner.kind() is BannerKind.ERROR


# --- a big file, the game list ---------------------------------------------------------------------
def test_a_big_file_loads_in_the_background_into_a_sortable_filterable_list(qtbot, window):
    files = window.files
    assert files.open_path(BIG_FILE)  # returns at once: the reading goes on in a thread
    assert files.is_loading() and files.progress_bar is not None
    assert QGuiApplication.overrideCursor() is not None
    assert QGuiApplication.overrideCursor().shape() == Qt.CursorShape.BusyCursor
    with qtbot.waitSignal(files.loading_finished, timeout=HANG_GUARD_MS) as finished:
        pass
    assert finished.args == [True]
    assert QGuiApplication.overrideCursor() is None and files.progress_bar is None
    table = files.game_table
    assert table is not None and table.row_count() == 1391
    columns = table.COLUMNS
    assert [table.text(0, columns.index(name)) for name in ("Event", "Red", "Black")] == \
        ["China Team Championship 1998", "HU RongHua", "XU TianHong"]
    plies = columns.index("Plies")
    table.table.sortByColumn(plies, Qt.SortOrder.DescendingOrder)
    values = [int(table.text(row, plies)) for row in range(table.row_count())]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]
    table.player_filter.setText("xu tianhong")
    shown = table.row_count()
    assert 0 < shown < 1391
    assert all("xu tianhong" in (table.text(r, columns.index("Red")) + table.text(r, columns.index("Black"))).lower()
               for r in range(shown))
    table.event_filter.setText("1998")
    assert table.row_count() < shown
    assert all("1998" in table.text(r, columns.index("Event")) for r in range(table.row_count()))
    table.player_filter.clear()
    table.event_filter.clear()
    table.result_filter.setCurrentIndex(table.result_filter.findData("*"))
    assert table.row_count() == sum(1 for game in read_games(BIG_FILE).games
                                    if game.headers.get("Result", "*") == "*" and game.outcome is None)
    qtbot.waitExposed(table)
    table.result_filter.setCurrentIndex(0)
    table.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    table.table.scrollToTop()
    qtbot.mouseClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(2))
    qtbot.mouseDClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(2))
    assert window.controller.game().headers["Event"] == "5 Ram Cup Xiangqi Championship 1997"
    table.close()
    window.action("Game list").trigger()  # reopened from the menu
    assert files.game_table is table and table.isVisible()


def test_every_file_is_read_in_the_background_and_cancel_keeps_the_game_on_show(qtbot, window, tmp_path):
    files = window.files
    window.controller.play_move(Move.from_iccs("h2e2"))
    before = window.controller.game()
    # a small XQF is read off the window's thread too, with the progress bar and its Cancel button
    assert files.open_path(XQF_GAME)
    assert files.is_loading() and files.progress_bar is not None and files.progress_bar.cancel_button.isEnabled()
    assert window.controller.game() is before  # nothing replaced until the reading has ended
    with qtbot.waitSignal(files.loading_finished, timeout=HANG_GUARD_MS) as finished:
        pass
    assert finished.args == [True] and window.controller.game() is not before
    shown = window.controller.game()
    # Cancel stops a big file's reading and keeps the game on show
    assert files.open_path(BIG_FILE)
    qtbot.waitUntil(lambda: files.progress_bar is not None and files.progress_bar.bar.value() > 0, timeout=HANG_GUARD_MS)
    with qtbot.waitSignal(files.loading_finished, timeout=HANG_GUARD_MS) as finished:
        qtbot.mouseClick(files.progress_bar.cancel_button, Qt.MouseButton.LeftButton)
    assert finished.args == [False]
    assert window.controller.game() is shown and files.game_table is None
    assert not files.is_loading() and files.progress_bar is None and QGuiApplication.overrideCursor() is None
    assert "Stopped reading Hu_Ronghua_1391_UCI_games.pgn" in window.statusBar().currentMessage()


def test_json_or_random_bytes_are_refused_not_opened_as_an_empty_game(qtbot, window, tmp_path):
    window.controller.play_move(Move.from_iccs("h2e2"))
    before = window.controller.game()
    json_file = tmp_path / "settings.json"
    json_file.write_text('{"a": [1,2,3], "name": "x"}', encoding="utf-8")
    noise = tmp_path / "noise.pgn"
    noise.write_bytes(bytes((index * 7919 + 13) % 256 for index in range(3000)))
    assert not open_file(qtbot, window, json_file)
    assert window.banner.text().startswith("Could not open settings.json: nothing in it reads as a game record")
    assert not open_file(qtbot, window, noise)
    assert window.banner.text().splitlines()[-1].startswith("Could not open noise.pgn: ")
    assert window.controller.game() is before and window.files.game_table is None
    QGuiApplication.clipboard().setText('{"not": "a game"}')
    assert not window.files.paste_game()
    assert "Could not paste a game: nothing in it reads as a game record" in window.statusBar().currentMessage()
    assert window.controller.game() is before


def test_a_bug_while_loading_ends_the_load_with_an_error(qtbot, window, monkeypatch):
    def broken(number, game, damaged=False):
        raise RuntimeError("listing broke")

    monkeypatch.setattr("xqdesk.ui.record.game_loader.game_row", broken)
    files = window.files
    assert files.open_path(BIG_FILE)
    with qtbot.waitSignal(files.loading_finished, timeout=HANG_GUARD_MS) as finished:
        pass
    assert finished.args == [False]
    assert QGuiApplication.overrideCursor() is None and files.progress_bar is None and not files.is_loading()
    assert gc.isenabled()  # the collector rests only while a file is read
    assert "internal error: RuntimeError: listing broke" in window.banner.text()


def test_the_match_score_counts_wins_and_draws():
    def row(red: str, black: str, result: str) -> GameRow:
        return GameRow(1, "", "", "", red, black, result, 10, "", "", False)

    rows = [row("A", "B", "1-0"), row("B", "A", "1-0"), row("A", "B", "1/2-1/2"), row("B", "A", "*")]
    assert match_score(rows) == (("A", 1.5), ("B", 1.5))
    assert match_score(rows + [row("A", "C", "1-0")]) is None
    assert [points_text(p) for p in (0.0, 0.5, 2.5, 3.0)] == ["0", "½", "2½", "3"]


# --- the Chinese interface ---------------------------------------------------------------------------
def test_the_chinese_interface_explains_refused_moves_in_chinese_and_the_chosen_notation(qtbot, window):
    window.set_language(Language.CHINESE)
    window.start_game(None, None)
    click_square(qtbot, window, "b0")
    click_square(qtbot, window, "b5")
    message = window.statusBar().currentMessage()
    assert "这个棋子不能这样走" in message and "马八进八" in message and "cannot" not in message
    window.move_list.set_notation(Notation.WXF)
    click_square(qtbot, window, "e0")
    click_square(qtbot, window, "e2")
    message = window.statusBar().currentMessage()
    assert "K5+2" in message and "这个棋子不能这样走" in message
    window.start_game(WEAK, None)  # an engine has Red: a click on its piece says so, in Chinese
    click_square(qtbot, window, "h2")
    assert "由引擎执棋" in window.statusBar().currentMessage()


# --- board, pieces and sound ----------------------------------------------------------------------------
def test_board_themes_are_chosen_from_the_menu_drawn_differently_and_remembered(qtbot, window, tmp_path):
    images = {}
    for key in ("wood", "contrast", "traditional"):
        window.view.theme_actions[key].trigger()
        assert window.board_view.theme().key == key and window.view.theme_actions[key].isChecked()
        images[key] = window.board_view.grab().toImage()
    assert len({image.pixelColor(image.width() // 2, image.height() // 2 + 3).name() for image in images.values()}) >= 2
    king = window.board_view.square_center(parse_square("e0")).toPoint()
    colours = {key: image.pixelColor(king.x() + 2, king.y() + int(window.board_view.geometry_model().cell * 0.3))
               for key, image in images.items()}
    assert colours["traditional"].red() > 120 and colours["traditional"].green() < 80  # a solid red piece
    assert load_settings(open_store(str(tmp_path / "settings.ini"))).theme == "traditional"
    again = MainWindow(settings_store=open_store(str(tmp_path / "settings.ini")), autosave_path=str(tmp_path / "b.pgn"))
    try:
        assert again.board_view.theme().key == "traditional"
    finally:
        again.shutdown()
        again.deleteLater()


def test_sounds_for_move_capture_check_and_game_end_with_mute(qtbot, window):
    window.sounds = SoundPlayer(backends=[miniaudio.Backend.NULL])  # plays into nothing, as on a server
    window.start_game(None, None, start_fen="3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1")
    play(window, "e1e2", "d9d8", "e2d2")
    assert window.sounds.played == [SoundEvent.MOVE, SoundEvent.MOVE, SoundEvent.CHECK]
    window.start_game(None, None, start_fen="3k5/9/9/3r5/9/9/9/9/4R4/5K3 w - - 0 1")
    play(window, "e1e6", "d6e6")
    assert window.sounds.played[-2:] == [SoundEvent.MOVE, SoundEvent.CAPTURE]
    window.action("Resign").trigger()
    assert window.sounds.played[-1] is SoundEvent.GAME_END
    window.action("Mute sounds").trigger()
    assert window.sounds.muted and window.settings.muted
    before = list(window.sounds.played)
    window.start_game(None, None)
    play(window, "h2e2")
    assert window.sounds.played == before
    window.sounds.close()


def test_sound_without_a_device_stays_silent_and_says_why(qtbot):
    player = SoundPlayer(backends=[miniaudio.Backend.ALSA])
    if player.play(SoundEvent.MOVE):  # this machine has a sound device: nothing more to show
        player.close()
        pytest.skip("a sound device is present")
    assert player.unavailable_reason and player.played == []
    assert player.play(SoundEvent.CHECK) is False  # asked again: still quiet, no error


def test_a_missing_sound_card_does_not_fill_stderr_with_alsa_messages():
    """ALSA prints some forty lines when it finds no card; the player silences them (the reason is
    kept in ``unavailable_reason``). Run in a fresh process: the messages go to its stderr."""
    code = ("import miniaudio\n"
            "from xqdesk.ui.base.sounds import SoundEvent, SoundPlayer\n"
            "player = SoundPlayer(backends=[miniaudio.Backend.ALSA])\n"
            "played = player.play(SoundEvent.MOVE)\n"
            "player.close()\n"
            "print('played' if played else 'silent')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD)
    if result.stdout.strip() == "played":
        pytest.skip("a sound device is present")
    assert result.stdout.strip() == "silent" and "ALSA lib" not in result.stderr, result.stderr[:500]


def test_arrows_start_off_their_piece_thin_out_by_rank_and_the_second_engine_stands_apart(qtbot, window):
    view = window.board_view
    cell = view.geometry_model().cell
    moves = [Move.from_iccs(text) for text in ("h2e2", "b2e2", "h0g2")]
    arrows = [Arrow(move, rank, "+0.3") for rank, move in enumerate(moves)] + [Arrow(moves[0], 3, "+0.1", engine=1)]
    view.set_arrows(arrows)
    widths = []
    for arrow in arrows:
        shape = view.arrow_shape(arrow)
        piece = view.square_center(arrow.move.from_square)
        assert math.dist((shape.start.x(), shape.start.y()), (piece.x(), piece.y())) >= cell * PIECE_RADIUS
        radius = cell * PIECE_RADIUS
        nearest = QPointF(min(max(piece.x(), shape.label_rect.left()), shape.label_rect.right()),
                          min(max(piece.y(), shape.label_rect.top()), shape.label_rect.bottom()))
        assert math.dist((nearest.x(), nearest.y()), (piece.x(), piece.y())) >= radius * 0.99  # label off the piece
        widths.append(shape.width)
    assert widths[0] > widths[1] > widths[2]
    assert arrow_style(arrows[3]) != arrow_style(arrows[0]) and arrow_style(arrows[3])[1] is not None
    view.grab()  # and they paint


# --- layout -----------------------------------------------------------------------------------------
def test_the_engine_panel_hides_docks_elsewhere_and_leaves_the_board_most_of_a_small_window(qtbot, window):
    window.resize(1024, 640)
    qtbot.wait(50)
    board = window.board_view
    assert board.height() >= 0.55 * window.height() and board.width() >= 0.5 * window.width()
    assert window.engine_dock.features() & QDockWidget.DockWidgetFeature.DockWidgetClosable
    window.action("Engine panel").trigger()
    assert not window.engine_dock.isVisible()
    window.action("Engine panel").trigger()
    assert window.engine_dock.isVisible()
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, window.engine_dock)
    qtbot.wait(50)
    assert window.dockWidgetArea(window.engine_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert board.height() >= 0.7 * window.height()


def test_the_result_line_is_never_clipped_at_a_small_size(qtbot, window):
    window.resize(1024, 640)
    window.start_game(None, None)
    play(window, "h2e2")
    window.action("Resign").trigger()
    qtbot.wait(50)
    label = window.game_info.result_label
    assert label.text() == "1-0 — Black resigns, Red wins!"
    assert label.height() >= label.heightForWidth(label.width())


def test_the_position_editor_opens_at_a_usable_size_and_seats_an_engine(qtbot, window):
    window.action("Edit position…").trigger()
    dialog = window.starts.position_editor
    qtbot.waitExposed(dialog)
    assert dialog.width() >= 640 and dialog.height() >= 560
    assert dialog.editor.board.width() >= 360 and dialog.editor.board.height() >= 360
    editor = dialog.editor
    editor.set_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    dialog.black_seat.setCurrentIndex(dialog.black_seat.findText(WEAK.name))
    editor.start_button.click()
    assert window.controller.mode() is Mode.PERSON_VS_ENGINE
    assert window.controller.seat(BLACK) == WEAK and window.controller.seat(RED) is None
    assert window.controller.game().start_fen == "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"


# --- engine vs engine --------------------------------------------------------------------------------
def test_engine_vs_engine_pauses_resumes_stops_and_graphs_each_engine(qtbot, window):
    window.update_settings(engine_delay=0.0)
    window.controller.live.configure(replace(window.controller.live.settings, engine_delay=0.0))
    strong = EngineProfile("Built-in level 2", EngineKind.BUILTIN, level=2)
    # Level 1 and 2 stop at depth 1 at once; the clocks run but leave room for a loaded machine
    # (0.3 s a move flagged an engine before its first move beside six busy processes).
    clocks = {RED: TimeControl.per_move(60), BLACK: TimeControl.per_move(60)}
    window.start_game(WEAK, strong, time_controls=clocks)
    controller = window.controller
    qtbot.waitUntil(lambda: controller.length() >= 2 or controller.outcome() is not None, timeout=HANG_GUARD_MS)
    assert controller.outcome() is None, controller.outcome()
    window.action("Pause").trigger()
    assert controller.is_paused() and not window.action("Pause").isEnabled() and window.action("Resume").isEnabled()
    assert not controller.is_thinking(RED) and not controller.is_thinking(BLACK)
    assert controller.clock().running_color() is None
    length = controller.length()
    qtbot.wait(800)
    assert controller.length() == length  # nobody moves while paused
    window.action("Resume").trigger()
    qtbot.waitUntil(lambda: controller.length() >= length + 2, timeout=HANG_GUARD_MS)
    graph = window.score_graph
    assert graph.series_names() == ["Red: Built-in level 1", "Black: Built-in level 2"]
    assert graph.scores(0) and graph.scores(1)
    assert all(ply % 2 == 0 for ply in graph.scores(0)) and all(ply % 2 == 1 for ply in graph.scores(1))
    window.action("Stop game").trigger()
    assert controller.mode() is Mode.REPLAY and controller.length() >= length + 2
    assert controller.outcome() is None and not window.action("Pause").isEnabled()
    assert open_file(qtbot, window, XQF_GAME)  # another game: no stale curves or legend
    assert graph.series_names() == [] and not graph.has_scores()


# --- hints and replay ----------------------------------------------------------------------------------
def test_hint_works_for_a_person_even_in_a_finished_games_analysis_and_is_refused_for_an_engine(qtbot, window):
    game = read_games(BIG_FILE).games[87]  # a decided game
    window.controller.load_game(game, Mode.ANALYSIS, ply=10)
    assert window.controller.outcome() is not None and window.action("Hint").isEnabled()
    with qtbot.waitSignal(window.controller.hint_ready, timeout=HANG_GUARD_MS) as hint:
        window.action("Hint").trigger()
    assert window.controller.board().is_legal(hint.args[0])
    assert window.board_view.arrows()
    window.start_game(None, WEAK)
    play(window, "h2e2")
    assert window.controller.seat(window.controller.board().turn) is not None
    assert not window.controller.hint()
    assert "No hint now" in window.statusBar().currentMessage()


def test_a_move_on_the_board_in_replay_starts_a_variation(qtbot, window):
    game = read_games(BIG_FILE).games[0]
    window.controller.load_game(game, Mode.REPLAY, ply=2)
    recorded = game.mainline_moves()[2]
    alternative = next(move for move in window.controller.board().legal_moves if move != recorded)
    click_square(qtbot, window, alternative.iccs()[:2])
    click_square(qtbot, window, alternative.iccs()[2:])
    controller = window.controller
    assert controller.mode() is Mode.REPLAY and controller.ply() == 3
    assert controller.variation_depth() == 1 and controller.last_move() == alternative
    assert controller.game().mainline_moves() == game.mainline_moves()  # the record's line kept


# --- small ones -------------------------------------------------------------------------------------------
def test_clocks_say_what_they_are_and_none_is_stale_after_a_timeout(qtbot, window):
    window.start_game(None, None, time_controls={RED: TimeControl.unlimited(), BLACK: TimeControl.per_move(0.4)})
    display = window.clock_display
    assert display.text(RED).endswith("no clock") and "10.0" not in display.text(RED)
    play(window, "h2e2")
    with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS):
        pass
    assert display.text(BLACK).endswith("0.0") and display.text(RED).endswith("no clock")
    assert window.controller.clock().running_color() is None
    window.controller.set_mode(Mode.ANALYSIS)  # no live game: no clock shown as if running
    assert display.text(RED).endswith("–") and display.text(BLACK).endswith("–")


def test_byo_yomi_counts_down_on_the_clock_once_the_game_time_is_spent(qtbot, window):
    """读秒: from the moment the main time runs out (in the middle of a move too) the clock shows
    the period counting down, not a stuck 0.0."""
    now = [1000.0]
    clock = window.controller.clock()
    clock.now = lambda: now[0]
    window.start_game(None, None, time_controls={RED: TimeControl.byo_yomi(5.0, 30.0),
                                                 BLACK: TimeControl.byo_yomi(5.0, 30.0)})
    display = window.clock_display
    assert display.text(RED) == "Red  5.0"
    now[0] += 3.0
    clock.refresh()
    assert display.text(RED) == "Red  2.0"
    now[0] += 7.0  # the game time ran out 5 s ago: 25 s of the 30 s period are left
    clock.refresh()
    assert display.text(RED) == "Red  byo-yomi 25.0"
    now[0] += 10.0
    clock.refresh()
    assert display.text(RED) == "Red  byo-yomi 15.0" and display.text(BLACK) == "Black  5.0"
    play(window, "h2e2")  # in time: Red's next move has a fresh period
    assert window.controller.outcome() is None
    now[0] += 1.0
    play(window, "h9g7")
    now[0] += 12.0
    clock.refresh()
    assert display.text(RED) == "Red  byo-yomi 18.0" and display.text(BLACK) == "Black  4.0"
    window.set_language(Language.CHINESE)
    assert display.text(RED) == "红方  读秒 18.0"


def test_stepping_back_in_a_live_game_browses_and_a_move_there_is_refused_with_the_reason(qtbot, window):
    window.start_game(None, None)
    play(window, "h2e2", "h9g7")
    window.action("Previous move").trigger()
    assert window.controller.ply() == 1
    click_square(qtbot, window, "h7")
    assert "earlier position" in window.statusBar().currentMessage()
    window.action("Last move").trigger()
    click_square(qtbot, window, "h0")
    click_square(qtbot, window, "g2")
    assert window.controller.length() == 3


def test_edit_and_engines_menus_have_distinct_access_keys(qtbot, window):
    for language in (Language.ENGLISH, Language.CHINESE):
        window.set_language(language)
        titles = [action.text() for action in window.menuBar().actions()]
        keys = [title[title.index("&") + 1].lower() for title in titles if "&" in title]
        assert len(keys) == len(titles) - 0 and len(set(keys)) == len(keys), titles
    window.set_language(Language.ENGLISH)


def test_every_new_text_reads_chinese(qtbot, window):
    window.set_language(Language.CHINESE)
    assert window.action("Pause").text() == "暂停" and window.action("Engine panel").text() == "引擎面板"
    assert window.view.theme_actions["wood"].text() == "木纹棋盘，雕刻棋子"
    window.set_language(Language.ENGLISH)
    assert QApplication.instance() is not None


def test_the_game_list_finds_date_and_round_in_the_tags_other_tools_write():
    """ElephantEye's sample writes [Game "Chinese Chess"] and no Round: no round, not "Chinese Chess".
    Databases that keep the date in EventDate or UTCDate, and rounds in Board, fill the columns."""
    from xqdesk.formats.pgn import parse_pgn
    from xqdesk.ui.record.game_list import game_row
    sample = read_games(DATA / "games" / "chinese_gb18030" / "eleeye_SAMPLE.PGN").games[0]
    row = game_row(1, sample)
    assert (row.date, row.round) == ("1999.12.09", "")
    text = ('[Event "A"]\n[Date "????.??.??"]\n[EventDate "1998.05.01"]\n[Board "3"]\n\n1. h2e2 *\n\n'
            '[Event "B"]\n[UTCDate "2024.02.03"]\n[Game "12"]\n\n1. h2e2 *\n')
    first, second = (game_row(number, game) for number, game in enumerate(parse_pgn(text).games, 1))
    assert (first.date, first.round) == ("1998.05.01", "3")
    assert (second.date, second.round) == ("2024.02.03", "12")
