"""Connections made per game or seat are undone in one place: after several new games and seat
changes, one engine's info update reaches the engine panel and the board's arrows exactly once."""
from __future__ import annotations

from collections import Counter

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import QObject, Signal

from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.ui.analysis.analysis_session import AnalysisSession
from xqdesk.ui.analysis.engine_panel import EnginePanel
from xqdesk.ui.base.connections import SignalConnections
from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

WEAK_ENGINE = EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1)


class _Sender(QObject):
    said = Signal(int)


def test_connections_are_undone_together():
    sender, heard = _Sender(), []
    connections = SignalConnections()
    connections.connect(sender.said, heard.append)
    connections.connect(sender.said, lambda value: heard.append(-value))
    assert len(connections) == 2
    sender.said.emit(1)
    connections.disconnect_all()
    sender.said.emit(2)
    assert heard == [1, -1] and len(connections) == 0
    connections.connect(sender.said, heard.append)  # reusable after being emptied
    sender.said.emit(3)
    connections.disconnect_all()
    connections.disconnect_all()  # twice is harmless
    assert heard == [1, -1, 3]


@pytest.fixture
def deliveries(monkeypatch):
    """Counts, per view index, the progress reports that reach the engine panel and the window's
    arrows (patched on the classes before the window is made, so every connection counts)."""
    counts: dict[str, Counter[int]] = {"panel": Counter(), "arrows": Counter()}
    panel_progress, window_progress = EnginePanel._on_progress, AnalysisSession._on_progress

    def counted_panel(self, index, progress):
        counts["panel"][index] += 1
        panel_progress(self, index, progress)

    def counted_window(self, index, progress):
        counts["arrows"][index] += 1
        window_progress(self, index, progress)

    monkeypatch.setattr(EnginePanel, "_on_progress", counted_panel)
    monkeypatch.setattr(AnalysisSession, "_on_progress", counted_window)
    return counts


def test_a_kept_engine_reports_once_after_new_games_and_seat_changes(qtbot, deliveries, window):
    controller = window.controller
    window.start_game(WEAK_ENGINE, WEAK_ENGINE)  # engine vs engine: Black's engine is the panel's view 1
    qtbot.waitUntil(lambda: controller.length() >= 2, timeout=HANG_GUARD_MS)
    black_engine = controller.worker(BLACK)
    for _ in range(3):  # person vs engine, three times: the same Black engine is kept, in view 0
        window.start_game(None, WEAK_ENGINE)
        assert controller.worker(BLACK) is black_engine and controller.worker(RED) is None
    emitted = []
    black_engine.progress.connect(emitted.append)
    for counter in deliveries.values():
        counter.clear()
    assert controller.play_move(Move.from_iccs("h2e2"))
    qtbot.waitUntil(lambda: controller.length() == 2, timeout=HANG_GUARD_MS)
    qtbot.waitUntil(lambda: bool(emitted), timeout=HANG_GUARD_MS)
    assert deliveries["panel"] == Counter({0: len(emitted)})
    assert deliveries["arrows"] == Counter({0: len(emitted)})
    arrows = window.board_view.arrows()
    assert len(arrows) == len({arrow.move for arrow in arrows})  # no engine line drawn twice


def test_analysis_engines_report_once_after_being_chosen_again(qtbot, deliveries, window):
    for _ in range(3):
        window.analysis.start([WEAK_ENGINE])
    worker = window.engine_panel.worker(0)
    emitted = []
    worker.progress.connect(emitted.append)
    qtbot.waitUntil(lambda: bool(emitted), timeout=HANG_GUARD_MS)
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS):
        window.analysis.stop()
    assert deliveries["panel"] == Counter({0: len(emitted)})
    assert deliveries["arrows"] == Counter({0: len(emitted)})
