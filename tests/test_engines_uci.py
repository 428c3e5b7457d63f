"""The UCI text layer, on strings."""
from dataclasses import replace

import pytest

from xqdesk.engines.errors import EngineProtocolError
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.transport.uci import (
    UciDialect,
    detect_dialect,
    format_go,
    format_info,
    format_move,
    format_position,
    format_setoption,
    parse_bestmove,
    parse_go,
    parse_id,
    parse_info,
    parse_move,
    parse_option,
    parse_position,
)
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.score import MATE_GIVEN, Cp, Mate, PovScore

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_moves_in_both_dialects():
    move = Move.from_iccs("h2e2")
    assert format_move(move, UciDialect.PIKAFISH) == "h2e2"
    assert format_move(move, UciDialect.FAIRY) == "h3e3"
    assert format_move(Move.from_iccs("a9a8"), UciDialect.FAIRY) == "a10a9"
    assert parse_move("a10a9", UciDialect.FAIRY) == Move.from_iccs("a9a8")
    assert parse_move("h3e3", UciDialect.FAIRY) == move
    assert parse_move("h2e2", UciDialect.PIKAFISH) == move


@pytest.mark.parametrize("text, dialect", [("a10a9", UciDialect.PIKAFISH), ("a0a1", UciDialect.FAIRY),
                                           ("j1j2", UciDialect.PIKAFISH), ("e2", UciDialect.PIKAFISH),
                                           ("", UciDialect.FAIRY), ("h2e2x", UciDialect.PIKAFISH)])
def test_bad_moves_are_protocol_errors(text, dialect):
    with pytest.raises(EngineProtocolError, match="h2e2|rank|not a move"):
        parse_move(text, dialect)


