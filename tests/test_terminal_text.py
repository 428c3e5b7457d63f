"""Record text printed on a terminal carries no control characters: :func:`printable`, and every
command that prints what a record, a file name or an engine said, run as a user runs it."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.terminal_text import printable

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = Path(__file__).parent / "players"
ESC, BEL = "\x1b", "\x07"

HOSTILE_PGN = (
    f'[Event "Cup{ESC}]0;PWNED{BEL}{ESC}]52;c;cm0gLXJmIH4={BEL}"]\n'  # window title, then the clipboard
    f'[Site "{ESC}[2J{ESC}[H"]\n'  # clear the screen
    '[Date "2024.01.01"]\n'
    f'[Red "Alice\u202eecilA{ESC}[1A"]\n'  # a right-to-left override; the cursor one line up
    '[Black "Bob\x9b31m\x7f\x08\x08\x08"]\n'  # a C1 CSI, DEL, backspaces
    '[Result "1-0"]\n'
    f'[Opening "a\rb"]\n\n'
    f'1. h2e2 {{comment {ESC}[31mred{ESC}[0m}} h9g7 1-0\n'
)
"""One game whose tags are escape sequences a terminal would obey."""

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""What may not reach a terminal (newline and tab may: they end and indent the lines)."""


def hostile_file(folder: Path) -> Path:
    path = folder / f"hostile{ESC}]0;NAMED{BEL}.pgn"  # the file's name is hostile too
    path.write_text(HOSTILE_PGN, encoding="utf-8")
    return path


def xqdesk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], cwd=ROOT, capture_output=True,
                          encoding="utf-8", errors="surrogateescape", timeout=HANG_GUARD)


def assert_inert(text: str) -> None:
    found = sorted({f"U+{ord(char):04X}" for char in UNSAFE.findall(text)})
    assert not found, f"control characters reach the terminal: {found} in {text!r}"


def test_printable_escapes_what_a_terminal_obeys() -> None:
    assert printable(f"a{ESC}]0;x{BEL}b") == "a\\x1b]0;x\\x07b"
    assert printable("\x9b\x7f\x00\r") == "\\x9b\\x7f\\x00\\x0d"
    assert printable("A\u202eB\u2066C\u200fD\u2028") == "A\\u202eB\\u2066C\\u200fD\\u2028"
    assert printable("bad \udc80 byte") == "bad \\udc80 byte"
    assert printable("one\ttwo\nthree") == "one\\x09two\\x0athree"  # a name is one line
    assert printable("one\ttwo\nthree\r", keep_newlines=True) == "one\ttwo\nthree\\x0d"


def test_printable_keeps_ordinary_text_unchanged() -> None:
    for text in ("", "Xu Yinchuan – Lü Qin 1-0", "許銀川 先勝 呂欽", "炮二平五 馬８進７", "Ünïcödé ½ ♔ 😀"):
        assert printable(text) == text
        assert printable(text, keep_newlines=True) == text


def test_replay_prints_a_hostile_record_inert(tmp_path: Path) -> None:
    path = hostile_file(tmp_path)
    for extra in ([], ["--check"], ["--notation", "chinese"]):
        done = xqdesk("replay", str(path), *extra)
        assert done.returncode == 0, done.stderr
        assert_inert(done.stdout)
        assert_inert(done.stderr)
        # the reader sees what the record holds, escaped
        assert "Event: Cup\\x1b]0;PWNED\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07" in done.stdout
        assert "Red: Alice\\u202eecilA\\x1b[1A" in done.stdout and "Opening: a\\x0db" in done.stdout


def test_replay_errors_about_a_hostile_record_are_inert(tmp_path: Path) -> None:
    path = tmp_path / "damaged.pgn"
    path.write_text(HOSTILE_PGN.replace("h9g7", f"h9g7 z9z9{ESC}[2J"), encoding="utf-8")
    done = xqdesk("replay", str(path), "--check")
    assert done.returncode == 1
    assert_inert(done.stdout)
    assert_inert(done.stderr)


def test_convert_index_and_explore_print_hostile_names_inert(tmp_path: Path) -> None:
    path = hostile_file(tmp_path)
    converted = xqdesk("convert", str(path), str(tmp_path / "out.pgn"))
    assert converted.returncode == 0, converted.stderr
    assert_inert(converted.stdout)
    indexed = xqdesk("index", str(tmp_path / "games.db"), str(path))
    assert indexed.returncode == 0, indexed.stderr
    assert_inert(indexed.stdout)
    assert "hostile\\x1b]0;NAMED\\x07.pgn" in indexed.stdout
    explored = xqdesk("explore", str(tmp_path / "games.db"), "--games", "5")
    assert explored.returncode == 0, explored.stderr
    assert_inert(explored.stdout)
    assert "Alice\\u202eecilA\\x1b[1A – Bob\\x9b31m\\x7f\\x08\\x08\\x08" in explored.stdout


def test_match_prints_an_engines_hostile_words_inert(tmp_path: Path) -> None:
    # The verdict quotes the exception the player raised; the match prints the verdict.
    done = xqdesk("match", "--red", f"player:{PLAYERS / 'hostile_text'}", "--black", f"player:{PLAYERS / 'ordinary'}",
                  "--games", "1", "--movetime", "1", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout)
    assert "boom \\x1b]0;PWNED\\x07" in done.stdout


def test_annotate_summary_prints_hostile_player_names_inert(tmp_path: Path) -> None:
    path = hostile_file(tmp_path)
    done = xqdesk("annotate", str(path), str(tmp_path / "annotated.pgn"), "--engine", "builtin", "--depth", "1",
                  "--quiet")
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout)
    assert "Alice\\u202eecilA\\x1b[1A" in done.stdout


def test_analyse_prints_an_engines_hostile_name_inert() -> None:
    engine = PLAYERS / "uci_scripts" / "hostile_name_engine.py"
    done = xqdesk("analyse", "--engine", f"uci:{engine}", "--depth", "1")
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout)
    assert "Engine: Evil\\x1b]0;PWNED\\x07" in done.stdout and "Best move" in done.stdout
