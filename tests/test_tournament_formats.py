"""Gauntlet and knockout tournaments, an SPRT for every pair of a tournament, and ``name=`` for an
engine, through the real command line and engine processes (cheap engines)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.cli.match import split_display_name
from xqdesk.cli.match_options import UsageError
from xqdesk.engines.contests.tournament import gauntlet_schedule, knockout_bracket
from xqdesk.formats.pgn import read_pgn

pytestmark = pytest.mark.engines


def xqdesk(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).parent.parent)


def test_a_knockout_bracket_gives_the_top_seeds_their_byes_and_keeps_them_apart():
    assert knockout_bracket(2) == [(0, 1)]
    assert knockout_bracket(4) == [(0, 3), (1, 2)]
    assert knockout_bracket(5) == [(0, None), (3, 4), (1, None), (2, None)]
    assert knockout_bracket(8) == [(0, 7), (3, 4), (1, 6), (2, 5)]


def test_a_gauntlet_pairs_its_seeds_with_everyone_else_only():
    pairs = {tuple(sorted((game.red, game.black))) for game in gauntlet_schedule(5, 2, seeds=2)}
    assert pairs == {(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)}
    with pytest.raises(ValueError, match="1 to 2 seeds"):
        gauntlet_schedule(3, 2, seeds=3)


def test_a_gauntlet_plays_the_first_engine_against_each_other(tmp_path):
    done = xqdesk("tournament", "greedy:Seed=1,name=Hero", "random:Seed=2", "random:Seed=3", "--format", "gauntlet",
                  "--games", "2", "--movetime", "0.05", "--quiet", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    games = read_pgn(tmp_path / "tournament.pgn").games
    assert len(games) == 4
    assert all("Hero" in (game.headers["Red"], game.headers["Black"]) for game in games)
    assert sorted(line.split()[1] for line in done.stdout.splitlines()[1:4]) == [
        "Hero", "random:Seed=2", "random:Seed=3"]


def test_a_knockout_plays_rounds_until_one_winner(tmp_path):
    done = xqdesk("tournament", "greedy:Seed=1", "random:Seed=2", "random:Seed=3", "greedy:Seed=4",
                  "--format", "knockout", "--games", "2", "--movetime", "0.05", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    rounds = re.findall(r"^  Round (\d): (.+)$", done.stdout, re.MULTILINE)
    assert [number for number, _ in rounds] == ["1", "1", "2"]
    assert rounds[0][1].find("greedy:Seed=1") >= 0 and "greedy:Seed=4" in rounds[0][1]  # seed 1 meets seed 4
    assert "random:Seed=2" in rounds[1][1] and "random:Seed=3" in rounds[1][1]
    winner = re.search(r"^Winner: (.+)$", done.stdout, re.MULTILINE)
    assert winner is not None and winner.group(1) in rounds[2][1]
    finalists = {name for name in ("greedy:Seed=1", "random:Seed=2", "random:Seed=3", "greedy:Seed=4")
                 if name in rounds[2][1]}
    assert len(finalists) == 2
    games = read_pgn(tmp_path / "tournament.pgn").games
    assert len(games) >= 6 and {game.headers["Event"] for game in games} == {"xqdesk knockout"}


def test_a_tournament_sprt_ends_each_pair_at_its_verdict():
    done = xqdesk("tournament", "greedy:Seed=1", "random:Seed=2", "random:Seed=3", "--sprt", "elo0=0", "elo1=400",
                  "alpha=0.2", "beta=0.2", "--games", "60", "--movetime", "0.05", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    tests = [line for line in lines if re.match(r"^  \S+ vs \S+: ", line)]
    assert len(tests) == 3 and all("was accepted" in line for line in tests), done.stdout
    games = int(re.search(r"^Standings after (\d+) finished games", done.stdout, re.MULTILINE).group(1))
    assert games < 3 * 60  # the pairs stopped at their verdicts


@pytest.mark.parametrize("options, message", [
    (["--format", "knockout", "--sprt", "elo0=0", "elo1=5", "--games", "4"], "not a knockout"),
    (["--sprt", "elo0=0", "elo1=5"], "needs --games N"),
    (["--format", "gauntlet", "--seeds", "2"], "at most 1 seeds"),
    (["--format", "pyramid"], "invalid choice: 'pyramid'"),
])
def test_bad_tournament_options_are_refused(options, message):
    done = xqdesk("tournament", "greedy", "random", *options)
    assert done.returncode == 2 and message in done.stderr, done.stderr


@pytest.mark.parametrize("text, expected", [
    ("builtin:Level=3,name=weak", ("builtin:Level=3", "weak")),
    ("builtin:name=weak,Level=3", ("builtin:Level=3", "weak")),
    ("builtin:Level=3,name=weak,Hash=2", ("builtin:Level=3,Hash=2", "weak")),
    ("player:students/p1:name=Ann Lee", ("player:students/p1", "Ann Lee")),
    ("uci:/usr/games/fairy-stockfish:Skill Level=3", ("uci:/usr/games/fairy-stockfish:Skill Level=3", None)),
])
def test_a_spec_gives_up_its_name(text, expected):
    assert split_display_name(text) == expected


def test_an_engine_named_in_its_spec_carries_that_name_everywhere(tmp_path):
    with pytest.raises(UsageError, match="name= needs a name"):
        split_display_name("random:name=")
    done = xqdesk("match", "--red", "greedy:Seed=1,name=Greedy One", "--black", "random:name=R", "--games", "1",
                  "--movetime", "0.05", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Game 1: Greedy One (red) vs R (black)" in done.stdout
    game, = read_pgn(tmp_path / "games.pgn").games
    assert (game.headers["Red"], game.headers["Black"]) == ("Greedy One", "R")