def test_position_and_go():
    moves = [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    assert format_position(START, [], UciDialect.PIKAFISH) == f"position fen {START}"
    assert format_position(START, moves, UciDialect.FAIRY) == f"position fen {START} moves h3e3 h10g8"
    assert format_go(SearchLimits(movetime=0.25), UciDialect.PIKAFISH) == "go movetime 250"
    assert format_go(SearchLimits(depth=5, nodes=1000), UciDialect.PIKAFISH) == "go depth 5 nodes 1000"
    assert format_go(SearchLimits(infinite=True), UciDialect.PIKAFISH) == "go infinite"
    limits = SearchLimits(movetime=1.0, searchmoves=(Move.from_iccs("a0a1"), Move.from_iccs("i0i1")))
    assert format_go(limits, UciDialect.FAIRY) == "go movetime 1000 searchmoves a1a2 i1i2"


def test_setoption_and_id():
    assert format_setoption("Skill Level", "3") == "setoption name Skill Level value 3"
    assert format_setoption("Clear Hash") == "setoption name Clear Hash"
    with pytest.raises(ValueError, match="newline"):
        format_setoption("Hash", "1\nquit")
    assert parse_id("id name Fairy-Stockfish 11.1 LB 64") == ("name", "Fairy-Stockfish 11.1 LB 64")
    with pytest.raises(EngineProtocolError, match="not an id line"):
        parse_id("id")


def test_options_real_lines():
    spin = parse_option("option name Hash type spin default 16 min 1 max 131072")
    assert (spin.name, spin.type, spin.default, spin.min, spin.max) == ("Hash", "spin", "16", 1, 131072)
    assert parse_option("option name Clear Hash type button").name == "Clear Hash"
    combo = parse_option("option name Analysis Contempt type combo default Both var Both var Off var White")
    assert combo.name == "Analysis Contempt" and combo.choices == ("Both", "Off", "White")
    assert parse_option("option name SyzygyPath type string default <empty>").default == ""
    assert combo.validate("off") == "Off"
    with pytest.raises(ValueError, match="'Purple'"):
        combo.validate("Purple")
    with pytest.raises(ValueError, match="1..131072"):
        spin.validate("0")
    assert parse_option("option name Ponder type check default false").validate("TRUE") == "true"
    with pytest.raises(EngineProtocolError, match="without a name"):
        parse_option("option type spin")


def test_dialect_detection():
    fairy = parse_option("option name UCI_Variant type combo default chess var chess var xiangqi")
    chess_only = parse_option("option name UCI_Variant type combo default chess var chess var crazyhouse")
    hash_option = parse_option("option name Hash type spin default 16 min 1 max 1024")
    assert detect_dialect([hash_option, fairy]) is UciDialect.FAIRY
    assert detect_dialect([hash_option]) is UciDialect.PIKAFISH
    assert detect_dialect([chess_only]) is None


def test_info_lines():
    info = parse_info("info depth 12 seldepth 18 multipv 2 score cp -35 nodes 123456 nps 654321 "
                      "hashfull 12 tbhits 0 time 189 pv h3e3 h10g8 zz9", UciDialect.FAIRY, BLACK)
    assert info.depth == 12 and info.seldepth == 18 and info.multipv == 2
    assert info.score is not None and info.score.relative == Cp(-35) and info.score.turn == BLACK
    assert info.score.red() == Cp(35) and info.nodes == 123456 and info.nps == 654321 and info.time_ms == 189
    assert info.pv == (Move.from_iccs("h2e2"), Move.from_iccs("h9g7"))
    assert parse_info("info depth 3 score mate -2 lowerbound nodes 5", UciDialect.PIKAFISH, RED).score \
        == PovScore(Mate(-2), RED)
    assert parse_info("info string error: policy raised", UciDialect.PIKAFISH, RED).string == "error: policy raised"
    with pytest.raises(EngineProtocolError, match="malformed info line"):
        parse_info("info depth twelve", UciDialect.PIKAFISH, RED)
    with pytest.raises(EngineProtocolError, match="unknown score kind"):
        parse_info("info score wdl 1 2 3", UciDialect.PIKAFISH, RED)


def test_bestmove_lines():
    best = parse_bestmove("bestmove a10a9 ponder h1g3", UciDialect.FAIRY)
    assert best.move == Move.from_iccs("a9a8") and best.ponder == Move.from_iccs("h0g2")
    assert parse_bestmove("bestmove (none)", UciDialect.FAIRY).move is None
    assert parse_bestmove("bestmove 0000", UciDialect.PIKAFISH).text == "0000"
    with pytest.raises(EngineProtocolError, match="'e2e'"):
        parse_bestmove("bestmove e2e", UciDialect.PIKAFISH)


def test_position_and_go_commands_parse_back():
    moves = [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    line = format_position(START, moves, UciDialect.PIKAFISH)
    assert parse_position(line, UciDialect.PIKAFISH) == (START, moves)
    assert parse_position("position startpos moves h3e3", UciDialect.FAIRY) == (None, [moves[0]])
    limits = SearchLimits(movetime=0.5, depth=7, searchmoves=tuple(moves))
    assert parse_go(format_go(limits, UciDialect.FAIRY), UciDialect.FAIRY) == limits
    clocks = SearchLimits(red_time=60.0, black_time=42.5, red_increment=5.0, black_increment=5.0)
    assert format_go(clocks, UciDialect.PIKAFISH) == "go wtime 60000 btime 42500 winc 5000 binc 5000"
    assert parse_go(format_go(clocks, UciDialect.PIKAFISH), UciDialect.PIKAFISH) == clocks
    assert parse_go("go wtime 1000 btime 1000 movestogo 3 infinite", UciDialect.PIKAFISH) == SearchLimits(
        infinite=True, red_time=1.0, black_time=1.0)
    with pytest.raises(EngineProtocolError, match="malformed go"):
        parse_go("go depth", UciDialect.PIKAFISH)
    with pytest.raises(EngineProtocolError, match="not a position"):
        parse_position("position nowhere", UciDialect.PIKAFISH)


def test_info_lines_round_trip():
    info = SearchInfo(depth=4, score=PovScore(Mate(-3), BLACK), nodes=99, time_ms=5, pv=(Move.from_iccs("a9a8"),),
                      multipv=2)
    assert format_info(info, UciDialect.FAIRY) == "info depth 4 nodes 99 time 5 multipv 2 score mate -3 pv a10a9"
    # nodes and time without nps read back with the nps they give (19,800 nodes a second)
    assert parse_info(format_info(info, UciDialect.FAIRY), UciDialect.FAIRY, BLACK) == replace(info, nps=19800)
    with pytest.raises(ValueError, match="MateGiven"):
        format_info(SearchInfo(score=PovScore(MATE_GIVEN, RED)), UciDialect.PIKAFISH)
    text = SearchInfo(string="policy returned None\nand more")
    assert format_info(text, UciDialect.PIKAFISH) == "info string policy returned None and more"
