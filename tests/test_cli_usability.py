"""What a user of the command line meets besides the results: refused values, exit codes, progress
on a terminal (and none elsewhere), the help, counted nouns, and no foreign log lines."""
import os
import pty
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.engines

ROOT = Path(__file__).parent.parent
TWO_GAMES = Path(__file__).parent / "data" / "openings" / "two_games.pgn"


def xqdesk(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def on_a_terminal(*args: str, timeout: float = 300) -> tuple[int, str, str]:
    """Run ``xqdesk ARGS`` with its stderr on a pseudo-terminal (stdout a pipe), as in a shell that
    sends the output to a file: (exit code, stdout, what the terminal showed)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "xqdesk", *args], stdout=subprocess.PIPE, stderr=follower,
                               stdin=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "COLUMNS": "120"})
    os.close(follower)
    shown = bytearray()

    def read_terminal() -> None:
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the last writer closed the terminal
                return
            if not chunk:
                return
            shown.extend(chunk)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    stdout, _ = process.communicate(timeout=timeout)
    reader.join(timeout=10)
    os.close(leader)
    return process.returncode, stdout.decode(), shown.decode(errors="replace")


def test_help_says_that_a_file_opens_the_window():
    done = xqdesk("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: xqdesk [FILE]\n       xqdesk COMMAND [OPTIONS]")
    assert "Without a COMMAND, xqdesk opens the window; with a FILE" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["analyse", "--engine", "random", "--movetime", "-3"], "argument --movetime: must be a number of seconds above 0"),
    (["analyse", "--engine", "random", "--depth", "0"], "argument --depth: must be at least 1, got '0'"),
    (["annotate", str(TWO_GAMES), "out.pgn", "--engine", "random", "--movetime", "0"], "above 0"),
    (["tournament", "random", "greedy", "--movetime", "nan"], "argument --movetime: must be a number"),
    (["tournament", "random", "greedy", "--games", "0"], "argument --games: must be at least 1"),
])
def test_zero_and_negative_limits_are_refused(args, message):
    done = xqdesk(*args)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_index_exits_1_when_something_could_not_be_read(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(TWO_GAMES, folder / "good.pgn")
    clean = xqdesk("index", str(tmp_path / "clean.db"), str(folder))
    assert clean.returncode == 0, clean.stderr
    assert "good.pgn: 2 games" in clean.stdout and "indexed 1 file (2 games," in clean.stdout
    (folder / "bad.pgn").write_text('[Event "bad"]\n\n1. h2e2 h9g7 2. h0h9 *\n')
    damaged = xqdesk("index", str(tmp_path / "damaged.db"), str(folder))
    assert damaged.returncode == 1 and "error: " in damaged.stderr and "bad.pgn" in damaged.stderr
    assert "1 read error" in damaged.stdout


def test_counts_say_1_game_not_1_games(tmp_path):
    one = tmp_path / "one.pgn"
    one.write_text(TWO_GAMES.read_text().split("\n\n[Event")[0] + "\n")
    done = xqdesk("convert", str(one), str(tmp_path / "one.fen"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote 1 game from one.pgn")
    checked = xqdesk("replay", "--check", str(tmp_path / "one.fen"))
    assert "checked 1 game of one.fen:" in checked.stdout and "0 read errors" in checked.stdout


@pytest.mark.parametrize("command, shown", [
    (["convert", str(TWO_GAMES), "{tmp}/out.fen"], "writing 2 games to"),
    (["replay", "--check", str(TWO_GAMES)], "checking games"),
    (["gif", str(TWO_GAMES), "{tmp}/out.gif", "--to-ply", "12", "--width", "120"], "drawing"),
])
def test_long_commands_show_progress_on_a_terminal_only(tmp_path, command, shown):
    args = [word.replace("{tmp}", str(tmp_path)) for word in command]
    code, stdout, terminal = on_a_terminal(*args)
    assert code in (0, 1), terminal  # the PGN's games have no result: replay --check says so with 1
    assert shown in terminal, terminal
    assert shown not in stdout
    piped = xqdesk(*args)
    assert piped.returncode == code and shown not in piped.stderr


def test_ray_keeps_its_own_log_lines_out_of_the_output(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'xqdesk[cluster]'")
    done = subprocess.run([sys.executable, "-m", "xqdesk", "tournament", "random:Seed=1", "greedy:Seed=2", "--games",
                           "1", "--cluster", "local", "--quiet"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, "RAY_AUTH_MODE": "disabled"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].split()[:3] == ["Rank", "Engine", "Games"]
    assert not [line for line in done.stderr.splitlines() if " INFO " in line or " WARNING " in line], done.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly():
    """``xqdesk replay FILE | head -1``: the reader closes the pipe after one line; the command ends
    with 141 (as a shell tool killed by SIGPIPE) and no traceback or 'internal error'."""
    args = ["replay", "tests/data/games/iccs/Hu_Ronghua_1391_UCI_games.pgn"]  # 1,391 games: more than a pipe holds
    process = subprocess.Popen([sys.executable, "-m", "xqdesk", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # what head does after its line
    errors = process.stderr.read().decode()
    code = process.wait(timeout=300)
    assert first
    assert "Traceback" not in errors and "internal error" not in errors
    assert code == 141
