"""Playing in the window: a person clicks moves against the built-in engine, which replies; refusals;
takeback during an engine's thought; the move clock; resignation; engine vs engine with a delay."""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt

from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK, RED
from xqdesk.squares import parse_square
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.game.live_game import LiveSettings
from xqdesk.ui.main_window import MainWindow

pytestmark = pytest.mark.engines

WEAK_ENGINE = EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1)



@pytest.fixture
def controller(qtbot):
    made = GameController()
    yield made
    made.shutdown()


def click_square(qtbot, win: MainWindow, name: str) -> None:
    view = win.board_view
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.square_center(parse_square(name)).toPoint())


def test_person_plays_red_by_clicks_and_the_engine_replies(qtbot, window):
    window.start_game(None, WEAK_ENGINE)
    controller = window.controller
    assert controller.mode() is Mode.PERSON_VS_ENGINE
    assert window.board_view.movable_colors() == {RED}
    click_square(qtbot, window, "h2")
    with qtbot.waitSignals([controller.move_made, controller.move_made], timeout=HANG_GUARD_MS):
        click_square(qtbot, window, "e2")
    assert controller.game().mainline_moves()[0] == Move.from_iccs("h2e2")
    assert controller.length() == 2
    assert controller.board().turn == RED
    assert window.board_view.movable_colors() == {RED}
    assert len(window.move_list.move_texts()) == 2
    assert window.move_list.move_texts()[0] == "炮二平五"
    # the engine's column keeps the search of the move it just played (depth, score, line, time)
    view = next(view for view in window.engine_panel.views if view.engine_name)
    reply = window.move_list.move_texts()[1]
    assert view.progress is None and view.last_search is not None
    assert view.figures_text().startswith(f"Last search ({reply})") and "Depth" in view.figures_text()
    rows = view.row_texts()
    assert rows and rows[0][3].startswith(reply)  # its principal variation starts with the move played
    # and a second round: the person moves again, the engine answers again
    click_square(qtbot, window, "b0")
    with qtbot.waitSignals([controller.move_made, controller.move_made], timeout=HANG_GUARD_MS):
        click_square(qtbot, window, "c2")
    assert controller.length() == 4


def test_person_plays_black_with_the_board_flipped(qtbot, window):
    with qtbot.waitSignal(window.controller.move_made, timeout=HANG_GUARD_MS):
        window.start_game(WEAK_ENGINE, None)
    assert window.board_view.is_flipped()
    assert window.board_view.movable_colors() == {BLACK}
    board = window.controller.board()
    reply = next(iter(board.legal_moves))
    click_square(qtbot, window, reply.iccs()[:2])
    with qtbot.waitSignals([window.controller.move_made, window.controller.move_made], timeout=HANG_GUARD_MS):
        click_square(qtbot, window, reply.iccs()[2:])
    assert window.controller.length() == 3


def test_illegal_click_is_refused_in_the_status_bar(qtbot, window):
    window.start_game(None, None)
    click_square(qtbot, window, "b0")
    click_square(qtbot, window, "b5")
    assert window.controller.length() == 0
    message = window.statusBar().currentMessage()
    assert "马八进八" in message and "cannot move" in message  # the move in the move list's notation
    window.move_list.set_notation(Notation.ICCS)
    click_square(qtbot, window, "e0")
    click_square(qtbot, window, "e2")
    assert window.controller.length() == 0
    assert "e0e2" in window.statusBar().currentMessage()


def test_takeback_during_the_engine_thought_drops_its_late_reply(qtbot, controller):
    controller.new_game(Mode.PERSON_VS_ENGINE, black=WEAK_ENGINE)
    worker = controller.worker(BLACK)
    with qtbot.waitSignal(worker.engine_ready, timeout=HANG_GUARD_MS):
        assert controller.play_move(Move.from_iccs("h2e2"))
    assert controller.is_thinking(BLACK)
    with qtbot.waitSignal(worker.reply_dropped, timeout=HANG_GUARD_MS):
        controller.take_back()
    assert controller.length() == 0
    assert not controller.is_thinking(BLACK)
    assert controller.board().turn == RED
    # the person plays on; the engine answers this new position, not the old one
    with qtbot.waitSignals([controller.move_made, controller.move_made], timeout=HANG_GUARD_MS):
        controller.play_move(Move.from_iccs("b2e2"))
    assert controller.game().mainline_moves()[0] == Move.from_iccs("b2e2")
    assert controller.board().turn == RED


def test_takeback_against_an_engine_returns_to_the_person(qtbot, controller):
    controller.new_game(Mode.PERSON_VS_ENGINE, black=WEAK_ENGINE)
    with qtbot.waitSignals([controller.move_made, controller.move_made], timeout=HANG_GUARD_MS):
        controller.play_move(Move.from_iccs("h2e2"))
    controller.take_back()
    assert controller.length() == 0 and controller.board().turn == RED


def test_the_move_clock_runs_out_with_the_course_text(qtbot):
    controller = GameController()
    try:
        clock = TimeControl.per_move(0.3)
        controller.new_game(Mode.PERSON_VS_PERSON, time_controls={RED: clock, BLACK: clock})
        controller.play_move(Move.from_iccs("h2e2"))
        with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as blocker:
            pass
        outcome = blocker.args[0]
        assert outcome.termination is Termination.TIMEOUT
        assert outcome.text == "Black timeout, Red wins!"
        assert controller.movable_colors() == frozenset()
        assert not controller.play_move(Move.from_iccs("h9g7"))
    finally:
        controller.shutdown()


