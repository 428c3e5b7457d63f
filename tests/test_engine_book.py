"""The built-in engine's opening book: a position index, weighted by games and results."""
from __future__ import annotations

import random
import threading

import pytest
from datafiles import GAMES
from test_builtin_host import _Uci

from xqdesk.board import Board
from xqdesk.engines.builtin.engine import BuiltinEngine
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.book import OpeningBook, book_weight, mover_score
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.position_index import MoveStats, PositionIndex

pytestmark = pytest.mark.engines


@pytest.fixture(scope="module")
def book_path(tmp_path_factory):
    """15 master games (no results) and 11 computer games with results."""
    path = tmp_path_factory.mktemp("book") / "book.xqdb"
    with PositionIndex(path) as index:
        index.add([GAMES / "notation_15" / "iccs.pgn", GAMES / "chinese_gb18030"])
    return path


def test_weights_follow_games_and_results():
    won = MoveStats(Move.from_iccs("h2e2"), 10, 8, 0, 2)
    lost = MoveStats(Move.from_iccs("b2e2"), 10, 0, 0, 10)
    unknown = MoveStats(Move.from_iccs("c3c4"), 10, 0, 0, 0)
    assert mover_score(won, True) == pytest.approx(9 / 12)
    assert mover_score(won, False) == pytest.approx(3 / 12)
    assert mover_score(unknown, True) == 0.5
    assert book_weight(won, True) > book_weight(unknown, True) > book_weight(lost, True) > 0
    assert book_weight(MoveStats(Move.from_iccs("c3c4"), 20, 0, 0, 0), True) == 2 * book_weight(unknown, True)


def test_the_book_keeps_moves_with_enough_games_and_draws_by_weight(book_path):
    book = OpeningBook(book_path, min_games=2, rng=random.Random(7))
    candidates = {stats.move.iccs(): weight for stats, weight in book.candidates(Board())}
    assert set(candidates) == {"h2e2", "b2e2", "c3c4", "g3g4", "h0g2"}  # b0c2 etc. were played once
    drawn = [book.choose(Board()).move.iccs() for _ in range(300)]
    assert drawn.count("h2e2") > drawn.count("c3c4") > 0
    assert book.choose(Board(), allowed=[Move.from_iccs("g3g4")]).move.iccs() == "g3g4"
    book.min_games = 14
    assert book.choose(Board()) is None


def test_the_engine_plays_a_book_move_and_says_so(book_path):
    engine = BuiltinEngine()
    apply_option(engine, "BookFile", str(book_path))
    apply_option(engine, "BookMinGames", "4")
    infos = []
    board = Board()
    board.push_iccs("h2e2")
    apply_option(engine, "OwnBook", "false")
    engine.search(board, SearchLimits(depth=1), threading.Event(), infos.append)
    assert not any(info.string for info in infos)
    apply_option(engine, "OwnBook", "true")
    move = engine.search(board, SearchLimits(depth=1), threading.Event(), infos.append)
    assert move is not None and move.iccs() in ("h9g7", "b9c7")  # the replies played 4 or more times
    assert infos[-1].string.startswith(f"book move {move.iccs()}")
    with pytest.raises(EngineOptionError, match="missing.xqdb"):
        apply_option(engine, "BookFile", str(book_path.parent / "missing.xqdb"))


def test_book_move_over_uci(book_path):
    engine = _Uci()
    try:
        engine.send("uci")
        options = engine.read_until("uciok", 30)
        assert any("name OwnBook type check" in line for line in options)
        assert any("name BookFile type string" in line for line in options)
        engine.send("setoption name OwnBook value true")
        engine.send(f"setoption name BookFile value {book_path}")
        engine.send("isready")
        engine.read_until("readyok", 120)
        engine.send("position startpos moves h2e2 h9g7")
        engine.send("go movetime 2000")
        lines = engine.read_until("bestmove", 30)
        assert any(line.startswith("info string book move") for line in lines)
        best = lines[-1].split()[1]
        assert best in {line.split()[4].rstrip(":") for line in lines if "book move" in line}
    finally:
        engine.close()
