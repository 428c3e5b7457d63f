"""Engine games in the window at a fraction of a second a move end as cleanly as ``xqdesk match``'s:
an engine seat is charged the time it thought (from its ``go`` to its ``bestmove``, measured in
the seat's own thread, as the command line's referee charges it), not the time its reply spent
queued behind a busy GUI thread. The GUI thread is kept busy on purpose here (a long redraw, a big
game written out), which under the old clocks made an engine lose on time."""
from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import QTimer

from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

BUILTIN = EngineProfile("Built-in level 3", EngineKind.BUILTIN, level=3)
FULL_STRENGTH = EngineProfile("Built-in level 20", EngineKind.BUILTIN, level=20)  # thinks to the clock
PLIES = 12


def busy_gui_thread(parent, every_ms: int = 60, stall_s: float = 0.25) -> QTimer:
    """A timer that blocks the GUI thread ``stall_s`` seconds every ``every_ms`` (more than an
    engine's whole allowance at these clocks)."""
    timer = QTimer(parent)
    timer.setInterval(every_ms)
    timer.timeout.connect(lambda: time.sleep(stall_s))
    timer.start()
    return timer


def play_plies(qtbot, window, red: EngineProfile, black: EngineProfile, seconds: float,
               busy: bool) -> None:
    """``PLIES`` moves (or the game's end) of ``red`` vs ``black`` at ``seconds`` a move in the
    window; fails when a side loses on time."""
    window.controller.live.configure(replace(window.controller.live.settings, engine_delay=0.0))
    control = TimeControl.per_move(seconds)
    outcomes = []
    window.controller.game_over.connect(outcomes.append)
    window.start_game(red, black, time_controls={RED: control, BLACK: control})
    stalls = busy_gui_thread(window) if busy else None
    try:
        qtbot.waitUntil(lambda: bool(outcomes) or window.controller.length() >= PLIES, timeout=HANG_GUARD_MS)
    finally:
        if stalls is not None:
            stalls.stop()
    timeouts = [outcome.text for outcome in outcomes if outcome.termination is Termination.TIMEOUT]
    assert not timeouts, f"{timeouts} after {window.controller.length()} plies at {seconds}s a move"
    assert window.controller.length() >= PLIES or outcomes
    game = window.controller.live.game
    assert game is not None
    assert all((node.seconds or 0.0) <= seconds for node in game.mainline())


@pytest.mark.parametrize(("seconds", "red"), [(0.1, BUILTIN), (0.3, FULL_STRENGTH)])
def test_engines_keep_a_fast_clock_while_the_gui_thread_is_busy(qtbot, window, seconds, red):
    play_plies(qtbot, window, red, BUILTIN, seconds, busy=True)
