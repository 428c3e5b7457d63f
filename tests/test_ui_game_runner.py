"""The window plays by the command line's game runner: a person has no clock unless the game sets
one, engines get the time their clock gives them, and a seat that loses by a fault has its process
ended at once and a fresh one next game — with the same verdict texts as ``xqdesk match``."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt

from xqdesk.cli import main as cli_main
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.main_window import MainWindow

pytestmark = pytest.mark.engines

PLAYERS = Path(__file__).resolve().parent / "players"
BUILTIN = EngineProfile("Built-in", EngineKind.BUILTIN, level=20, options=(("OwnBook", "false"),))
"""Full strength and searching from the first move (no book: the tests time its thought)."""
LOOPS = EngineProfile("Loops", EngineKind.PLAYER, str(PLAYERS / "loops"))
WEAK_ENGINE = EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1)


def click_move(qtbot, window: MainWindow, move: Move) -> None:
    view = window.board_view
    for square in (move.from_square, move.to_square):
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.square_center(square).toPoint())


def engine_pid(window: MainWindow, color: bool) -> int:
    worker = window.controller.worker(color)
    assert worker is not None
    engine = worker._thread.engine
    assert engine is not None and engine.pid is not None
    return engine.pid


def process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone as far as running goes
        return stat.read().split(") ", 1)[1].startswith("Z")


def test_a_person_has_no_clock_and_the_engine_uses_its_3_seconds(qtbot, window: MainWindow) -> None:
    controller = window.controller
    window.start_game(None, BUILTIN, time_controls={RED: TimeControl.unlimited(), BLACK: TimeControl.per_move(3)})
    qtbot.waitUntil(lambda: controller.worker(BLACK) is not None and controller.worker(BLACK).description is not None,
                    timeout=HANG_GUARD_MS)
    thinking_times = []
    for move in (Move.from_iccs("h2e2"), Move.from_iccs("h0g2")):
        qtbot.wait(6000)  # the person thinks: 12 s in all, with no clock
        assert controller.outcome() is None
        assert window.clock_display.text(RED).endswith("no clock")
        asked = time.monotonic()
        with qtbot.waitSignals([controller.move_made, controller.move_made], timeout=HANG_GUARD_MS):
            click_move(qtbot, window, move)
        thinking_times.append(time.monotonic() - asked)
    assert controller.outcome() is None and controller.length() == 4
    # Told 2.7 s of its 3 s, the engine thinks well past the 1 s it used to get whatever the clock said.
    assert min(thinking_times) >= 1.2, thinking_times
    assert max(thinking_times) < 3.0 + 2.0, thinking_times


def test_a_player_that_loops_forever_loses_on_time_and_its_process_goes(qtbot, window: MainWindow) -> None:
    controller = window.controller
    clock = TimeControl.per_move(2)
    window.start_game(LOOPS, WEAK_ENGINE, time_controls={RED: clock, BLACK: clock})
    qtbot.waitUntil(lambda: controller.worker(RED) is not None and controller.worker(RED).description is not None,
                    timeout=HANG_GUARD_MS)
    pid = engine_pid(window, RED)
    with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as verdict:
        pass
    assert verdict.args[0].text == "Red timeout, Black wins!"
    qtbot.waitUntil(lambda: process_gone(pid), timeout=HANG_GUARD_MS)  # gone after the verdict, however busy the machine
    assert controller.worker(RED) is None  # retired: the next game starts a fresh process
    window.start_game(LOOPS, WEAK_ENGINE, time_controls={RED: clock, BLACK: clock})
    qtbot.waitUntil(lambda: controller.worker(RED) is not None and controller.worker(RED).description is not None,
                    timeout=HANG_GUARD_MS)
    assert engine_pid(window, RED) != pid
    with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as second:
        pass
    assert second.args[0].text == "Red timeout, Black wins!"


def test_the_same_player_through_the_match_command_gets_the_same_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["match", "--red", f"player:{PLAYERS / 'loops'}", "--black", "random", "--games", "1",
                     "--clock", "2"]) == 0
    assert "Red timeout, Black wins!" in capsys.readouterr().out


def test_a_person_under_a_game_clock_loses_on_time_with_the_course_text(qtbot, window: MainWindow) -> None:
    controller = window.controller
    window.start_game(None, None, time_controls={RED: TimeControl.game(0.5), BLACK: TimeControl.game(0.5)})
    with qtbot.waitSignal(controller.game_over, timeout=HANG_GUARD_MS) as verdict:
        pass
    assert verdict.args[0].text == "Red timeout, Black wins!"
    assert controller.movable_colors() == frozenset()


def test_the_new_game_dialog_sets_each_side_s_clock(qtbot, window: MainWindow) -> None:
    from xqdesk.ui.game.seat_dialogs import NewGameDialog

    dialog = NewGameDialog((WEAK_ENGINE,), "10s", "none", 0.0, can_continue=False, parent=window)
    qtbot.addWidget(dialog)
    assert dialog.red_clock.currentText() == "none"
    dialog.black_box.setCurrentIndex(1)  # an engine: its clock follows
    assert dialog.black_clock.currentText() == "10s"
    dialog.red_clock.setCurrentText("15m+5s")
    assert dialog.time_controls() == {RED: TimeControl.game(900, 5), BLACK: TimeControl.per_move(10)}
    dialog.red_clock.setCurrentText("soon")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted and "soon" in dialog.error_label.text()
