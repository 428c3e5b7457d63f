"""The engine worker: searches in its own thread, stale replies dropped, stop, throttled progress.

These run the real Fairy-Stockfish process (short movetimes) behind a real QThread.
"""
from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.transport.process import live_process_groups
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.engines.engine_worker import EngineWorker, running_workers

FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK), reason="fairy-stockfish is not installed")
FAIRY_SPEC = EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY, options=(("Hash", "16"),)).to_spec()


@pytest.fixture
def worker(qtbot):
    engine = EngineWorker(FAIRY_SPEC)
    with qtbot.waitSignal(engine.engine_ready, timeout=HANG_GUARD_MS):
        engine.start()
    yield engine
    engine.shutdown()
    assert not engine.is_running()


@needs_fairy
def test_a_search_reports_progress_and_a_move(qtbot, worker):
    assert worker.description is not None and "Fairy" in worker.description.name
    progress = []
    worker.progress.connect(progress.append)
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS) as blocker:
        request_id = worker.search(STARTING_FEN, [Move.from_iccs("h2e2")], SearchLimits(movetime=0.3))
    reply_id, result = blocker.args
    assert reply_id == request_id
    assert result.move is not None
    assert progress and all(p.request_id == request_id for p in progress)
    assert progress[-1].rows[0].pv and progress[-1].rows[0].pv[0] == result.move
    assert worker.current_request is None


@needs_fairy
def test_a_cancelled_search_drops_its_late_reply(qtbot, worker):
    """A takeback during the engine's thought: the reply to the old position never comes out."""
    moves = []
    worker.best_move.connect(lambda request_id, result: moves.append(request_id))
    with qtbot.waitSignal(worker.progress, timeout=HANG_GUARD_MS):
        stale = worker.search(STARTING_FEN, [], SearchLimits(movetime=5.0))
    with qtbot.waitSignal(worker.reply_dropped, timeout=HANG_GUARD_MS) as dropped:
        worker.cancel()
    assert dropped.args == [stale]
    assert moves == []
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS) as blocker:
        fresh = worker.search(STARTING_FEN, [Move.from_iccs("b2e2")], SearchLimits(movetime=0.2))
    assert blocker.args[0] == fresh and moves == [fresh]


@needs_fairy
def test_a_new_search_replaces_the_one_running(qtbot, worker):
    dropped, answered = [], []
    worker.reply_dropped.connect(dropped.append)
    worker.best_move.connect(lambda request_id, result: answered.append(request_id))
    with qtbot.waitSignal(worker.progress, timeout=HANG_GUARD_MS):
        first = worker.search(STARTING_FEN, [], SearchLimits(infinite=True))
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS):
        second = worker.search(STARTING_FEN, [Move.from_iccs("h2e2")], SearchLimits(depth=3))
    qtbot.waitUntil(lambda: dropped == [first], timeout=HANG_GUARD_MS)
    assert answered == [second]


@needs_fairy
def test_stop_ends_an_infinite_search_with_its_best_move(qtbot, worker):
    with qtbot.waitSignal(worker.progress, timeout=HANG_GUARD_MS):
        request_id = worker.search(STARTING_FEN, [], SearchLimits(infinite=True))
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS) as blocker:
        worker.stop()
    assert blocker.args[0] == request_id and blocker.args[1].move is not None


@needs_fairy
def test_multipv_rows_arrive_together_and_progress_is_throttled(qtbot, worker):
    progress = []
    worker.progress.connect(progress.append)
    with qtbot.waitSignal(worker.best_move, timeout=HANG_GUARD_MS):
        worker.search(STARTING_FEN, [], SearchLimits(movetime=1.0, multipv=3))
    assert len(progress[-1].rows) == 3
    assert [row.multipv for row in progress[-1].rows] == [1, 2, 3]
    first_moves = {row.pv[0] for row in progress[-1].rows}
    assert len(first_moves) == 3
    assert len(progress) <= 14  # about ten a second, plus the final flush


