"""Engine tournaments from the window: real engine processes play a round robin; the window shows
the game in progress with both engines' lines, the crosstable with points and Elo, the finished
games, and writes them to PGN; Stop ends it within a move."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt

from xqdesk.formats import read_games
from xqdesk.pieces import RED
from xqdesk.ui.base.i18n import Language
from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

STRONG = EngineProfile("Built-in level 3", EngineKind.BUILTIN, level=3)
RANDOM = EngineProfile("Random mover", EngineKind.COMMAND, sys.executable,
                       arguments=("-m", "xqdesk.engines.host", "random"))


def open_tournament(window, engines=(STRONG, RANDOM)):
    tournament = window.windows.open_tournament()
    assert [profile.name for profile in tournament.chosen_engines()] == []
    tournament.set_engines(engines)  # the window's own list has no random mover
    return tournament


def start_strong_against_random(tournament, clock: str, games: int, pgn: Path) -> None:
    """Start ``games`` games of level 3 against the random mover at ``clock``, written to ``pgn``."""
    tournament.set_chosen([STRONG.name, RANDOM.name])
    tournament.clock_box.setCurrentText(clock)
    tournament.games_box.setValue(games)
    tournament.pgn_edit.setText(str(pgn))
    assert tournament.start()


def test_a_round_robin_is_watched_live_scored_and_saved(qtbot, window, tmp_path):
    tournament = open_tournament(window)
    assert window.action("Engine tournament…").text() == "Engine tournament…"
    qtbot.mouseClick(tournament.start_button, Qt.MouseButton.LeftButton)
    assert not tournament.is_running() and tournament.status_label.text() == "Choose at least two engines"
    tournament.set_chosen([STRONG.name, RANDOM.name])
    tournament.clock_box.setCurrentText("0.3s")
    tournament.games_box.setValue(2)
    pgn = tmp_path / "round.pgn"
    tournament.pgn_edit.setText(str(pgn))
    qtbot.mouseClick(tournament.start_button, Qt.MouseButton.LeftButton)
    assert tournament.is_running() and not tournament.start_button.isEnabled()
    # the game in progress: its board follows the moves, and the engine to move shows its line
    qtbot.waitUntil(lambda: len(tournament.board_view.board().move_stack) >= 2, timeout=HANG_GUARD_MS)
    assert tournament.game_label.text().startswith("Game 1: Built-in level 3 (Red) – Random mover (Black), ply ")

    def red_line_names_the_red_engine() -> bool:
        """Red's line is its engine's (game 1 may be over by now: then game 2's Red)."""
        label = tournament.game_label.text()
        if ": " not in label or " (Red)" not in label:
            return False
        red = label.split(": ", 1)[1].split(" (Red)")[0]
        return tournament.line_text(RED).startswith(f"Red — {red}: Depth ")

    qtbot.waitUntil(red_line_names_the_red_engine, timeout=HANG_GUARD_MS)
    with qtbot.waitSignal(tournament.run.ended, timeout=HANG_GUARD_MS) as ended:
        pass
    played, reason = ended.args
    assert reason == "" and len(played) == 2 and all(game.finished for game in played)
    assert tournament.status_label.text() == "Tournament over: 2 games" and tournament.start_button.isEnabled()
    # the crosstable: each engine's points against the other, its total, games, score and Elo
    strong_points = sum(1.0 if game.record.outcome.result() == ("1-0" if game.scheduled.red == 0 else "0-1")
                        else 0.5 if game.record.outcome.result() == "1/2-1/2" else 0.0 for game in played)
    assert tournament.crosstable_text(0, 0) == "1. Built-in level 3" and tournament.crosstable_text(0, 1) == "×"
    assert tournament.crosstable_text(0, 3) == tournament.crosstable_text(0, 2)  # points: all against engine 2
    assert tournament.crosstable_text(1, 4) == "2" and tournament.crosstable_text(0, 4) == "2"
    from xqdesk.ui.record.game_list import points_text
    assert tournament.crosstable_text(0, 3) == points_text(strong_points)
    assert tournament.games_view.rowCount() == 2 and tournament.games_view.item(0, 1).text() == "Built-in level 3"
    # every finished game is in the PGN file, with the players and the result
    games = read_games(pgn).games
    assert [game.headers["Red"] for game in games] == ["Built-in level 3", "Random mover"]
    assert [game.outcome.result() for game in games] == [game.record.outcome.result() for game in played]
    window.set_language(Language.CHINESE)
    assert tournament.windowTitle() == "引擎循环赛"


def test_a_fast_engines_last_report_comes_before_each_of_its_moves(qtbot, window, tmp_path):
    """Level 3 moves within milliseconds, faster than the ten reports a second the window is sent:
    the report held back by that limit still comes, before the move, and no report comes before
    its game has started (so none is shown against the game before)."""
    tournament = open_tournament(window)
    start_strong_against_random(tournament, "0.3s", 2, tmp_path / "fast.pgn")
    events: list[tuple] = []
    run = tournament.run
    run.game_started.connect(lambda game: events.append(("started", game.number)))
    run.engine_info.connect(lambda index, info: events.append(("info", index, info.depth)))
    run.moved.connect(lambda live: events.append(("moved", live.red if live.board.turn != RED else live.black)))
    with qtbot.waitSignal(run.ended, timeout=HANG_GUARD_MS):
        pass
    assert [event[1] for event in events if event[0] == "started"] == [1, 2]
    assert events[0][0] == "started"
    reported: set[int] = set()
    builtin_moves = 0
    for event in events:
        if event[0] == "info":
            reported.add(event[1])
        elif event[0] == "moved":
            assert event[1] in reported, events  # both engines report a line for every move
            reported.discard(event[1])
            builtin_moves += event[1] == 0
    assert builtin_moves >= 5


def test_stop_ends_the_tournament_within_a_move(qtbot, window, tmp_path):
    tournament = open_tournament(window)
    start_strong_against_random(tournament, "1s", 4, tmp_path / "stopped.pgn")
    qtbot.waitUntil(lambda: len(tournament.board_view.board().move_stack) >= 2, timeout=HANG_GUARD_MS)
    with qtbot.waitSignal(tournament.run.ended, timeout=HANG_GUARD_MS) as ended:
        qtbot.mouseClick(tournament.stop_button, Qt.MouseButton.LeftButton)
    played, reason = ended.args
    assert reason == "stopped" and len(played) == 1 and not played[0].finished  # the game in progress: aborted
    assert tournament.status_label.text() == "Stopped after 0 finished games"
    assert tournament.crosstable_text(0, 2) == ""  # an aborted game scores nothing


def test_the_crosstable_shows_score_and_elo_without_scrolling_at_the_default_size(qtbot, window):
    """Four engines at the window's default size: every column, Score % and Elo the last, fits."""
    engines = (STRONG, RANDOM, EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1),
               EngineProfile("Built-in level 5", EngineKind.BUILTIN, level=5))
    tournament = open_tournament(window, engines)
    tournament.set_chosen([profile.name for profile in engines])
    qtbot.waitExposed(tournament)
    table = tournament.crosstable_view
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: table.columnCount() == 9 and table.viewport().width() > 0, timeout=5000)
    qtbot.wait(50)  # the layout settles
    columns = range(table.columnCount())
    assert [table.horizontalHeaderItem(column).text() for column in columns][-2:] == ["Score %", "Elo"]
    needed = sum(max(table.sizeHintForColumn(column), header.sectionSizeHint(column)) for column in columns)
    assert needed <= table.viewport().width() and not table.horizontalScrollBar().isVisible()
    assert tournament.board_view.width() > 0


