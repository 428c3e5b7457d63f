"""A match's PGN opened in the window: the score graph draws the engines' scores its move comments
hold (cutechess-cli's ``{+0.35/12 0.98s}``), one series per side, from Red's view."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from window_files import open_file

from xqdesk.engine_comment import engine_scores
from xqdesk.formats import read_games
from xqdesk.ui.analysis.score_graph import red_view_pawns

pytestmark = pytest.mark.engines


def test_a_match_game_opens_with_its_engines_scores_on_the_graph(qtbot, window, tmp_path):
    done = subprocess.run([sys.executable, "-m", "xqdesk", "match", "--red", "builtin", "--black", "builtin:name=other",
                           "--depth", "2", "--movetime", "5", "--games", "1", "--quiet", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    path = tmp_path / "games.pgn"
    assert open_file(qtbot, window, path)
    graph = window.score_graph
    game = read_games(path).games[0]
    recorded = engine_scores(game)
    assert len(recorded) == len(game.mainline())  # every move an engine's, each with its score
    red = {ply: red_view_pawns(score) for ply, score in recorded.items() if ply % 2 == 1}
    black = {ply: red_view_pawns(score) for ply, score in recorded.items() if ply % 2 == 0}
    assert graph.scores(0) == red and graph.scores(1) == black
    assert graph.series_names() == ["Red: builtin", "Black: other"]
