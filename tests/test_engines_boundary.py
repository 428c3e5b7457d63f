"""Engines that misbehave at the boundary of the protocol: one that floods ``info`` lines without
pause, one that ignores ``stop``, one that writes a line that never ends (on stdout or stderr).
Each is forfeited at its deadline with the course's text, nothing is left running (the autouse
fixture checks), and what an engine prints costs the host a bounded amount of memory."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD
from test_referee_zoo import CLOCK, play, script_engine, seat

from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.process import LINE_CUT, MAX_LINE_BYTES

SCRIPTS = Path(__file__).parent / "players" / "uci_scripts"
REPO = Path(__file__).resolve().parent.parent
HOST_LIMIT_MB = 300


@pytest.mark.parametrize("name", ["flood_engine", "deaf_engine"])
def test_an_engine_that_floods_or_ignores_stop_is_forfeited_at_its_deadline(name: str) -> None:
    record, seconds = play(script_engine(name), seat("random"))
    assert record.outcome.text == "Red timeout, Black wins!"
    assert not record.moves and seconds < CLOCK + HANG_GUARD


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_an_engine_whose_line_never_ends_is_forfeited_at_its_deadline(stream: str) -> None:
    red = EnginePlayer(EngineSpec("endless", (sys.executable, str(SCRIPTS / "endless_line_engine.py"), stream)))
    red.start()
    record, seconds = play(red, seat("random"))  # the line goes on for ever: no move ever comes
    assert record.outcome.text == "Red timeout, Black wins!"
    assert not record.moves and seconds < CLOCK + HANG_GUARD


_HOST = textwrap.dedent("""
    import sys
    from xqdesk.engines.transport.process import LineProcess
    engine = LineProcess([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3]], memory_limit_mb=None)
    for command in ("uci", "isready", "go movetime 1000"):
        engine.send(command)
    seen = []
    while (line := engine.read_line(600)) is not None and not line.startswith("bestmove"):
        seen.append(line)
    engine.kill()
    longest = max(len(line) for line in seen + engine.stderr_tail().splitlines())
    # VmHWM is this process image's own peak; ru_maxrss would carry the parent's peak over exec.
    status = open("/proc/self/status").read()
    peak_kb = int(status.split("VmHWM:")[1].split()[0])
    print(peak_kb // 1024, longest, line)
""")


@pytest.mark.skipif(sys.platform != "linux", reason="reads the peak memory from /proc/self/status")
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_line_that_never_ends_costs_the_host_a_bounded_amount(stream: str) -> None:
    written = 400 * 1024 * 1024  # more than the host may use in all
    host = subprocess.run([sys.executable, "-c", _HOST, str(SCRIPTS / "endless_line_engine.py"), stream,
                           str(written)], capture_output=True, text=True, timeout=600, cwd=REPO)
    assert host.returncode == 0, host.stderr[-2000:]
    peak_mb, longest, last = host.stdout.split(maxsplit=2)
    assert int(peak_mb) < HOST_LIMIT_MB
    assert int(longest) <= MAX_LINE_BYTES + len(LINE_CUT)  # kept cut, the rest read and dropped
    assert last.strip() == "bestmove h2e2"  # what follows the endless line still arrives
