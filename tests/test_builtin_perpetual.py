"""The course's perpetual-check ban inside the built-in engine's search, against the core board."""
from __future__ import annotations

import json
import random
import threading

import pytest
from datafiles import COURSE_VECTORS

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.builtin.position import encode_move
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.ruleset import COURSE, STANDARD

pytestmark = pytest.mark.engines


def kernel_banned(engine: BuiltinEngine, board: Board) -> set[Move]:
    """The king-safe moves of ``board`` the kernel's trail test forbids."""
    banned = set()
    candidates = list(board.legal_moves) + board.banned_moves()
    for move in candidates:
        position, offset = engine._position_for(board)
        position.push(encode_move(move.from_square, move.to_square))
        if position.last_move_banned(COURSE.perpetual_check_limit, COURSE.perpetual_check_min_history, offset):
            banned.add(move)
    return banned


def test_the_kernel_bans_exactly_what_the_referee_bans_in_the_course_vectors() -> None:
    engine = BuiltinEngine()
    vectors = [json.loads(line) for line in COURSE_VECTORS.open(encoding="utf-8")]
    checked = 0
    for vector in vectors:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        assert kernel_banned(engine, board) == set(board.banned_moves()), board.fen()
        checked += bool(vector["banned"])
    assert checked >= 30


def test_the_kernel_bans_exactly_what_the_referee_bans_in_chases() -> None:
    """Random endgames where a chariot, a horse or a cannon hunts a bare king: checks come
    often, so the ban's every condition is met and missed many times."""
    engine = BuiltinEngine()
    rng = random.Random(7)
    starts = ["3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/4H4/9/4K4 w - - 0 1",
              "4k4/9/9/9/9/9/9/9/9/3KC4 w - - 0 1", "3k5/4a4/9/9/9/9/9/2H6/4R4/5K3 w - - 0 1"]
    bans_seen = 0
    for start in starts:
        for _game in range(15):
            board = Board(start)
            for _ply in range(40):
                moves = list(board.legal_moves)
                if not moves:
                    break
                banned = set(board.banned_moves())
                assert kernel_banned(engine, board) == banned, board.fen()
                bans_seen += bool(banned)
                checks = [move for move in moves if board.gives_check(move)]
                board.push(rng.choice(checks) if checks and rng.random() < 0.8 else rng.choice(moves))
    assert bans_seen >= 10


def test_the_search_knows_a_perpetual_check_runs_out() -> None:
    """Black, a pawn and a horse down, can check Red's king with its chariot again and again, which
    without the ban is a draw by perpetual check (the standard ruleset, no ban: 0); under the
    course's ban the chariot's fourth check is forbidden, so the chase is lost."""
    fen = "3k5/2P6/1R7/9/8r/9/9/9/8H/5K3 b - - 0 1"
    scores = {}
    for ruleset in (COURSE, STANDARD):
        infos: list[SearchInfo] = []
        BuiltinEngine().search(Board(fen, ruleset=ruleset), SearchLimits(depth=9), threading.Event(), infos.append)
        score = infos[-1].score
        assert score is not None
        scores[ruleset.name] = score.relative.score(mate_score=100000)
    assert scores["standard"] == 0
    assert scores["course"] < -300
