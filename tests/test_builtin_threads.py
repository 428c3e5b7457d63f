"""The built-in engine's ``Threads`` option (lazy SMP): same answers, prompt stops, legal games."""
from __future__ import annotations

import json
import threading
import time
from typing import Iterator

import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.builtin.position import Position, encode_move
from xqdesk.engines.builtin.searcher import Searcher
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.fen import STARTING_FEN, parse_fen
from xqdesk.move import Move
from xqdesk.score import Cp, Mate

pytestmark = pytest.mark.engines

MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
MATE_IN_TWO = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"
HANGING_CHARIOT = "4k4/9/9/9/4r4/9/4P4/4C4/9/3K5 w - - 0 1"
MIDDLEGAME = "2bakab2/5r3/4c1n2/p1p1n1pRp/9/2P1p1P2/Pr2P3P/B2RN1N2/4A4/2C1KAB2 w - - 5 16"


@pytest.fixture(scope="module")
def engine() -> Iterator[BuiltinEngine]:
    engine = BuiltinEngine()
    apply_option(engine, "Threads", "2")
    yield engine
    apply_option(engine, "Threads", "1")


def _search(engine: BuiltinEngine, board: Board, limits: SearchLimits,
            stop: threading.Event | None = None) -> tuple[Move | None, list[SearchInfo]]:
    infos: list[SearchInfo] = []
    move = engine.search(board, limits, stop or threading.Event(), infos.append)
    return move, infos


def _helpers_alive() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("builtin-search-")]


@pytest.mark.parametrize("threads", [1, 2])
def test_the_same_mates_are_found_with_one_or_two_threads(threads: int) -> None:
    engine = BuiltinEngine()
    apply_option(engine, "Threads", str(threads))
    move, infos = _search(engine, Board(MATE_IN_ONE), SearchLimits(depth=2))
    assert move == Move.from_iccs("b0b9") and infos[-1].score is not None
    assert infos[-1].score.relative == Mate(1)
    board = Board(MATE_IN_TWO)
    move, infos = _search(engine, board, SearchLimits(depth=5))
    assert infos[-1].score is not None and infos[-1].score.relative == Mate(2) and infos[-1].pv[0] == move
    for pv_move in infos[-1].pv:
        assert board.is_legal(pv_move)
        board.push(pv_move)
    assert board.outcome() is not None
    move, infos = _search(engine, Board(HANGING_CHARIOT), SearchLimits(depth=4))
    assert move == Move.from_iccs("e2e5") and infos[-1].score is not None and infos[-1].score.relative > Cp(500)
    assert not _helpers_alive()


def test_a_timed_search_returns_in_time_and_leaves_no_thread(engine: BuiltinEngine) -> None:
    started = time.perf_counter()
    move, infos = _search(engine, Board(MIDDLEGAME), SearchLimits(movetime=1.0))
    elapsed = time.perf_counter() - started
    assert move is not None and infos
    assert elapsed < HANG_GUARD  # it ends by itself (the plan stops at 0.8 s; bench/ measures how soon)
    assert not _helpers_alive()


def test_stop_ends_an_infinite_search_of_every_thread(engine: BuiltinEngine) -> None:
    stop = threading.Event()
    result: list[Move | None] = []
    worker = threading.Thread(target=lambda: result.append(_search(engine, Board(), SearchLimits(infinite=True),
                                                                    stop)[0]))
    worker.start()
    time.sleep(0.5)
    assert worker.is_alive() and len(_helpers_alive()) == 1
    stop.set()
    worker.join(timeout=HANG_GUARD)
    assert not worker.is_alive()
    assert result and result[0] is not None
    assert not _helpers_alive()


def test_a_node_limit_counts_the_nodes_of_every_thread(engine: BuiltinEngine) -> None:
    _move, infos = _search(engine, Board(MIDDLEGAME), SearchLimits(nodes=30_000))
    assert 0 < (infos[-1].nodes or 0) <= 30_000 + 2 * 1024  # each thread polls its share every 1024 nodes


def test_reported_nodes_are_the_sum_over_threads() -> None:
    searcher = Searcher(4)
    fields = parse_fen(STARTING_FEN)
    position = Position(fields.codes, fields.turn)
    root = position.legal_moves()
    before = position.codes()
    lines = list(searcher.iterate(position, root, max_depth=6, threads=2))
    workers = searcher._workers[:2]
    assert workers[1].nodes > 0  # the helper searched
    # the main thread's nodes and the helper's so far (it runs until it notices the stop)
    assert workers[0].nodes < lines[-1][0].nodes <= sum(worker.nodes for worker in workers)
    assert position.codes() == before and position.height == 0  # the helpers had their own copies
    assert not _helpers_alive()


def test_closing_the_search_early_stops_the_helpers() -> None:
    searcher = Searcher(4)
    fields = parse_fen(STARTING_FEN)
    position = Position(fields.codes, fields.turn)
    iterations = searcher.iterate(position, position.legal_moves(), threads=3)
    first = next(iterations)
    assert first[0].depth == 1 and len(_helpers_alive()) == 2
    iterations.close()
    assert not _helpers_alive()


def test_every_move_of_a_fast_game_is_legal(engine: BuiltinEngine) -> None:
    board = Board()
    engine.new_game()
    for _ply in range(40):
        if board.outcome() is not None:
            break
        move, _infos = _search(engine, board, SearchLimits(depth=4))
        assert move is not None and board.is_legal(move), board.fen()
        board.push(move)
    assert len(board.move_stack) >= 10


def test_the_perpetual_check_ban_holds_with_two_threads(engine: BuiltinEngine) -> None:
    with COURSE_VECTORS.open(encoding="utf-8") as lines:
        vectors = [json.loads(line) for line in lines]
    for vector in [v for v in vectors if v["banned"]]:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        move, _infos = _search(engine, board, SearchLimits(depth=4))
        banned = {Move.from_course(action) for action in vector["banned"]}
        assert move is not None and move in board.legal_moves and move not in banned, board.fen()


def test_multipv_works_with_two_threads(engine: BuiltinEngine) -> None:
    _move, infos = _search(engine, Board(), SearchLimits(depth=4, multipv=3))
    last = [info for info in infos if info.depth == 4]
    # The helper's nodes counted after the last iteration come as one more report of the best line.
    iteration, after = last[:3], last[3:]
    assert [info.multipv for info in iteration] == [1, 2, 3]
    assert len({info.pv[0] for info in iteration}) == 3
    assert len(after) <= 1 and all(info.multipv == 1 and info.pv == iteration[0].pv for info in after)


def test_the_threads_option_is_declared_and_checked() -> None:
    engine = BuiltinEngine()
    threads = [option for option in engine.uci_options() if option.name == "Threads"]
    assert len(threads) == 1 and threads[0].default == "1" and threads[0].min == 1 and threads[0].max == 8
    with pytest.raises(EngineOptionError, match=r"option 'Threads' takes 1\.\.8, got '0'"):
        apply_option(engine, "Threads", "0")
    with pytest.raises(EngineOptionError, match=r"option 'Threads' takes 1\.\.8, got '9'"):
        apply_option(engine, "Threads", "9")
    apply_option(engine, "threads", " 3 ")
    move, _infos = _search(engine, Board(), SearchLimits(depth=3))
    assert move is not None


def test_a_searcher_refuses_no_thread() -> None:
    searcher = Searcher(1)
    fields = parse_fen(STARTING_FEN)
    position = Position(fields.codes, fields.turn)
    with pytest.raises(Exception, match="at least one thread, got 0"):
        next(searcher.iterate(position, [encode_move(0, 9)], threads=0))
