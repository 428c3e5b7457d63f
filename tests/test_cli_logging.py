"""``-v`` and ``--debug`` on the commands turn on xqdesk's logging on stderr: the steps of a match,
then every protocol line exchanged with the engines; without them stderr stays quiet."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.engines


def xqdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).parent.parent)


MATCH = ("match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--games", "1", "--movetime", "0.05")


def test_verbose_shows_the_steps_of_a_match_which_says_nothing_on_stderr_unless_asked():
    quiet = xqdesk(*MATCH)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    done = xqdesk(*MATCH, "-v")
    assert done.returncode == 0, done.stderr
    assert "INFO xqdesk.engines.contests.match: starting greedy:Seed=1" in done.stderr
    assert "game 1 begins: greedy:Seed=1 (red) vs random:Seed=2 (black)" in done.stderr
    assert "game 1 ends after" in done.stderr and "> go" not in done.stderr


def test_debug_shows_every_protocol_line_too():
    for option in ("--debug", "-vv"):
        done = xqdesk("analyse", "--engine", "greedy", "--movetime", "0.1", option)
        assert done.returncode == 0, done.stderr
        assert "DEBUG xqdesk.engines.transport: greedy[" in done.stderr
        assert "> uci" in done.stderr and "< bestmove" in done.stderr, done.stderr
