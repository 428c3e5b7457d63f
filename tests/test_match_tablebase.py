"""Tablebase adjudication (``--tb DIR``, cutechess-cli's ``-tb``): a game that reaches a position
xqdesk's own endgame tables cover ends with their verdict; through the real command line."""
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.board import Board
from xqdesk.egtb import Signature, Tablebase, build
from xqdesk.engines.contests.adjudication import tablebase_verdict
from xqdesk.formats.pgn import read_pgn
from xqdesk.outcome import Termination
from xqdesk.pieces import RED

pytestmark = pytest.mark.engines

CHARIOT_WINS = "4k4/9/9/R8/9/9/9/9/9/3K5 w"
HORSE_DRAWS = "3aka3/9/9/9/9/9/2N6/9/9/3K5 w"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    build([Signature.parse("KRKA"), Signature.parse("KHKAA")], directory)
    return directory


def xqdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).parent.parent)


def test_the_tables_verdict_of_a_covered_position(tables):
    tablebase = Tablebase(tables)
    won = tablebase_verdict(tablebase, Board(CHARIOT_WINS))
    assert won is not None and won.termination is Termination.ADJUDICATION and won.winner == RED
    assert "the endgame tablebase says red mates in 3 plies" in won.text
    drawn = tablebase_verdict(tablebase, Board(HORSE_DRAWS))
    assert drawn is not None and drawn.result() == "1/2-1/2" and "tablebase says draw" in drawn.text
    assert tablebase_verdict(tablebase, Board()) is None  # no table for the start position


@pytest.mark.parametrize("fen, result", [(CHARIOT_WINS, "1-0"), (HORSE_DRAWS, "1/2-1/2")])
def test_a_match_ends_each_game_by_the_tables(tables, tmp_path, fen, result):
    done = xqdesk("match", "--red", "random:Seed=1", "--black", "random:Seed=2", "--games", "2", "--fen", fen,
                  "--tb", str(tables), "--movetime", "0.05", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    games = read_pgn(tmp_path / "games.pgn").games
    assert len(games) == 2
    for game in games:
        assert len(game.mainline()) == 1, game  # judged after the first move
        assert game.outcome is not None and game.outcome.result() == result
        assert "by adjudication: the endgame tablebase says" in game.outcome.text


def test_a_folder_without_tables_is_refused(tmp_path):
    done = xqdesk("match", "--red", "random", "--black", "random", "--tb", str(tmp_path))
    assert done.returncode == 2 and "holds no tables" in done.stderr
    done = xqdesk("tournament", "random", "greedy", "--tb", str(tmp_path / "missing"))
    assert done.returncode == 2 and "is not a folder" in done.stderr
