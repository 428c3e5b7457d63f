"""Players that try to escape: one that double-forks a detached sleeper on every move, one that
sends SIGTERM to its parent. Each gets a verdict, the match goes on, and nothing is left behind."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SUBREAPER
from test_referee_zoo import PLAYERS, play, seat

from xqdesk.engines.transport.process import SHIELDED, LineProcess, live_process_groups
from xqdesk.outcome import Termination

pytestmark = pytest.mark.skipif(not SHIELDED, reason="the engine shield needs Linux")
REPO = Path(__file__).resolve().parent.parent


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return False


def test_this_test_process_sees_escaped_processes() -> None:
    assert SUBREAPER  # the autouse leftover check sees reparented processes too


def test_a_double_forking_player_plays_and_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("XQDESK_TEST_PID_FILE", str(pid_file))
    record, _seconds = play(seat(f"player:{PLAYERS / 'double_fork'}"), seat("random"), max_moves=10)
    # Both sides play at random: a game may end in a mate before its 10th move (seen after 6 plies).
    assert (record.outcome.termination is Termination.ABORTED and len(record.moves) == 10
            or record.outcome.termination is Termination.NO_LEGAL_MOVES), record.outcome.text
    escaped = [int(line) for line in pid_file.read_text().split()]
    assert len(escaped) == (len(record.moves) + 1) // 2  # one detached sleeper per move of Red's
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while any(running(pid) for pid in escaped) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [pid for pid in escaped if running(pid)]
    assert not live_process_groups()


def test_a_detached_grandchild_dies_with_its_engine() -> None:
    process = LineProcess(["sh", "-c", "(setsid sh -c 'echo $$; exec sleep 60' &); exec sleep 60"])
    sleeper = int(process.read_line(60) or 0)
    assert running(sleeper)
    assert os.getsid(sleeper) != os.getsid(process.pid)  # it left the engine's session and group
    process.kill()
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while running(sleeper) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(sleeper)


def test_an_engine_does_not_outlive_a_referee_killed_without_warning(tmp_path: Path) -> None:
    """A referee killed by SIGKILL closes nothing: the shield notices its parent is gone and ends
    the engine, even one that ignores the end of its input."""
    pid_file = tmp_path / "engine.pid"
    referee = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from xqdesk.engines.transport.process import LineProcess\n"
        "engine = LineProcess(['sh', '-c', 'echo $$ > " + str(pid_file) + "; trap \"\" HUP; exec sleep 60'])\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert referee.stdout is not None and referee.stdout.readline().strip() == "started"
        deadline = time.monotonic() + 30.0  # a guard: waits only while it must
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        engine = int(pid_file.read_text())
        assert running(engine)
    finally:
        referee.kill()
        referee.wait()
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while running(engine) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(engine)


def test_a_player_that_signals_its_parent_cannot_kill_the_referee() -> None:
    red = seat(f"player:{PLAYERS / 'kills_parent'}")
    record, _seconds = play(red, seat("random"), max_moves=8)  # this test process is the referee
    assert record.outcome.termination is Termination.ABORTED and len(record.moves) == 8


@pytest.mark.slow
def test_the_match_command_survives_and_judges_both_hostile_players(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), XQDESK_TEST_PID_FILE=str(tmp_path / "pids"))
    done = subprocess.run(
        [sys.executable, "-m", "xqdesk", "match", "--red", f"player:{PLAYERS / 'kills_parent'}",
         "--black", f"player:{PLAYERS / 'double_fork'}", "--games", "2", "--movetime", "0.2", "--clock", "2"],
        env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("game ") >= 2 or done.stdout.count("Game ") >= 2, done.stdout
    escaped = [int(line) for line in (tmp_path / "pids").read_text().split()]
    assert escaped and not [pid for pid in escaped if running(pid)]


def _match(tmp_path: Path, red: str, black: str = "random",
           command: str = "match") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), XQDESK_TEST_PID_FILE=str(tmp_path / "pids"))
    options = ["--games", "1", "--movetime", "0.2", "--clock", "5"] if command == "match" else []
    return subprocess.run([sys.executable, "-m", "xqdesk", command, "--red", red, "--black", black, *options],
                          env=env, capture_output=True, text=True, timeout=300,
                          start_new_session=True)  # its own group: an engine signals the referee's group


@pytest.mark.parametrize("command", ["match", "play"])
def test_an_engine_that_signals_the_referee_and_its_group_gets_its_verdict(tmp_path: Path, command: str) -> None:
    """SIGTERM, SIGINT and SIGHUP to the referee, SIGTERM to the referee's group: all ignored (the
    match once exited with -15 and no verdict); the engine plays on and loses by its second move."""
    done = _match(tmp_path, f"uci:{PLAYERS / 'uci_scripts' / 'signals_referee.py'}", command=command)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        assert f"ignored {name} from process" in done.stderr
    assert "Red moves illegally, Black wins!" in done.stdout, done.stdout


@pytest.mark.slow
def test_what_an_engine_detaches_before_killing_its_shield_dies_with_it(tmp_path: Path) -> None:
    """The referee is a subreaper while the engines run: the engine and its detached sleeper come to
    it when the shield is SIGKILLed, and are killed there (before, the sleeper outlived the match)."""
    done = _match(tmp_path, f"uci:{PLAYERS / 'uci_scripts' / 'kills_shield.py'}")
    # Killed on its probe move before the match (exit 2), or after it: then each game starts it again.
    assert (done.returncode == 2 and "could not move" in done.stderr
            or done.returncode == 0 and "Game 1:" in done.stdout), done.stderr[-2000:]
    assert "escaped its engine's tree" in done.stderr
    escaped = [int(line) for line in (tmp_path / "pids").read_text().split()]
    assert escaped
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while any(running(pid) for pid in escaped) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [pid for pid in escaped if running(pid)]
