"""Replaying in the window: a course match folder's table of games, stepping a game to its end with
the right result, autoplay, record files from the test data, and the course entry points."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from datafiles import DATA
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from window_files import open_file

from xqdesk import compat
from xqdesk.ecco import classify_game
from xqdesk.formats import read_games
from xqdesk.formats.course_match import CourseGameResult, CourseMatch, write_course_match
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.ui.app import final_game_window, history_replay_window
from xqdesk.ui.base.i18n import Language
from xqdesk.ui.base.settings import open_store
from xqdesk.ui.game.game_controller import Mode
from xqdesk.ui.main_window import MainWindow

pytestmark = pytest.mark.engines

MASTER_GAMES = DATA / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
CHINESE_PGN = DATA / "games" / "notation_15" / "chinese.pgn"
PLAYERS = Path(__file__).resolve().parent / "players"
#: Master games (0-based, in MASTER_GAMES) that end with the loser having no legal move.
DECIDED_GAMES = (87, 269, 551, 657, 740, 1240, 1253)


@pytest.fixture(scope="module")
def master_games():
    record = read_games(MASTER_GAMES)
    return [record.games[index] for index in DECIDED_GAMES]


@pytest.fixture
def match_folder(tmp_path, master_games) -> Path:
    """A course match folder, Player 1 VS Player 2, of seven real games (a playoff after 3 : 3)."""
    results = []
    for number, game in enumerate(master_games, start=1):
        red_id, black_id = (1, 2) if number <= 3 or number == 7 else (2, 1)
        outcome = game.end_board().outcome()
        results.append(CourseGameResult(number, red_id, black_id, outcome.winner, outcome.text,
                                        tuple(game.course_history())))
    return write_course_match(tmp_path, CourseMatch(1, 2, tuple(results)))



@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """Course functions use the user's settings and data folders: point them into tmp_path."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_match_folder_opens_as_a_table_and_a_game_steps_to_its_result(qtbot, window, match_folder, master_games):
    assert open_file(qtbot, window, match_folder)
    table = window.files.game_table
    qtbot.addWidget(table)
    assert table.row_count() == 7
    columns = table.COLUMNS
    assert table.text(3, columns.index("Red")) == "Player 2" and table.text(3, columns.index("Black")) == "Player 1"
    assert table.text(3, columns.index("Reason")) == "Red loses the game. Black wins!"
    assert table.score_label.text().startswith("Match score: Player 1 ")  # the match's score above the list
    qtbot.waitExposed(table)
    table.table.scrollTo(table.model.index(3, 0))
    qtbot.mouseClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(3))
    qtbot.mouseDClick(table.table.viewport(), Qt.MouseButton.LeftButton, pos=table.row_center(3))
    controller = window.controller
    assert controller.mode() is Mode.REPLAY
    assert controller.game().headers["Round"] == "4"
    assert controller.game().mainline_moves() == master_games[3].mainline_moves()
    assert controller.ply() == 0
    assert window.board_view.movable_colors() == frozenset((RED, BLACK))  # a move there starts a variation
    window.move_list.table.setFocus()
    for _ in range(10):
        qtbot.keyClick(window.move_list.table, Qt.Key.Key_Right)
    assert controller.ply() == 10
    qtbot.keyClick(window.move_list.table, Qt.Key.Key_End)
    assert controller.ply() == controller.length() == len(master_games[3])
    info = window.game_info
    assert info.red_label.text() == "Red: Player 2" and info.black_label.text() == "Black: Player 1"
    assert "Round 4" in info.event_label.text() and match_folder.name in info.event_label.text()
    assert info.result_label.text() == "0-1 — Red loses the game. Black wins!"
    assert window.controller.board().outcome().text == "Red loses the game. Black wins!"


def test_autoplay_runs_a_game_to_its_end(qtbot, window, master_games):
    game = master_games[1]
    window.controller.load_game(game)
    with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS) as blocker:
        window.controller.start_autoplay(0.005)
    assert window.controller.ply() == len(game)
    assert blocker.args[0].text == "Black loses the game. Red wins!"
    assert not window.controller.is_autoplaying()