def test_resigning_ends_the_game_for_the_person(qtbot, window):
    window.start_game(None, None)
    with qtbot.waitSignal(window.controller.game_over, timeout=1000) as blocker:
        window.action("Resign").trigger()
    assert blocker.args[0].text == "Red resigns, Black wins!"
    assert window.game_info.result_label.text() == "0-1 — Red resigns, Black wins!"  # the winner named once
    assert "Red resigns, Black wins!" in window.banner.text()  # and a banner that stays until dismissed


def test_engine_vs_engine_keeps_the_delay_between_moves(qtbot, controller):
    controller.live.configure(replace(controller.live.settings, engine_delay=0.3))
    stamps: list[float] = []
    controller.move_made.connect(lambda _move: stamps.append(time.monotonic()))
    controller.new_game(Mode.ENGINE_VS_ENGINE, red=WEAK_ENGINE, black=WEAK_ENGINE)
    qtbot.waitUntil(lambda: len(stamps) >= 4, timeout=HANG_GUARD_MS)
    gaps = [later - earlier for earlier, later in zip(stamps, stamps[1:])]
    assert min(gaps) >= 0.28
    controller.new_game(Mode.PERSON_VS_PERSON)  # stops both engines' turns
    count = controller.length()
    qtbot.wait(400)
    assert controller.length() == count == 0


def test_hint_shows_a_legal_arrow(qtbot, window):
    window.start_game(None, None)
    with qtbot.waitSignal(window.controller.hint_ready, timeout=HANG_GUARD_MS) as blocker:
        window.action("Hint").trigger()
    move = blocker.args[0]
    assert window.controller.board().is_legal(move)
    assert [arrow.move for arrow in window.board_view.arrows()] == [move]


def test_takeback_in_analysis_cuts_the_line_at_the_viewed_move(qtbot, controller):
    controller.new_game(Mode.ANALYSIS)
    for text in ("h2e2", "h9g7", "h0g2", "i9h9"):
        assert controller.play_move(Move.from_iccs(text))
    controller.go_to(2)
    controller.take_back()
    assert [move.iccs() for move in controller.game().mainline_moves()] == ["h2e2"]
    assert controller.ply() == 1 and controller.board().turn == BLACK


def test_the_controller_says_what_a_person_may_do(qtbot, controller):
    """The window asks the controller (can_take_back, is_live) instead of reading its mode."""
    controller.new_game(Mode.ANALYSIS)
    assert not controller.can_take_back() and not controller.is_live()
    assert controller.play_move(Move.from_iccs("h2e2"))
    assert controller.can_take_back()
    controller.set_mode(Mode.REPLAY)
    assert not controller.can_take_back()
    controller.take_back()  # refused while replaying: the move stays
    assert controller.length() == 1
    controller.new_game(Mode.PERSON_VS_PERSON)
    assert controller.is_live() and not controller.can_take_back()


PLAYERS = Path(__file__).resolve().parent / "players"


def test_an_engine_that_moves_illegally_loses_with_the_course_text(qtbot, controller):
    controller.new_game(Mode.PERSON_VS_ENGINE,
                        black=EngineProfile("Illegal", EngineKind.PLAYER, str(PLAYERS / "illegal")))
    with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as blocker:
        controller.play_move(Move.from_iccs("h2e2"))
    outcome = blocker.args[0]
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert outcome.text.startswith("Black moves illegally, Red wins!")
    assert controller.length() == 1


def test_an_engine_that_overruns_the_move_clock_loses_on_time(qtbot):
    controller = GameController(settings=LiveSettings(engine_clock=TimeControl.per_move(1.0)))
    try:
        controller.new_game(Mode.ENGINE_VS_ENGINE,
                            red=EngineProfile("Sleeps", EngineKind.PLAYER, str(PLAYERS / "sleeps")),
                            black=WEAK_ENGINE)
        with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as blocker:
            pass
        assert blocker.args[0].text == "Red timeout, Black wins!"
        assert controller.length() == 0
    finally:
        controller.shutdown()


def test_an_engine_ended_after_its_timeout_is_not_reported_as_failed(qtbot, window):
    """The seat that lost on time has its process killed at once; that is the game's doing, not an
    engine failure: neither the panel nor the banner says "Engine failed … killed"."""
    from xqdesk.ui.engines.engine_worker import running_workers

    sleeps = EngineProfile("Sleeps", EngineKind.PLAYER, str(PLAYERS / "sleeps"))
    with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS) as over:
        window.start_game(sleeps, None, time_controls={RED: TimeControl.per_move(1.0),
                                                       BLACK: TimeControl.unlimited()})
    assert over.args[0].text == "Red timeout, Black wins!"
    qtbot.waitUntil(lambda: not running_workers(), timeout=HANG_GUARD_MS)  # the killed engine's thread has ended
    qtbot.wait(200)  # and whatever it reported has been delivered
    states = [view.state_label.text() for view in window.engine_panel.views]
    assert not any("Engine failed" in text for text in states), states
    assert "Engine failed" not in window.banner.text() and "Red timeout" in window.banner.text()


def test_an_engine_that_dies_at_start_up_aborts_the_game_without_a_result(qtbot, window):
    """An engine that never started made no move to judge: the game is aborted (``*``), not lost
    by an illegal move, and the window says why."""
    broken = EngineProfile("Broken", EngineKind.PLAYER, str(PLAYERS / "ctor_raises"))
    with qtbot.waitSignal(window.controller.game_over, timeout=HANG_GUARD_MS) as over:
        window.start_game(broken, WEAK_ENGINE)
    outcome = over.args[0]
    assert outcome.termination is Termination.ABORTED and outcome.winner is None
    assert outcome.text.startswith("Game aborted (") and "illegal" not in outcome.text
    assert window.controller.game().headers["Result"] == "*" and window.controller.length() == 0
    assert "Game aborted" in window.banner.text() or "Game aborted" in window.game_info.result_label.text()