LATE = EngineProfile("Late engine", EngineKind.COMMAND, sys.executable,
                     arguments=(str(Path(__file__).resolve().parent / "players" / "uci_scripts" / "overruns_engine.py"),))


def test_seconds_a_move_are_the_engines_move_time_under_the_course_clock(qtbot, window, tmp_path):
    """'0.3s' a move is a move time, as `xqdesk match --movetime 0.3` plays it: the engines are
    told 0.3 s and held to the course's 10 s, so an engine 0.15 s late on each move (as a loaded
    machine makes a real one) plays on instead of losing on time; the PGN says `0.3/move`."""
    from xqdesk.time_control import TimeControl
    from xqdesk.ui.windows.tournament_run import engine_move_time

    assert engine_move_time(TimeControl.parse("0.3s")) == 0.3
    assert engine_move_time(TimeControl.parse("10s")) is None  # the course's clock itself: kept by the referee
    assert engine_move_time(TimeControl.parse("3m+2s")) is None
    tournament = open_tournament(window, (LATE, RANDOM))
    tournament.set_chosen([LATE.name, RANDOM.name])
    tournament.clock_box.setCurrentText("0.3s")
    tournament.games_box.setValue(1)
    pgn = tmp_path / "late.pgn"
    tournament.pgn_edit.setText(str(pgn))
    qtbot.mouseClick(tournament.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(tournament.board_view.board().move_stack) >= 6, timeout=HANG_GUARD_MS)
    with qtbot.waitSignal(tournament.run.ended, timeout=HANG_GUARD_MS) as ended:
        tournament.stop_button.click()
    played, reason = ended.args
    assert reason == "stopped" and len(played) == 1
    record = played[0].record
    assert len(record.moves) >= 6 and "time" not in str(record.outcome).lower()
    late_times = record.move_times[0 if record.red == LATE.name else 1::2]
    assert all(seconds > 0.3 for seconds in late_times[:3]), late_times
    assert read_games(pgn).games[0].headers["TimeControl"] == "0.3/move"