def test_an_engine_that_cannot_start_fails_with_the_reason(qtbot, tmp_path):
    missing = str(tmp_path / "no-such-engine")
    engine = EngineWorker(EngineProfile("ghost", EngineKind.UCI, missing).to_spec())
    with qtbot.waitSignal(engine.engine_failed, timeout=HANG_GUARD_MS) as blocker:
        engine.start()
    assert "no-such-engine" in blocker.args[0]
    engine.shutdown()
    assert engine.has_failed()
    assert running_workers() == [] and live_process_groups() == set()


def test_the_last_lines_arrive_when_the_engine_falls_silent(qtbot):
    """A weak built-in engine reports its few lines at once and then waits for stop: the throttle
    must still deliver the newest of them."""
    engine = EngineWorker(EngineProfile("Built-in", EngineKind.BUILTIN, level=1).to_spec())
    progress = []
    engine.progress.connect(progress.append)
    engine.start()
    try:
        engine.search(STARTING_FEN, [], SearchLimits(infinite=True, multipv=2))
        qtbot.waitUntil(lambda: bool(progress) and len(progress[-1].rows) == 2, timeout=HANG_GUARD_MS)
        with qtbot.waitSignal(engine.best_move, timeout=HANG_GUARD_MS) as blocker:
            engine.stop()
        assert blocker.args[1].move is not None
        assert progress[-1].rows[0].pv[0] == blocker.args[1].move
    finally:
        engine.shutdown()


@needs_fairy
def test_shutdown_without_waiting_returns_at_once_and_the_thread_ends(qtbot):
    engine = EngineWorker(FAIRY_SPEC)
    with qtbot.waitSignal(engine.engine_ready, timeout=HANG_GUARD_MS):
        engine.start()
    with qtbot.waitSignal(engine.progress, timeout=HANG_GUARD_MS):
        engine.search(STARTING_FEN, [], SearchLimits(infinite=True))
    engine.shutdown(wait=False)
    assert engine.current_request is None
    qtbot.waitUntil(lambda: not engine.is_running(), timeout=HANG_GUARD_MS)
    assert running_workers() == []


@needs_fairy
def test_retiring_workers_are_joined_before_the_application_quits(qtbot):
    from xqdesk.ui.engines.engine_worker import join_retiring_workers

    engine = EngineWorker(FAIRY_SPEC)
    with qtbot.waitSignal(engine.engine_ready, timeout=HANG_GUARD_MS):
        engine.start()
    engine.search(STARTING_FEN, [], SearchLimits(infinite=True))
    engine.shutdown(wait=False)
    join_retiring_workers()
    assert not engine.is_running() and running_workers() == []


def test_a_player_that_gives_no_move_reports_why(qtbot):
    from pathlib import Path

    player = Path(__file__).resolve().parent / "players" / "exits"
    engine = EngineWorker(EngineProfile("Exits", EngineKind.PLAYER, str(player)).to_spec())
    engine.start()
    try:
        with qtbot.waitSignal(engine.best_move, timeout=HANG_GUARD_MS) as blocker:
            engine.search(STARTING_FEN, [], SearchLimits(movetime=1.0))
        result = blocker.args[1]
        assert result.move is None and "SystemExit" in result.error
    finally:
        engine.shutdown()


def test_an_engine_that_is_no_xiangqi_engine_fails_the_seat(qtbot):
    """The window starts engines through the same door as the command line: a chess engine added
    as a UCI engine is refused at start, and nothing is left running."""
    script = Path(__file__).parent / "players" / "uci_scripts" / "chess_engine.py"
    spec = replace(EngineProfile("Chessy", EngineKind.UCI, sys.executable).to_spec(),
                   command=(sys.executable, str(script)))
    worker = EngineWorker(spec)
    with qtbot.waitSignal(worker.engine_failed, timeout=HANG_GUARD_MS) as failed:
        worker.start()
    assert "not a Xiangqi engine" in failed.args[0]
    worker.shutdown()
    assert not worker.is_running() and not live_process_groups()
