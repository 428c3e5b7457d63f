"""Fog agents behind the engine host: views as text, ``position fog``, real agent processes under
the referee's clock, and fog matches on the command line."""
import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk import BLACK, RED, Move
from xqdesk.engines.fog import make_agent
from xqdesk.engines.fog.hosted import parse_fog_position
from xqdesk.engines.fog.referee import AgentSeat, FogEnginePlayer, format_fog_position, play_fog_game
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import parse_spec
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.formats.pgn import read_pgn
from xqdesk.ruleset import FOG
from xqdesk.variants.fog import format_view, observe, parse_view, start_board, views

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]


def test_views_survive_the_text_form_at_every_ply_of_a_game():
    moves = [Move.from_iccs(text) for text in ("h2h9", "h7h0", "b2e2", "i9h9", "e2e6", "a9a8")]
    for side in (RED, BLACK):
        for view in views(start_board().fen(), moves, side):
            assert parse_view(format_view(view)) == view
    start = format_view(observe(start_board(), RED))
    assert start.startswith("?n?????n?/") and ":w:w:5222221:0:0:-:-:" in start


@pytest.mark.parametrize("bad,why", [
    ("nonsense", "9 fields"),
    ("?/?/?/?/?/?/?/?/?/?:w:w:5222221:0:0:-:-:-", "does not have 9 squares"),
    ("?????????/" * 9 + "????x????:w:w:5222221:0:0:-:-:-", "unknown letter 'x'"),
    ("?????????/" * 9 + "?????????:r:w:5222221:0:0:-:-:-", "'w' or 'b'"),
    ("?????????/" * 9 + "?????????:w:w:522:0:0:-:-:-", "7 digits"),
])
def test_a_bad_view_is_refused_saying_what_is_wrong(bad, why):
    with pytest.raises(ValueError, match=why):
        parse_view(bad)


def test_position_fog_carries_every_view_in_order():
    board = start_board()
    seen = [observe(board, BLACK)]
    board.push_iccs("h2e2")
    seen.append(observe(board, BLACK))
    assert parse_fog_position(format_fog_position(seen)) == seen
    with pytest.raises(ValueError, match="does not follow"):
        parse_fog_position(format_fog_position([seen[1], seen[0]]))


def test_an_agent_process_plays_a_fog_game_under_the_clock():
    spec = parse_spec("fog-greedy:Seed=5")
    engine_seat = FogEnginePlayer(spec, SearchLimits(movetime=1.0))
    engine_seat.start()
    try:
        record = play_fog_game(engine_seat, AgentSeat(make_agent("fog-random", {"Seed": "4"})), move_time_limit=30)
    finally:
        engine_seat.close()
    assert record.outcome.winner == RED, record.outcome.text  # greedy beats random
    final = record.board_at(len(record.moves))
    assert final.outcome() == record.outcome


def test_the_host_never_takes_a_board_for_a_fog_agent():
    spec = parse_spec("fog-random")
    engine = UciEngine(spec.command, env=spec.env)
    engine.start()
    try:
        result = engine.search(start_board().fen(), [], SearchLimits(movetime=1.0), deadline=None)
        assert result.move is None and "never shown the board" in (result.error or "")
        engine.send_line("position fog not-a-view")
        engine.go(SearchLimits(movetime=1.0))
        bad = engine.wait_bestmove()
        assert bad.move is None and "9 fields" in (bad.error or "")
    finally:
        engine.quit()


def test_match_variant_fog_writes_a_fog_pgn_that_replays(tmp_path):
    result = subprocess.run([sys.executable, "-m", "xqdesk", "match", "--variant", "fog", "--red", "fog-greedy",
                             "--black", "fog-random", "--games", "2", "--movetime", "1", "--out", str(tmp_path),
                             "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "fog-greedy vs fog-random: +2 =0 -0" in result.stdout
    games = read_pgn(tmp_path / "games.pgn").games
    assert len(games) == 2 and all(game.ruleset is FOG for game in games)
    assert all(game.check_outcome().agrees for game in games)
    refused = subprocess.run([sys.executable, "-m", "xqdesk", "match", "--red", "fog-greedy", "--black", "random"],
                             cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert refused.returncode == 2 and "--variant fog" in refused.stderr
