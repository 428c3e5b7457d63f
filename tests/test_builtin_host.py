"""The built-in engine as a UCI engine in its own process (``python -m xqdesk.engines.host builtin``)."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time

import pytest
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.move import Move

pytestmark = pytest.mark.engines


class _Uci:
    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "xqdesk.engines.host", "builtin"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                break
            lines.append(line)
            if line.startswith(prefix):
                return lines
        pytest.fail(f"no {prefix!r} within {timeout} s; got {lines!r}")

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


@pytest.fixture
def uci():
    engine = _Uci()
    yield engine
    engine.close()


def test_the_host_plays_timed_moves_and_stops_infinite_analysis(uci: _Uci) -> None:
    uci.send("uci")
    handshake = uci.read_until("uciok", timeout=HANG_GUARD)
    assert any(line.startswith("option name MultiPV") for line in handshake)
    uci.send("isready")
    uci.read_until("readyok", timeout=HANG_GUARD)

    uci.send("position startpos moves h2e2")
    uci.send("go movetime 600")
    lines = uci.read_until("bestmove", timeout=HANG_GUARD)
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(f" {field} " in infos[-1] for field in ("seldepth", "score", "nodes", "nps", "time", "pv"))
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    assert Move.from_iccs(lines[-1].split()[1]) in board.legal_moves

    uci.send("setoption name MultiPV value 2")
    uci.send("go infinite")
    time.sleep(0.4)
    uci.send("stop")
    lines = uci.read_until("bestmove", timeout=HANG_GUARD)
    assert any(" multipv 2 " in line for line in lines)
    assert Move.from_iccs(lines[-1].split()[1]) in board.legal_moves