def test_a_chinese_pgn_opens_with_a_game_table_and_replays(qtbot, window):
    assert open_file(qtbot, window, CHINESE_PGN)
    table = window.files.game_table
    qtbot.addWidget(table)
    assert table.row_count() == 15
    controller = window.controller
    controller.to_end()
    assert controller.ply() == controller.length() > 0
    assert window.move_list.move_texts()[0][0] in "炮马兵相仕车"
    info = window.game_info
    assert info.red_label.text() == "Red: ZHAO GuoRong" and info.black_label.text() == "Black: KE YongQing"
    assert info.event_label.text() == "Zhongli Cup TV fast game Champion 1997"
    assert not info.result_label.isVisibleTo(window)  # the record gives no result
    # the Opening column: the ECCO code classified from the moves, named in the interface language
    opening = classify_game(controller.game())
    column = table.COLUMNS.index("Opening")
    assert table.text(0, column) == f"{opening.code} {opening.english}"
    window.set_language(Language.CHINESE)
    assert table.text(0, column) == f"{opening.code} {opening.name}"
    assert all(table.text(row, column)[:1] in "ABCDE" for row in range(table.row_count()))


def test_a_collection_shows_its_list_first_then_its_first_game(qtbot, window):
    """The list and the first game arrive in separate event-loop steps: the list is on show when
    the first game is loaded, and the reading ends once the game is on the board."""
    files, controller = window.files, window.controller
    seen: list[tuple[str, bool]] = []  # (what happened, whether the new list was on show)

    def list_on_show() -> bool:
        return files.game_table is not None and files.game_table.isVisible() and files.record is not None \
            and files.game_table.record is files.record and files.record.source.endswith(CHINESE_PGN.name)

    controller.game_changed.connect(lambda: seen.append(("game", list_on_show())))
    files.loading_finished.connect(lambda _shown: seen.append(("finished", list_on_show())))
    assert open_file(qtbot, window, CHINESE_PGN)
    qtbot.addWidget(files.game_table)
    assert seen == [("game", True), ("finished", True)]
    assert controller.game() is files.record.games[0] and controller.ply() == 0


def test_a_game_chosen_from_the_list_before_the_first_game_is_kept(qtbot, window):
    """A game chosen in the list in the step between the list and the first game is not replaced."""
    files, controller = window.files, window.controller
    chosen: list[bool] = []

    def choose_the_third() -> None:  # runs just after the window's own hand-over of the list
        if files.game_table is not None and files.record is not None and not chosen:
            chosen.append(files.show_game(files.record, 2))

    def watch(job) -> None:
        job.finished.connect(lambda _loaded: choose_the_third())

    files.open_path(CHINESE_PGN)
    watch(files.loader)
    ended: list[bool] = []
    files.loading_finished.connect(ended.append)
    qtbot.waitUntil(lambda: bool(ended), timeout=HANG_GUARD_MS)
    qtbot.addWidget(files.game_table)
    assert chosen == [True] and ended == [True]
    assert controller.game() is files.record.games[2]


def test_a_course_history_names_nobody_and_shows_the_end_by_the_rules(qtbot, window, master_games):
    window.controller.load_game(Game.from_moves(master_games[0].mainline_moves()), ply=None)
    info = window.game_info
    assert info.red_label.text() == "Red: ?" and not info.event_label.isVisibleTo(window)
    winner = "Red" if window.controller.outcome().winner == RED else "Black"
    outcome = window.controller.outcome()
    assert info.result_label.text() == f"{outcome.result()} — {outcome.text}"  # names the winner once
    assert f"{winner} wins" in outcome.text
    window.set_language(Language.CHINESE)
    assert info.red_label.text() == "红方：?" and "胜" in info.result_label.text()


def test_a_bad_file_is_reported_not_raised(qtbot, window, tmp_path):
    bad = tmp_path / "broken.txt"
    bad.write_text("[(9, 7, 7, 6, 0), (0, 1, 2, 2, 0), (9, 9, 5, 9, 0)]", encoding="utf-8")
    open_file(qtbot, window, bad)
    message = window.statusBar().currentMessage()
    assert "broken.txt" in message
    assert open_file(qtbot, window, tmp_path / "missing.pgn") is False


def test_autosave_keeps_the_game_and_restores_it(qtbot, window, tmp_path):
    window.start_game(None, None)
    for text in ("h2e2", "h9g7", "h0g2"):
        assert window.controller.play_move(Move.from_iccs(text))
    qtbot.waitUntil(lambda: (tmp_path / "autosave.pgn").is_file(), timeout=HANG_GUARD_MS)
    again = MainWindow(settings_store=open_store(str(tmp_path / "settings.ini")),
                       autosave_path=str(tmp_path / "autosave.pgn"))
    qtbot.addWidget(again)
    try:
        window.files.autosave.write_now()
        assert again.files.restore_autosave()
        assert [move.iccs() for move in again.controller.game().mainline_moves()] == ["h2e2", "h9g7", "h0g2"]
        assert again.controller.ply() == 3
    finally:
        again.shutdown()


