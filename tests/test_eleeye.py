"""The real ElephantEye (UCCI), built from its public source when ``XQDESK_ELEEYE_SRC`` names it:
detected, analysing, asked again after its ``nobestmove`` on a repetition, and a 2-game match
against the built-in engine at 1 s a move through ``xqdesk match`` with no protocol error."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move

pytestmark = pytest.mark.engines

REPO = Path(__file__).resolve().parents[1]


def test_eleeye_is_detected_as_ucci_and_analyses(eleeye):
    engine = UciEngine([eleeye], protocol="auto")
    try:
        identity = engine.start()
        assert identity.name == "ElephantEye" and identity.protocol_name == "UCCI"
        assert {"hashsize", "usebook", "newgame"} <= set(identity.options)
        engine.new_game()
        seen = []
        result = engine.search(STARTING_FEN, [], SearchLimits(movetime=0.5), time.monotonic() + 5, seen.append)
        assert Board().is_legal(result.move)
        assert any(info.depth and info.score is not None and info.pv for info in seen)
        sent = [line.text for line in engine.log() if line.direction.name == "SENT"]
        assert "setoption usemillisec true" in sent and "go time 500" in sent and "setoption newgame" in sent
    finally:
        engine.quit()


def test_eleeye_nobestmove_on_a_repetition_is_asked_again(eleeye):
    shuffle = [Move.from_iccs(text) for text in ("b0c2", "b9c7", "c2b0", "c7b9") * 3]  # the start, a 4th time
    engine = UciEngine([eleeye], protocol="ucci")
    try:
        engine.start()
        result = engine.search(STARTING_FEN, shuffle, SearchLimits(movetime=0.3), time.monotonic() + 5)
        assert result.asked_again and any(line.text == "nobestmove" for line in engine.log())
        assert Board().is_legal(result.move)
    finally:
        engine.quit()


def test_eleeye_plays_a_two_game_match_against_the_builtin_engine(eleeye, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-m", "xqdesk", "match", "--red", f"ucci:{eleeye}", "--black", "builtin",
                          "--games", "2", "--movetime", "1", "--out", str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=1800, cwd=REPO)
    assert run.returncode == 0, run.stderr
    games = [line for line in run.stdout.splitlines() if line.startswith("Game ")]
    assert len(games) == 2, run.stdout
    for line in games:
        outcome = line.split(" plies: ", 1)[1].lower()
        assert "ucci:eleeye" in line and "illegal" not in outcome and "time" not in outcome, line
    assert (tmp_path / "games.pgn").is_file()


def test_analyse_shows_the_node_counts_eleeye_reports_on_their_own_line(eleeye):
    """ElephantEye says ``info time T nodes N`` on a line of its own just before each ``info depth
    … pv …``: the command line shows those nodes (and the speed), not ``nodes 0``."""
    done = subprocess.run([sys.executable, "-m", "xqdesk", "analyse", "--engine", f"ucci:{eleeye}", "--movetime", "0.5"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines() if line.strip().startswith("pv 1 depth")]
    assert lines
    counts = [int(words[words.index("nodes") + 1]) for words in lines]
    assert all(count > 0 for count in counts) and counts == sorted(counts)
    assert "kn/s" in done.stdout


FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


@pytest.mark.skipif(not Path(FAIRY).is_file(), reason="fairy-stockfish is not installed (Debian: fairy-stockfish)")
@pytest.mark.parametrize("clock", ["0.3s", "0.5s"])
def test_a_window_tournament_of_eleeye_and_fairy_stockfish_loses_no_game_on_time(qtbot, window, eleeye, tmp_path,
                                                                                 clock):
    """The window's *Engine tournament*, ElephantEye against Fairy-Stockfish at a fast clock, as a
    player sets it up: both games end by the board (mate, stalemate, a rule, the ply limit), never
    on time, and no engine is judged faulty. (When the window held both to a 0.3 s clock, one of
    them lost on time within 15 plies on a loaded machine; `xqdesk match --movetime` never did.)"""
    from xqdesk.formats import read_games
    from xqdesk.ui.base.settings import EngineKind, EngineProfile

    engines = (EngineProfile("ElephantEye", EngineKind.UCCI, eleeye),
               EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY))
    tournament = window.windows.open_tournament()
    tournament.set_engines(engines)
    tournament.set_chosen([profile.name for profile in engines])
    tournament.clock_box.setCurrentText(clock)
    tournament.games_box.setValue(2)
    pgn = tmp_path / "fast.pgn"
    tournament.pgn_edit.setText(str(pgn))
    tournament.start_button.click()
    with qtbot.waitSignal(tournament.run.ended, timeout=900_000) as ended:
        pass
    played, reason = ended.args
    assert reason == "" and len(played) == 2
    for game in played:
        verdict = str(game.record.outcome).lower()
        assert "time" not in verdict and "illegal" not in verdict and "fail" not in verdict, verdict
    saved = read_games(pgn).games
    assert [game.outcome.result() for game in saved] == [game.record.outcome.result() for game in played]
    assert {game.headers["TimeControl"] for game in saved} == {clock.replace("s", "/move")}
