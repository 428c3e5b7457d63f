"""``match --out DIR`` into a folder that already holds games, and two matches into one folder at
once: every finished game is kept, and the count each run prints is true."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.formats.pgn import read_pgn

ROOT = Path(__file__).parent.parent


def match_command(out: Path, seed: int) -> list[str]:
    """A four-game match of two instant engines (seeded, so games differ between runs)."""
    return [sys.executable, "-m", "xqdesk", "match", "--red", f"random:Seed={seed}", "--black",
            f"greedy:Seed={seed + 1}", "--games", "4", "--concurrency", "2", "--movetime", "0.02", "--out", str(out)]


def pgn_line(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith("PGN: "))


@pytest.mark.slow
def test_a_second_match_into_the_same_folder_keeps_the_first_ones_games(tmp_path):
    first = subprocess.run(match_command(tmp_path, 1), capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert first.returncode == 0, first.stderr
    assert pgn_line(first.stdout) == f"PGN: {tmp_path / 'games.pgn'} (4 games)"
    earlier = (tmp_path / "games.pgn").read_bytes()
    second = subprocess.run(match_command(tmp_path, 11), capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert second.returncode == 0, second.stderr
    assert pgn_line(second.stdout) == f"PGN: {tmp_path / 'games.pgn'} (4 games added to the games already in it)"
    record = read_pgn(tmp_path / "games.pgn")
    assert len(record.games) == 8 and not record.errors
    assert (tmp_path / "games.pgn").read_bytes().startswith(earlier)  # the first run's games untouched
    reds = [game.headers["Red"] for game in record.games]
    assert reds.count("random:Seed=1") == 2 and reds.count("random:Seed=11") == 2
    assert [game.headers["Round"] for game in record.games[4:]] == ["1", "2", "3", "4"]  # in schedule order


@pytest.mark.slow
def test_two_matches_into_one_folder_at_once_keep_all_eight_games(tmp_path):
    runs = [subprocess.Popen(match_command(tmp_path, seed), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT) for seed in (1, 11)]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (stdout, stderr) in zip(runs, outputs):
        assert run.returncode == 0, stderr
        assert pgn_line(stdout).split(" (")[1].startswith("4 games"), stdout
    record = read_pgn(tmp_path / "games.pgn")
    assert len(record.games) == 8 and not record.errors
    reds = sorted(game.headers["Red"] for game in record.games)
    assert reds == sorted(["random:Seed=1", "greedy:Seed=2"] * 2 + ["random:Seed=11", "greedy:Seed=12"] * 2)
