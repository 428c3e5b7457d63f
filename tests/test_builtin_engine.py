"""The built-in engine through its in-process protocol: mates, legality, limits, stop, options."""
from __future__ import annotations

import json
import threading
import time

import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.builtin.engine import DEFAULT_OVERHEAD_MS, plan_time
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK
from xqdesk.score import Cp, Mate

pytestmark = pytest.mark.engines

VECTORS = COURSE_VECTORS
MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
MATE_IN_TWO = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"          # the last mover leaves Black no move
HANGING_CHARIOT = "4k4/9/9/9/4r4/9/4P4/4C4/9/3K5 w - - 0 1"  # the cannon takes the chariot over the pawn
OPENING = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4"  # central cannon, six plies


@pytest.fixture(scope="module")
def engine() -> BuiltinEngine:
    return BuiltinEngine()


def _search(engine: BuiltinEngine, board: Board, limits: SearchLimits) -> tuple[Move | None, list[SearchInfo]]:
    infos: list[SearchInfo] = []
    move = engine.search(board, limits, threading.Event(), infos.append)
    return move, infos


def test_mate_in_one_is_found_at_depth_two(engine: BuiltinEngine) -> None:
    board = Board(MATE_IN_ONE)
    move, infos = _search(engine, board, SearchLimits(depth=2))
    assert move == Move.from_iccs("b0b9")
    assert infos[-1].score is not None and infos[-1].score.relative == Mate(1)
    assert infos[-1].score.turn == board.turn
    board.push(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == Termination.NO_LEGAL_MOVES and outcome.winner != BLACK


def test_mate_in_two_is_found_and_its_line_ends_the_game(engine: BuiltinEngine) -> None:
    board = Board(MATE_IN_TWO)
    move, infos = _search(engine, board, SearchLimits(depth=5))
    assert infos[-1].score is not None and infos[-1].score.relative == Mate(2)
    assert infos[-1].pv[0] == move
    for pv_move in infos[-1].pv:
        assert board.is_legal(pv_move)
        board.push(pv_move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == Termination.NO_LEGAL_MOVES and outcome.winner != BLACK


def test_a_hanging_chariot_is_taken(engine: BuiltinEngine) -> None:
    move, infos = _search(engine, Board(HANGING_CHARIOT), SearchLimits(depth=4))
    assert move == Move.from_iccs("e2e5")
    assert infos[-1].score is not None and infos[-1].score.relative > Cp(500)


def test_it_never_plays_a_move_the_perpetual_check_rule_bans(engine: BuiltinEngine) -> None:
    with VECTORS.open(encoding="utf-8") as lines:
        vectors = [json.loads(line) for line in lines]
    banned_cases = [v for v in vectors if v["banned"]]
    assert banned_cases
    for vector in banned_cases:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        move, _infos = _search(engine, board, SearchLimits(depth=3))
        banned = {Move.from_course(action) for action in vector["banned"]}
        assert move is not None and move in board.legal_moves and move not in banned, board.fen()


def test_every_move_of_a_fast_game_is_legal(engine: BuiltinEngine) -> None:
    board = Board()
    engine.new_game()
    for _ply in range(60):
        if board.outcome() is not None:
            break
        move, _infos = _search(engine, board, SearchLimits(depth=2))
        assert move is not None and board.is_legal(move), board.fen()
        board.push(move)
    assert len(board.move_stack) >= 10


def test_search_moves_restrict_the_root(engine: BuiltinEngine) -> None:
    board = Board()
    only = (Move.from_iccs("a3a4"), Move.from_iccs("i3i4"))
    move, infos = _search(engine, board, SearchLimits(depth=3, searchmoves=only))
    assert move in only
    assert all(info.pv[0] in only for info in infos)


def test_no_root_move_gives_none(engine: BuiltinEngine) -> None:
    board = Board(MATE_IN_ONE)
    board.push(Move.from_iccs("b0b9"))
    assert _search(engine, board, SearchLimits(depth=3))[0] is None


def test_info_lines_report_every_iteration(engine: BuiltinEngine) -> None:
    _move, infos = _search(engine, Board(), SearchLimits(depth=5))
    assert [info.depth for info in infos] == [1, 2, 3, 4, 5]
    for info in infos:
        assert info.seldepth >= info.depth and info.nodes > 0 and info.nps is not None and info.time_ms is not None
        assert info.score is not None and info.pv


def test_multipv_reports_distinct_best_moves(engine: BuiltinEngine) -> None:
    _move, infos = _search(engine, Board(), SearchLimits(depth=3, multipv=3))
    last = [info for info in infos if info.depth == 3]
    assert [info.multipv for info in last] == [1, 2, 3]
    assert len({info.pv[0] for info in last}) == 3
    scores = [info.score.relative for info in last if info.score is not None]
    assert len(scores) == 3 and scores[0] >= scores[1] >= scores[2]


def test_level_one_searches_one_ply(engine: BuiltinEngine) -> None:
    apply_option(engine, "Level", "1")
    try:
        _move, infos = _search(engine, Board(), SearchLimits(movetime=5.0))
    finally:
        apply_option(engine, "Level", "20")
    assert max(info.depth for info in infos) == 1


def test_a_timed_search_returns_before_its_movetime(engine: BuiltinEngine) -> None:
    started = time.perf_counter()
    move, infos = _search(engine, Board(), SearchLimits(movetime=1.0))
    elapsed = time.perf_counter() - started
    assert move is not None and infos
    assert elapsed < HANG_GUARD  # it ends by itself (the plan stops at 0.8 s; bench/ measures how soon)


def test_stop_ends_an_infinite_search(engine: BuiltinEngine) -> None:
    stop = threading.Event()
    result: list[Move | None] = []
    infos: list[SearchInfo] = []
    worker = threading.Thread(target=lambda: result.append(
        engine.search(Board(), SearchLimits(infinite=True), stop, infos.append)))
    worker.start()
    time.sleep(0.5)
    assert worker.is_alive()
    stop.set()
    worker.join(timeout=HANG_GUARD)
    assert not worker.is_alive()
    assert result and result[0] is not None and infos


def test_time_plan_keeps_a_margin() -> None:
    plan = plan_time(SearchLimits(movetime=10.0), 10.0, 0.1)
    assert plan.hard is not None and plan.hard <= 9.7 and plan.soft == plan.hard  # a move time is used up
    assert plan_time(SearchLimits(movetime=1.0), 10.0, 0.1).hard == pytest.approx(0.88)
    assert plan.next_iteration_deadline(unstable=False, settled=True) == plan.hard
    default = plan_time(SearchLimits(), 10.0, 0.1)
    assert default.hard == plan.hard and default.soft is not None and default.soft < default.hard
    assert plan_time(SearchLimits(depth=5), 10.0, 0.1).hard is None
    assert plan_time(SearchLimits(infinite=True), 10.0, 0.1).hard is None


def test_a_move_time_is_searched_to_a_small_margin_by_default() -> None:
    # The referee already keeps back its own slack: the default overhead must not throw away a
    # third of a short move time (it once stopped at 0.18 s of 0.3 s and 0.85 s of 1 s, then at
    # 0.06 s of 0.1 s), yet leave the stop and the trip to the referee 20 ms at least.
    overhead = DEFAULT_OVERHEAD_MS / 1000
    for movetime, least in ((0.1, 0.075), (0.3, 0.27), (1.0, 0.96), (9.5, 9.2)):
        hard = plan_time(SearchLimits(movetime=movetime), 10.0, overhead).hard
        assert hard is not None and least <= hard <= movetime - 0.02, movetime


def test_under_a_game_clock_the_soft_deadline_moves_with_the_search() -> None:
    plan = plan_time(SearchLimits(red_time=60.0, black_time=60.0), 10.0, 0.1)
    assert plan.soft is not None and plan.hard is not None and plan.soft < plan.hard <= 30.0
    unstable = plan.next_iteration_deadline(unstable=True, settled=False)
    settled = plan.next_iteration_deadline(unstable=False, settled=True)
    assert unstable is not None and settled is not None
    assert settled < plan.soft < unstable <= plan.hard


def test_options_are_declared_once_and_checked_by_their_declaration(engine: BuiltinEngine) -> None:
    names = [option.name for option in engine.uci_options()]
    assert {"Hash", "Level", "MultiPV", "Clear Hash"} <= set(names)
    with pytest.raises(EngineOptionError, match=r"has no option 'Skill' \(it has: Hash, Level"):
        apply_option(engine, "Skill", "3")
    with pytest.raises(EngineOptionError, match=r"option 'Hash' takes 1\.\.1024, got 'abc'"):
        apply_option(engine, "Hash", "abc")
    with pytest.raises(EngineOptionError, match=r"option 'Level' takes 1\.\.20, got '0'"):
        apply_option(engine, "Level", "0")
    with pytest.raises(EngineOptionError, match="'Clear Hash' takes no value"):
        apply_option(engine, "Clear Hash", "now")
    with pytest.raises(EngineOptionError, match="needs a checked integer, got '16'"):
        engine.set_option("Hash", "16")  # unchecked text never reaches the engine's state
    apply_option(engine, "hash", " 16 ")
    apply_option(engine, "Clear Hash", None)
    apply_option(engine, "Hash", "64")


def test_search_tunables_are_set_by_name_checked_and_change_the_tree() -> None:
    """``Tunables`` reaches the compiled search at run time: the shipped values give the shipped
    tree, no pruning at the frontier gives a larger one, and a bad item is refused by name."""
    board = Board(OPENING)
    engine = BuiltinEngine()

    def nodes_to_depth(tunables: str) -> int:
        apply_option(engine, "Tunables", tunables)
        apply_option(engine, "Clear Hash", None)
        _move, infos = _search(engine, Board(board.fen()), SearchLimits(depth=6))
        return infos[-1].nodes

    shipped = nodes_to_depth("")
    assert nodes_to_depth("FUTILITY_MARGIN=130, LATE_MOVE_BASE=6") == shipped  # the shipped values, named
    assert nodes_to_depth("FUTILITY_DEPTH=0 LATE_MOVE_PRUNING_DEPTH=0 REVERSE_FUTILITY_DEPTH=0") > shipped
    assert nodes_to_depth("") == shipped
    with pytest.raises(EngineOptionError, match=r"Tunables: no search tunable 'FUTILITY'"):
        apply_option(engine, "Tunables", "FUTILITY=3")
    with pytest.raises(EngineOptionError, match=r"Tunables: FUTILITY_DEPTH=9 is outside its range 0\.\.4"):
        apply_option(engine, "Tunables", "FUTILITY_DEPTH=9")
    with pytest.raises(EngineOptionError, match=r"Tunables: 'LMR_MIN_DEPTH' is not NAME=VALUE"):
        apply_option(engine, "Tunables", "LMR_MIN_DEPTH")
    with pytest.raises(EngineOptionError, match=r"Tunables: 'LMR_MIN_DEPTH=x': 'x' is not an integer"):
        apply_option(engine, "Tunables", "LMR_MIN_DEPTH=x")
    assert nodes_to_depth("") == shipped  # a refused value leaves the search as it was


def test_the_last_report_counts_the_nodes_of_the_iteration_a_stop_cut_short(engine: BuiltinEngine) -> None:
    """A node limit ends the search inside an iteration: the last report still says how many
    nodes were searched (the limit, give or take the kernel's polling interval), as UCI GUIs show."""
    move, infos = _search(engine, Board(OPENING), SearchLimits(nodes=60_000))
    assert move is not None
    assert 60_000 <= infos[-1].nodes <= 60_000 + 1024
    assert infos[-2].nodes < infos[-1].nodes and infos[-1].depth == infos[-2].depth
    assert infos[-1].pv == infos[-2].pv and infos[-1].nps is not None and infos[-1].nps > 0
