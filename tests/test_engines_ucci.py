"""UCCI: the protocol's lines as pure functions, the protocol objects, and a real UCCI engine
process (``players/uci_scripts/ucci_engine.py``, a greedy mover on xqdesk's board that speaks UCCI
as ElephantEye does) through the engine device, the seat and the referee."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.engines.contests.match import PlayedGame, ScheduledGame, to_game
from xqdesk.engines.errors import EngineCrashedError, EnginePositionError, EngineProtocolError, EngineStartError
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.play.referee import play_game
from xqdesk.engines.registry import load_engines_file
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec, host_command, host_environment, parse_spec
from xqdesk.engines.transport import uci_engine as uci_engine_module
from xqdesk.engines.transport.protocol import ProtocolName, UcciProtocol, UciProtocol
from xqdesk.engines.transport.ucci import (
    format_banmoves,
    format_go,
    format_position,
    format_setoption,
    parse_bestmove,
    parse_info,
    parse_option,
    position_after_last_capture,
)
from xqdesk.engines.transport.uci import UciDialect, UciOption, network_file_problem, pikafish_fen
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.score import Cp

SCRIPTS = Path(__file__).parent / "players" / "uci_scripts"
UCCI_SCRIPT = SCRIPTS / "ucci_engine.py"
UCCI_COMMAND = (sys.executable, str(UCCI_SCRIPT))


def moves(*texts: str) -> list[Move]:
    return [Move.from_iccs(text) for text in texts]


# -- the lines ----------------------------------------------------------------------------------
def test_the_position_starts_after_the_last_capture():
    game = moves("h2e2", "h9g7", "e2e6", "g6g5", "e6e4")  # e2e6 takes the centre pawn
    fen, since = position_after_last_capture(STARTING_FEN, game)
    board = Board()
    for move in game[:3]:
        board.push(move)
    assert fen == board.fen() and since == game[3:]
    assert format_position(STARTING_FEN, game) == f"position fen {board.fen()} moves g6g5 e6e4"
    assert format_position(STARTING_FEN, game[:2]) == f"position fen {STARTING_FEN} moves h2e2 h9g7"
    assert format_position(STARTING_FEN, game[:3]) == f"position fen {board.fen()}"


def test_go_in_milliseconds_or_seconds():
    assert format_go(SearchLimits(movetime=1.0), RED, True) == "go time 1000"
    assert format_go(SearchLimits(movetime=1.9), RED, False) == "go time 1"  # whole seconds, never more
    assert format_go(SearchLimits(depth=7), RED, True) == "go depth 7"
    assert format_go(SearchLimits(nodes=5000), RED, True) == "go nodes 5000"
    assert format_go(SearchLimits(infinite=True, multipv=3), RED, True) == "go infinite"
    clock = SearchLimits(red_time=300.0, black_time=200.0, red_increment=5.0, black_increment=5.0)
    assert format_go(clock, RED, True) == "go time 300000 increment 5000 opptime 200000 oppincrement 5000"
    assert format_go(clock, BLACK, False) == "go time 200 increment 5 opptime 300 oppincrement 5"
    sudden = SearchLimits(red_time=60.0, black_time=60.0)
    assert format_go(sudden, RED, True) == "go time 60000 increment 0 opptime 60000 oppincrement 0"
    capped = SearchLimits(movetime=9.5, red_time=300.0, black_time=300.0)  # a per-move cap under a game clock
    assert format_go(capped, RED, True) == "go time 9500"


def test_options_are_declared_and_set_without_name_and_value():
    spin = parse_option("option hashsize type spin min 16 max 1024 default 16")
    assert spin == UciOption("hashsize", "spin", "16", 16, 1024)
    combo = parse_option("option idle type combo var none var small var medium var large default none")
    assert combo.choices == ("none", "small", "medium", "large") and combo.default == "none"
    assert parse_option("option name Hash type spin default 16 min 1 max 64").name == "Hash"
    assert format_setoption(spin, "64") == "setoption hashsize 64"
    assert format_setoption(parse_option("option usemillisec type check default false"), True) == \
        "setoption usemillisec true"
    assert format_setoption(parse_option("option newgame type button"), None) == "setoption newgame"
    with pytest.raises(ValueError, match="'hashsize' takes 16..1024"):
        format_setoption(spin, "8")


def test_info_scores_have_no_cp_and_bestmove_may_offer():
    info = parse_info("info depth 9 score -35 pv h2e2 h9g7", RED)
    assert info.depth == 9 and info.score is not None and info.score.relative == Cp(-35)
    assert info.pv == tuple(moves("h2e2", "h9g7"))
    assert parse_info("info depth 3 score cp 12", BLACK).score.relative == Cp(12)
    assert parse_info("info time 120 nodes 4000", RED).nodes == 4000
    assert parse_bestmove("nobestmove").move is None
    best = parse_bestmove("bestmove h2e2 ponder h9g7 draw")
    assert (best.move, best.ponder, best.offer) == (Move.from_iccs("h2e2"), Move.from_iccs("h9g7"), "draw")
    assert parse_bestmove("bestmove b2e2 resign").offer == "resign"
    with pytest.raises(EngineProtocolError, match="not a move"):  # the engine's fault, not an input error
        parse_bestmove("bestmove banana")
    assert format_banmoves([]) is None
    assert format_banmoves(moves("h2e2", "b2e2")) == "banmoves h2e2 b2e2"


def banned_vector() -> Board:
    with COURSE_VECTORS.open(encoding="utf-8") as lines:
        vector = next(v for v in map(json.loads, lines) if v["banned"])
    return Board.from_course(vector["board"], vector["side"], [tuple(h) for h in vector["history"]])


def test_the_course_ban_reaches_a_ucci_engine_as_banmoves():
    board = banned_vector()
    protocol = UcciProtocol(millisec=True)
    lines = protocol.position_lines(board.start_fen, board.move_stack)
    assert lines[0].startswith("position fen ")
    assert lines[1] == format_banmoves(board.banned_moves())
    only = SearchLimits(movetime=1.0, searchmoves=tuple(board.legal_moves)[:1])
    go = protocol.go_lines(only, board.start_fen, board.move_stack, board.turn)
    forbidden = set(moves(*go[0].split()[1:]))
    assert forbidden == (set(board.legal_moves) - set(only.searchmoves)) | set(board.banned_moves())
    assert go[1] == "go time 1000"
    retry = protocol.retry_lines(SearchLimits(movetime=1.0), board.start_fen, board.move_stack, board.turn)
    assert retry == [f"position fen {board.fen()}", lines[1], "go time 1000"]
    assert UciProtocol().retry_lines(SearchLimits(), board.start_fen, board.move_stack, board.turn) is None


# -- Pikafish's dialect ---------------------------------------------------------------------------
def test_pikafish_gets_its_letters_a_rule60_counter_of_at_most_119_and_no_impossible_position():
    assert pikafish_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", []) == STARTING_FEN
    quiet = "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 150 90"
    assert pikafish_fen(quiet, []).split()[4] == "119"
    assert pikafish_fen(quiet, moves("f0f1", "e9e8")).split()[4] == "117"
    assert pikafish_fen(quiet, moves("f0f9", "e9f9")).split()[4] == "118"  # counting stops at the capture
    protocol = UciProtocol(UciDialect.PIKAFISH)
    assert protocol.position_lines(quiet, [])[0] == "position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 119 90"
    assert UciProtocol(UciDialect.FAIRY).position_lines(quiet, [])[0] == f"position fen {quiet}"
    with pytest.raises(EnginePositionError, match="refuse impossible positions.*king"):
        pikafish_fen("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", [])


def test_a_missing_network_file_is_named():
    lines = ["info string ERROR: Network evaluation parameters compatible with the engine must be available.",
             "info string ERROR: The network file pikafish.nnue was not loaded successfully."]
    assert "network file is missing" in network_file_problem(lines)
    assert network_file_problem(["info depth 3 score cp 5", "bestmove h2e2"]) is None


def test_an_engine_dying_without_its_network_file_says_so():
    spec = EngineSpec("nonet", (sys.executable, str(SCRIPTS / "no_network_engine.py")), verify=True)
    player = EnginePlayer(spec)
    with pytest.raises(EngineStartError, match="network file is missing.*pikafish.nnue"):
        player.start()


# -- specs ----------------------------------------------------------------------------------------
def test_specs_name_the_protocol(tmp_path):
    assert parse_spec(f"ucci:{UCCI_SCRIPT}:hashsize=8").protocol is ProtocolName.UCCI
    assert parse_spec(f"ucci:{UCCI_SCRIPT}:hashsize=8").options == {"hashsize": "8"}
    assert parse_spec(f"engine:{UCCI_SCRIPT}").protocol is ProtocolName.AUTO
    assert parse_spec(f"uci:{UCCI_SCRIPT}").protocol is ProtocolName.UCI
    path = tmp_path / "engines.json"
    path.write_text('[{"name": "ee", "command": "eleeye", "protocol": "ucci"}, {"name": "x", "command": "x", '
                    '"protocol": "AUTO"}]')
    engines = load_engines_file(path)
    assert engines["ee"].protocol is ProtocolName.UCCI and engines["x"].protocol is ProtocolName.AUTO


# -- a real UCCI engine process -----------------------------------------------------------------------
def test_handshake_options_millisec_and_new_game():
    engine = UciEngine(UCCI_COMMAND, protocol="ucci", options={"hashsize": "8"})
    try:
        identity = engine.start()
        assert identity.name == "Greedy UCCI" and identity.protocol_name == "UCCI"
        assert identity.options["hashsize"].type == "spin" and identity.options["offer"].choices[1] == "draw"
        engine.new_game()
        result = engine.search(STARTING_FEN, [], SearchLimits(movetime=0.5), time.monotonic() + 5)
        assert Board().is_legal(result.move)
        sent = [line.text for line in engine.log() if line.direction.name == "SENT"]
        assert sent[:3] == ["ucci", "setoption usemillisec true", "setoption hashsize 8"]
        assert "setoption newgame" in sent and "go time 500" in sent
        assert any(line.text == "info string time 500 ms" for line in engine.log())
    finally:
        engine.quit()


def test_positions_after_captures_are_accepted_by_a_strict_engine():
    """The engine exits with code 3 if a capture is among the moves it is given."""
    player = EnginePlayer(EngineSpec("greedy-ucci", UCCI_COMMAND, protocol=ProtocolName.UCCI),
                          SearchLimits(movetime=0.2))
    board = Board()
    player.start()
    try:
        player.new_game(RED)
        for _ in range(30):
            reply = player.request_move(board, 5.0)
            assert reply.move is not None and board.is_legal(reply.move), reply
            board.push(reply.move)
            if board.outcome() is not None:
                break
        assert any(board.captured_piece(ply) for ply in range(len(board.move_stack)))
    finally:
        player.close()


def test_a_repetition_answered_by_nobestmove_is_asked_again_without_the_history():
    shuffle = moves("b0c2", "b9c7", "c2b0", "c7b9") * 2
    engine = UciEngine(UCCI_COMMAND, protocol="ucci")
    try:
        engine.start()
        result = engine.search(STARTING_FEN, shuffle, SearchLimits(movetime=0.2), time.monotonic() + 5)
        assert result.asked_again and Board().is_legal(result.move)
        fresh = Board()
        for move in shuffle:
            fresh.push(move)
        sent = [line.text for line in engine.log() if line.direction.name == "SENT"]
        assert sent[-2:] == [f"position fen {fresh.fen()}", "go time 200"]
        assert any(line.text == "nobestmove" for line in engine.log())
    finally:
        engine.quit()


def test_banned_moves_are_never_played():
    player = EnginePlayer(EngineSpec("greedy-ucci", UCCI_COMMAND, protocol=ProtocolName.UCCI),
                          SearchLimits(movetime=0.2))
    player.start()
    try:
        checked = 0
        with COURSE_VECTORS.open(encoding="utf-8") as lines:
            for vector in map(json.loads, lines):
                if not vector["banned"]:
                    continue
                board = Board.from_course(vector["board"], vector["side"], [tuple(h) for h in vector["history"]])
                reply = player.request_move(board, 5.0)
                assert reply.move is not None and board.is_legal(reply.move), (vector["banned"], reply)
                checked += 1
                if checked == 5:
                    break
        assert checked and player.engine is not None
        assert any(line.text.startswith("banmoves ") for line in player.engine.log())
    finally:
        player.close()


@pytest.mark.parametrize("offer, remark", [("draw", "offers a draw"), ("resign", "would resign")])
def test_offers_are_reported_not_taken_for_moves(offer, remark):
    spec = EngineSpec("offering", UCCI_COMMAND, {"offer": offer}, protocol=ProtocolName.UCCI)
    red, black = EnginePlayer(spec, SearchLimits(movetime=0.1)), EnginePlayer(parse_spec("random:Seed=3"))
    red.start()
    black.start()
    try:
        record = play_game(red, black, board=Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), move_time_limit=5.0)
    finally:
        red.close()
        black.close()
    assert record.moves and record.remarks and all(remark in text for _, text in record.remarks)
    assert record.remarks[0][0] == 0
    game = to_game(PlayedGame(ScheduledGame(1, 0, 1), record), "test")
    assert remark in game.mainline()[0].comment


def test_stop_reaches_a_ucci_engine_only_while_it_searches():
    engine = UciEngine(UCCI_COMMAND, protocol="ucci")
    try:
        engine.start()
        engine.stop()  # idle: nothing is sent (the engine would answer a stray nobestmove)
        assert not any(line.text == "stop" for line in engine.log())
        engine.position(STARTING_FEN, [])
        engine.go(SearchLimits(infinite=True))
        time.sleep(0.1)
        engine.stop()
        assert Board().is_legal(engine.wait_bestmove(time.monotonic() + 5).move)
        engine.stop()  # too late: ignored
        result = engine.search(STARTING_FEN, moves("h2e2"), SearchLimits(movetime=0.1), time.monotonic() + 5)
        board = Board()
        board.push(Move.from_iccs("h2e2"))
        assert board.is_legal(result.move)
    finally:
        engine.quit()


def test_detection_tries_uci_then_ucci():
    ucci = UciEngine(UCCI_COMMAND, protocol="auto")
    host = UciEngine(host_command("random"), env=host_environment(), protocol="auto")
    try:
        assert ucci.start().protocol_name == "UCCI"
        assert host.start().protocol_name == "UCI"
    finally:
        ucci.quit()
        host.quit()


def test_a_program_speaking_neither_gets_a_clear_error_quickly(monkeypatch):
    monkeypatch.setattr(uci_engine_module, "DETECT_TIMEOUT", 0.5)
    mute = (sys.executable, "-c", "import sys\nfor line in sys.stdin: pass")
    started = time.monotonic()
    with pytest.raises(EngineStartError, match="speaks neither UCI nor UCCI.*'uci'.*'ucci'"):
        UciEngine(mute, protocol="auto").start()
    assert time.monotonic() - started < 2 * uci_engine_module.DETECT_TIMEOUT + HANG_GUARD  # not left waiting
    # one that ends is told so as soon as it has (a slow start on a busy machine must not pass for silence)
    monkeypatch.setattr(uci_engine_module, "DETECT_TIMEOUT", HANG_GUARD)
    with pytest.raises(EngineStartError, match="speaks neither UCI nor UCCI.*exited with code 0"):
        UciEngine((sys.executable, "-c", "pass"), protocol="auto").start()


def test_a_ucci_engine_spoken_to_in_uci_exits_as_elephanteye_does():
    with pytest.raises((EngineStartError, EngineCrashedError), match="exited with code 0 while .*'uciok'"):
        UciEngine(UCCI_COMMAND, protocol="uci").start()


def test_an_engine_that_dies_says_why_on_stdout_and_the_error_quotes_it():
    """Pikafish ends on a position it refuses with ``info string CRITICAL ERROR: …`` on stdout."""
    script = ("import sys\n"
              "for line in sys.stdin:\n"
              "    word = line.split()[0]\n"
              "    if word == 'uci': print('id name Strict\\nuciok', flush=True)\n"
              "    elif word == 'isready': print('readyok', flush=True)\n"
              "    elif word == 'position':\n"
              "        print('info string CRITICAL ERROR: Command `position` failed. Reason: bad', flush=True)\n"
              "        sys.exit(1)\n")
    engine = UciEngine((sys.executable, "-c", script))
    engine.start()
    with pytest.raises(EngineCrashedError, match="exited with code 1 .*CRITICAL ERROR: Command `position` failed"):
        engine.search(STARTING_FEN, [], SearchLimits(depth=1), time.monotonic() + 5)


def test_an_info_line_with_nodes_and_time_but_no_nps_gets_its_nps():
    """ElephantEye reports ``info time T nodes N`` and never an nps: the engine view's NPS was empty."""
    assert parse_info("info time 120 nodes 4000", RED).nps == 33333
    assert parse_info("info depth 5 time 0 nodes 10", RED).nps is None  # no time yet: no rate
    assert parse_info("info time 100 nodes 4000 nps 7", RED).nps == 7  # the engine's own figure wins
