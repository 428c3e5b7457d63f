"""Bad arguments meet a clear message through the real command line: what is wrong and where, with
exit code 2, never a traceback nor Python's own wording (``invalid literal for int()``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]
TWO_GAMES = ROOT / "tests" / "data" / "openings" / "two_games.pgn"


def xqdesk(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=HANG_GUARD)


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The message of a command refused as a usage error (exit 2), checked to be no traceback."""
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "invalid literal" not in done.stderr
    return done.stderr


@pytest.mark.parametrize("words, message", [
    (["plies=-2"], "--openings: plies must be 0 or more (moves of each game to play), got -2"),
    (["plies=x"], "--openings: plies='x': not a whole number"),
    (["start=two"], "--openings: start='two': not a whole number"),
])
def test_bad_opening_keys_are_named(words, message):
    assert message in refused(xqdesk("match", "--red", "greedy", "--black", "random", "--openings", str(TWO_GAMES),
                                     *words))


def test_a_bad_adjudication_number_is_named():
    message = refused(xqdesk("match", "--red", "greedy", "--black", "random", "--draw", "movenumber=ten",
                             "movecount=2", "score=5"))
    assert "--draw: movenumber='ten': not a whole number" in message


def test_a_bad_level_of_a_registry_engine_is_named(tmp_path):
    message = refused(xqdesk("engines", "--engines", str(tmp_path / "engines.json"), "add", "mine", "builtin:Level=x"))
    assert "'builtin:Level=x': Level must be a whole number, got 'x'" in message


def test_a_missing_record_is_called_missing_not_an_unknown_command(tmp_path):
    message = refused(xqdesk("missing.pgn", cwd=tmp_path))
    assert "xqdesk: missing.pgn: no such file or folder" in message
    assert "invalid choice" not in message
    assert "invalid choice: 'perft2'" in refused(xqdesk("perft2"))  # a word that is no file stays a command


def test_engine_names_after_the_openings_file_stay_engines(tmp_path):
    done = xqdesk("tournament", "--openings", str(TWO_GAMES), "plies=2", "greedy", "random", "--games", "1",
                  "--movetime", "0.05", "--repeat", "1", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr[-3000:]
    assert "greedy" in done.stdout and "random" in done.stdout


def test_the_unknown_engine_message_lists_every_kind():
    message = xqdesk("analyse", "--engine", "nosuch", "--depth", "1").stderr
    assert "unknown engine 'nosuch'" in message
    for kind in ("builtin", "random", "greedy", "mcts", "zero", "fog-random", "fog-ubsa", "player:PATH", "uci:PATH"):
        assert kind in message


def test_a_missing_picture_record_is_named_once(tmp_path):
    done = xqdesk("image", "missing.pgn", "out.png", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("missing.pgn") == 1, done.stderr


def test_index_errors_name_the_folder_of_the_file(tmp_path):
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "games.pgn").write_text('[Event "x"]\n\n1. h2e2 zz9z9 *\n', encoding="utf-8")
    done = xqdesk("index", str(tmp_path / "index.xqdb"), "first", "second", cwd=tmp_path)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert errors[0].startswith("error: first/games.pgn, game 1") and errors[1].startswith("error: second/games.pgn, game 1")


def test_the_window_help_shows_the_default_size_as_typed():
    shown = subprocess.run([sys.executable, str(ROOT / "main.py"), "--help"], capture_output=True, text=True,
                           timeout=HANG_GUARD, cwd=ROOT)
    assert shown.returncode == 0
    assert "(default 1280x900)" in " ".join(shown.stdout.split())
