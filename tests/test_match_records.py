"""The PGN a match writes, as cutechess-cli writes it: Date, TimeControl, PlyCount and Termination
tags, and each engine move's score, depth and time as a comment that reads back."""
import datetime
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.engine_comment import BOOK_COMMENT, engine_scores, format_engine_comment, parse_engine_comment, parse_score
from xqdesk.formats.pgn import read_pgn
from xqdesk.pieces import BLACK, RED
from xqdesk.score import MATE_GIVEN, Cp, Mate

pytestmark = pytest.mark.engines

OPENINGS = Path(__file__).parent / "data" / "openings"


def xqdesk(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).parent.parent)


@pytest.mark.parametrize("score, depth, seconds, text", [
    (Cp(35), 12, 0.98, "+0.35/12 0.98s"),
    (Cp(-120), 7, 1.2345, "-1.20/7 1.234s"),
    (Mate(5), 20, 0.5, "+M5/20 0.5s"),
    (Mate(-3), 9, 2.0, "-M3/9 2s"),
    (MATE_GIVEN, 1, 0.01, "+M0/1 0.01s"),
    (Mate(0), 1, 0.01, "-M0/1 0.01s"),
    (Cp(0), None, 3.0, "+0.00 3s"),
    (None, 4, 0.25, "0.25s"),
])
def test_engine_comments_are_written_and_read_back(score, depth, seconds, text):
    assert format_engine_comment(score, depth, seconds) == text
    read = parse_engine_comment(text + " offers a draw")
    assert read is not None and read.score == score and read.seconds == pytest.approx(round(seconds, 3))
    assert read.depth == (depth if score is not None else None)


def test_cutechess_comments_and_other_words_are_told_apart():
    assert parse_engine_comment("-0.22/17 1.2s") == parse_engine_comment("  -0.22/17 1.2s")
    assert parse_engine_comment("-0.22/17 1.2s").score == Cp(-22)
    assert parse_score("+M12") == Mate(12)
    for words in (BOOK_COMMENT, "a fine move", "12 seconds", "+0.35/12", ""):
        assert parse_engine_comment(words) is None, words


def test_a_match_pgn_has_cutechess_tags_and_comments_that_read_back(tmp_path):
    done = xqdesk("match", "--red", "builtin", "--black", "greedy:Seed=3", "--depth", "2", "--movetime", "5",
                  "--games", "2", "--openings", str(OPENINGS / "two_games.pgn"), "plies=3", "--quiet",
                  "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "games.pgn").read_text()
    games = read_pgn(tmp_path / "games.pgn").games
    assert len(games) == 2
    for game in games:
        moves = game.mainline()
        assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", game.headers["Date"])
        assert abs(datetime.date(*map(int, game.headers["Date"].split("."))) - datetime.date.today()).days <= 1
        assert game.headers["TimeControl"] == "5/move"
        assert game.headers["PlyCount"] == str(len(moves))
        assert game.outcome is not None and f'[Termination "{game.outcome.text}"]' in text
        assert [node.comment for node in moves[:3]] == [BOOK_COMMENT] * 3  # the opening's moves
        builtin_colour = RED if game.headers["Red"] == "builtin" else BLACK
        mover = BLACK  # the opening's 3 plies leave Black to move
        scores = engine_scores(game)
        for ply, node in enumerate(moves[3:], start=4):
            said = parse_engine_comment(node.comment)
            assert said is not None, node.comment
            if mover == builtin_colour:
                assert said.depth in (1, 2) and said.score is not None, node.comment  # --depth 2 stops it
                assert scores[ply].pov(mover) == said.score
            else:  # greedy reports no score: only its time
                assert said.score is None and ply not in scores, node.comment
            mover = not mover
        assert any(ply for ply in scores)


def test_the_tournament_pgn_names_its_time_control(tmp_path):
    done = xqdesk("tournament", "random:Seed=1", "greedy:Seed=2", "--games", "1", "--tc", "15m+5s", "--quiet",
                  "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    game, = read_pgn(tmp_path / "tournament.pgn").games
    assert game.headers["TimeControl"] == "900+5" and game.headers["PlyCount"] == str(len(game.mainline()))
    assert all(parse_engine_comment(node.comment) is not None for node in game.mainline())
