"""The host answers ``uci`` at once and ``isready`` only once the engine's slow start-up is done."""
from __future__ import annotations

import threading
import time

from xqdesk.engines.host import UciHost
from xqdesk.engines.hosted.baselines import RandomEngine


class SlowStartingEngine(RandomEngine):
    """A real engine whose one-off start-up (like compiling a kernel) takes a while."""

    def __init__(self, start_up_seconds: float, fail: bool = False) -> None:
        super().__init__()
        self.start_up_seconds = start_up_seconds
        self.fail = fail
        self.warmed = threading.Event()

    def warm_up(self) -> None:
        time.sleep(self.start_up_seconds)
        self.warmed.set()
        if self.fail:
            raise OSError("table file missing")


def record_lines() -> tuple[list[str], callable]:
    lines: list[str] = []
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            lines.append(line)

    return lines, write


def test_uci_is_answered_during_warm_up_and_isready_after_it():
    engine = SlowStartingEngine(0.5)
    lines, write = record_lines()
    host = UciHost(engine, write)
    host.start_warm_up()
    host.handle("uci")
    assert lines[-1] == "uciok" and not engine.warmed.is_set()  # answered before the warm-up ended
    host.handle("isready")
    assert engine.warmed.is_set() and lines[-1] == "readyok"


def test_a_failed_warm_up_is_reported_before_readyok():
    engine = SlowStartingEngine(0.0, fail=True)
    lines, write = record_lines()
    host = UciHost(engine, write)
    host.start_warm_up()
    host.handle("isready")
    assert lines[-2] == "info string error: start-up failed: OSError: table file missing"
    assert lines[-1] == "readyok"


def test_an_engine_without_warm_up_is_ready_at_once():
    lines, write = record_lines()
    host = UciHost(RandomEngine(), write)
    host.start_warm_up()
    host.handle("isready")
    assert lines == ["readyok"]
