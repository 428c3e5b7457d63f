"""Engines and tablebases: the built-in engine's ``TablebasePath`` and the ``egtb:DIR`` engine."""
import threading
import time

import pytest

from xqdesk.board import Board
from xqdesk.egtb import Tablebase
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.errors import EngineOptionError, EngineStartError
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.hosted.tablebase import TablebaseEngine
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import parse_spec
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.score import Mate

pytestmark = pytest.mark.engines

WON = "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w"
"""Red mates in 5 plies, only by h8h9."""
LOST = "3a1k3/9/9/9/9/9/9/3K5/9/8R b"
"""Black is mated in 6 plies whatever it does."""


def _search(engine, fen, limits=SearchLimits(depth=3)):
    infos = []
    move = engine.search(Board(fen), limits, threading.Event(), infos.append)
    return move, infos


def test_the_builtin_engine_plays_the_fastest_win_and_the_longest_defence(egtb_dir):
    engine = BuiltinEngine()
    apply_option(engine, "TablebasePath", str(egtb_dir))
    move, infos = _search(engine, WON)
    assert move.iccs() == "h8h9" and infos[-1].score.relative == Mate(3)
    assert [m.iccs() for m in infos[-1].pv][:1] == ["h8h9"] and len(infos[-1].pv) == 5
    tablebase = Tablebase(egtb_dir)
    board = Board(LOST)
    move, infos = _search(engine, LOST)
    assert infos[-1].score.relative == Mate(-3)
    longest = max(value.dtm for _, value in tablebase.best_moves(board))
    assert dict((m, v.dtm) for m, v in tablebase.best_moves(board))[move] == longest


def test_in_a_drawn_table_position_the_builtin_engine_keeps_the_draw(egtb_dir):
    # Black's advisor can take the horse; every other move lets the horse win.
    fen = "9/3kN4/5a3/9/9/9/9/9/4K4/9 b"
    tablebase = Tablebase(egtb_dir)
    values = {m.iccs(): v for m, v in tablebase.best_moves(Board(fen))}
    assert values["f7e8"].is_draw and sum(v.is_draw for v in values.values()) == 1
    engine = BuiltinEngine()
    apply_option(engine, "TablebasePath", str(egtb_dir))
    move, _ = _search(engine, fen, SearchLimits(depth=1))
    assert move.iccs() == "f7e8"
    with pytest.raises(EngineOptionError, match="is not a directory"):
        apply_option(engine, "TablebasePath", str(egtb_dir / "missing"))


def test_positions_without_tables_are_searched_as_usual(egtb_dir):
    engine = BuiltinEngine()
    apply_option(engine, "TablebasePath", str(egtb_dir))
    move, infos = _search(engine, "3k5/9/9/9/9/9/9/9/RR7/4K4 w", SearchLimits(depth=2))
    assert move is not None and all(info.depth <= 2 for info in infos if info.depth)


def test_the_tablebase_engine_says_which_table_is_missing(egtb_dir):
    engine = TablebaseEngine(str(egtb_dir))
    move, infos = _search(engine, "3k5/9/9/9/9/9/9/9/RR7/4K4 w")
    assert move is None and "no table KRRK" in infos[-1].string
    apply_option(engine, "MultiPV", 3)
    move, infos = _search(engine, WON)
    assert move.iccs() == "h8h9" and [info.multipv for info in infos] == [1, 2, 3]
    assert [info.score.relative for info in infos] == [Mate(3), Mate(5), Mate(5)]


def test_an_egtb_spec_runs_the_tables_as_a_uci_engine(egtb_dir):
    with pytest.raises(EngineStartError, match="no such tablebase directory"):
        parse_spec(f"egtb:{egtb_dir / 'missing'}")
    spec = parse_spec(f"egtb:{egtb_dir}")
    engine = UciEngine(spec.command, env=spec.env)
    try:
        identity = engine.start()
        assert identity.name == "xqdesk tablebase" and "TablebasePath" in identity.options
        infos = []
        result = engine.search(Board(LOST).fen(), [], SearchLimits(depth=1), time.monotonic() + 60, infos.append)
        assert result.move is not None and infos[-1].score.relative == Mate(-3)
    finally:
        engine.quit()


def _random_placements(tablebase, signature_name, flip, count, seed):
    """Boards (square codes) of legal positions of a table's material, colours swapped when ``flip``."""
    import random

    from xqdesk.egtb import Signature
    from xqdesk.fen import format_fen

    rng = random.Random(seed)
    signature = Signature.parse(signature_name)
    red, black = (signature.black, signature.red) if flip else (signature.red, signature.black)
    found = []
    while len(found) < count:
        codes = [0] * 90
        codes[rng.choice([3, 4, 5, 12, 13, 14, 21, 22, 23])] = 7
        codes[rng.choice([66, 67, 68, 75, 76, 77, 84, 85, 86])] = -7
        for sign, pieces in ((1, red), (-1, black)):
            for piece in pieces:
                free = [sq for sq in range(90) if codes[sq] == 0]
                codes[rng.choice(free)] = sign * piece
        for red_to_move in (True, False):
            fen = format_fen(codes, red_to_move, 0, 1)
            try:
                board = Board(fen)
                value = tablebase.probe(board)
            except ValueError:
                continue
            found.append((codes, red_to_move, value))
    return found[:count]


def test_the_tables_packed_for_a_search_give_the_tables_own_values(egtb_dir):
    import numpy as np

    from xqdesk.engines.builtin import table_kernel
    from xqdesk.engines.builtin.tree_tables import pack_tree_tables

    tablebase = Tablebase(egtb_dir)
    # A horse and two advisors each. Smaller balances with a table include KHKAA and KHKA both
    # ways round (Black's horse against Red's advisor is KHKA upside down).
    root = [0] * 90
    root[4], root[3], root[5], root[40] = 7, 2, 2, 4
    root[85], root[84], root[86], root[67] = -7, -2, -2, -4
    tables = pack_tree_tables(tablebase, root)
    assert tables.signatures >= 6
    mate = 31000
    checked = 0
    for name, flip in (("KHKAA", False), ("KHKA", False), ("KHKA", True), ("KHKAA", True)):
        for codes, red_to_move, value in _random_placements(tablebase, name, flip, 40, len(name) + flip):
            found, score = table_kernel.table_score(np.array(codes, np.int8), 1 if red_to_move else -1, 3, tables.meta,
                                                    tables.positions, tables.values, 120, mate)
            assert found
            if value.is_draw or value.dtm >= 120:
                assert score == 0
            else:
                assert score == (mate - 3 - value.dtm if value.is_win else -(mate - 3 - value.dtm))
            checked += 1
    assert checked == 160


def test_the_builtin_engine_probes_the_tables_inside_its_search(egtb_dir):
    # Red's chariot takes the horse: chariot against advisor (KRKA), won, but too far from mate for
    # a depth-3 search; the root's own balance (KRKHA) has no table.
    fen = "3ak4/9/4n4/9/9/9/9/9/4R4/3K5 w"
    engine = BuiltinEngine()
    move, infos = _search(engine, fen, SearchLimits(depth=3))
    assert infos[-1].score.relative.mate() is None
    apply_option(engine, "TablebasePath", str(egtb_dir))
    engine.new_game()
    move, infos = _search(engine, fen, SearchLimits(depth=3))
    after = Board(fen)
    after.push(move)
    assert move.iccs() == "e1e7" and Tablebase(egtb_dir).probe(after).is_loss
    assert infos[-1].score.relative.mate() is not None and infos[-1].score.relative.mate() > 0
