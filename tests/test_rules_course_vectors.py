"""The course referee's own verdicts: our legal moves must equal its, position by position."""
import json

import pytest
from datafiles import COURSE_VECTORS

from xqdesk import Board
from xqdesk.compat import get_legal_actions
from xqdesk.move import Move

VECTORS = COURSE_VECTORS


def _vectors():
    with VECTORS.open() as handle:
        return [json.loads(line) for line in handle]


@pytest.fixture(scope="module")
def vectors():
    return _vectors()


def test_vector_file_is_complete(vectors):
    assert len(vectors) == 1246
    assert sum(1 for v in vectors if v["banned"]) == 32


def test_compat_get_legal_actions_matches_referee(vectors):
    mismatches = []
    for index, vector in enumerate(vectors):
        actions = get_legal_actions(vector["board"], vector["side"], vector["history"])
        assert all(isinstance(a, tuple) and len(a) == 4 for a in actions)
        if sorted(actions) != sorted(tuple(a) for a in vector["legal"]):
            mismatches.append(index)
    assert mismatches == []


def test_core_board_matches_referee_including_banned_moves(vectors):
    for vector in vectors:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        legal = sorted(move.to_course() for move in board.legal_moves)
        assert legal == sorted(tuple(a) for a in vector["legal"]), board.fen()
        banned = sorted(move.to_course() for move in board.banned_moves())
        assert banned == sorted(tuple(a) for a in vector["banned"]), board.fen()
        for action in vector["banned"]:
            assert Move.from_course(action) not in board.legal_moves
            assert "perpetual check" in board.why_illegal(Move.from_course(action))


def test_get_legal_actions_leaves_its_arguments_alone(vectors):
    vector = next(v for v in vectors if v["banned"])
    board = tuple(list(row) for row in vector["board"])
    history = [tuple(entry) for entry in vector["history"]]
    before = (repr(board), repr(history))
    get_legal_actions(board, vector["side"], history)
    assert (repr(board), repr(history)) == before


def test_history_replay_reconstructs_the_course_history(vectors):
    vector = max(vectors, key=lambda v: len(v["history"]))
    board = Board.from_course(vector["board"], vector["side"], vector["history"])
    assert board.course_history() == [tuple(entry) for entry in vector["history"]]
    assert board.to_course_board() == tuple(vector["board"])
    root = board.root()
    assert root.fen().split()[0] == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