def test_history_replay_window_plays_a_course_history(qtbot, user_dirs, master_games):
    history = master_games[0].course_history()
    window = history_replay_window([list(entry) for entry in history], delta_time=0.005)
    qtbot.addWidget(window)
    try:
        with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS) as blocker:
            pass
        assert window.controller.ply() == len(history)
        assert blocker.args[0].text == "Red loses the game. Black wins!"
    finally:
        window.shutdown()


def test_final_game_window_finds_the_game_in_either_order(qtbot, user_dirs, match_folder):
    window = final_game_window(2, 1, 4, delta_time=0.005, folder=match_folder.parent)
    qtbot.addWidget(window)
    try:
        assert window.controller.game().headers["Round"] == "4"
        with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS):
            pass
        assert window.controller.at_end()
    finally:
        window.shutdown()
    with pytest.raises(ValueError, match="no game 9"):
        final_game_window(1, 2, 9, folder=match_folder.parent)


def main_windows() -> list[MainWindow]:
    return [widget for widget in QApplication.topLevelWidgets() if isinstance(widget, MainWindow)]


def close_when_over(seconds: float) -> list[MainWindow]:
    """Once the course function's (new) window is up: close it at game over, or after ``seconds``.
    Returns a list that will hold that window."""
    before = set(map(id, main_windows()))
    found: list[MainWindow] = []

    def hook() -> None:
        fresh = [window for window in main_windows() if id(window) not in before and window.isVisible()]
        if not fresh:
            QTimer.singleShot(20, hook)
            return
        window = fresh[0]
        found.append(window)
        window.controller.game_over.connect(lambda _outcome: QTimer.singleShot(50, window.close))
        if window.controller.outcome() is not None and window.controller.at_end():
            QTimer.singleShot(50, window.close)
        QTimer.singleShot(int(seconds * 1000), window.close)
    QTimer.singleShot(0, hook)
    return found


def test_course_replay_final_game_blocks_until_the_window_closes(qtbot, user_dirs, match_folder):
    found = close_when_over(20)
    compat.replay_final_game(player_1=1, player_2=2, game=7, delay_time=0.002)
    window = found[0]
    assert window.controller.game().headers["Round"] == "7"
    assert window.controller.at_end()
    window.deleteLater()


def load_course_player(monkeypatch, folder: str, side: str):
    path = PLAYERS / folder / "player.py"
    monkeypatch.setitem(sys.modules, "utils", compat)
    spec = importlib.util.spec_from_file_location(f"course_player_{folder}", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module.Player(side)


def test_course_play_game_watches_two_players_in_their_processes(qtbot, user_dirs, monkeypatch):
    red = load_course_player(monkeypatch, "ordinary", "red")
    black = load_course_player(monkeypatch, "ordinary", "black")
    found = close_when_over(25)
    compat.play_game(red, black, delta_time=0)
    window = found[0]
    assert window.controller.mode() is Mode.ENGINE_VS_ENGINE
    assert window.controller.length() > 4
    assert window.controller.game().headers["Red"] == "Ordinary"
    window.deleteLater()


def test_course_pve_refuses_a_player_made_for_the_same_side(qtbot, user_dirs, monkeypatch):
    player = load_course_player(monkeypatch, "ordinary", "red")
    with pytest.raises(ValueError, match="sides must differ"):
        compat.play_pve_game("red", player)


def test_course_pve_seats_the_person_and_the_player(qtbot, user_dirs, monkeypatch):
    from xqdesk.ui.app import pve_window

    player = load_course_player(monkeypatch, "ordinary", "red")
    window = pve_window("black", player)
    qtbot.addWidget(window)
    try:
        assert window.controller.seat(RED) is not None and window.controller.seat(RED).name == "Ordinary"
        assert window.board_view.is_flipped()
        with qtbot.waitSignal(window.controller.move_made, timeout=HANG_GUARD_MS):
            pass
        assert window.board_view.movable_colors() == {False}
    finally:
        window.shutdown()


@pytest.mark.parametrize("suffix", [".pgn", ".txt", ".fen"])
def test_a_played_game_saves_and_opens_again(qtbot, window, tmp_path, suffix):
    window.start_game(None, None)
    for text in ("h2e2", "h9g7", "h0g2", "i9h9"):
        assert window.controller.play_move(Move.from_iccs(text))
    path = tmp_path / f"saved{suffix}"
    assert window.files.save_to(path)
    window.start_game(None, None)
    assert window.controller.length() == 0
    assert open_file(qtbot, window, path)
    assert [move.iccs() for move in window.controller.game().mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert window.settings.recent_files[0] == str(path)
