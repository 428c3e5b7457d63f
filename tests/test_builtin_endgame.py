"""The built-in engine's endgame knowledge: a lead that cannot be turned into a win is scaled down."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.builtin import endgame_kernel as ek
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.fen import parse_fen

pytestmark = pytest.mark.engines

RED, BLACK = 1, -1


def _board(fen: str) -> np.ndarray:
    return np.array(parse_fen(fen).codes, np.int8)


@pytest.mark.parametrize("fen, strong, share", [
    # advisors and elephants never cross the river
    ("3k5/9/9/9/9/9/9/4B4/4A4/3AK4 w - - 0 1", RED, ek.NO_ATTACKER_SHARE),
    # a pawn on the enemy's back rank can no longer advance
    ("P2k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", RED, ek.NO_ATTACKER_SHARE),
    # a lone horse does not break two advisors, but beats one advisor and an elephant
    ("3aka3/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1", RED, ek.HELD_SHARE),
    ("3ak4/4a4/4b4/9/9/9/9/4N4/9/4K4 w - - 0 1", RED, ek.HELD_SHARE),
    ("3ak4/9/4b4/9/9/9/9/4N4/9/4K4 w - - 0 1", RED, ek.FULL_SHARE),
    # a lone cannon needs a screen of its own against a bare king, and cannot break defenders
    ("4k4/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1", RED, ek.HELD_SHARE),
    ("4k4/9/9/9/9/9/9/4C4/4A4/4K4 w - - 0 1", RED, ek.FULL_SHARE),
    ("4k4/4a4/9/9/9/9/9/2C6/4A4/4K4 w - - 0 1", RED, ek.HELD_SHARE),
    # a lone pawn: held by two defenders, hard against one, winning against a bare king
    ("3ak4/4a4/9/9/4P4/9/9/9/9/4K4 w - - 0 1", RED, ek.HELD_SHARE),
    ("3ak4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", RED, ek.HARD_SHARE),
    ("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", RED, ek.FULL_SHARE),
    # two attackers, or a chariot, keep the whole lead
    ("3aka3/9/4b4/9/4P4/9/9/4N4/9/4K4 w - - 0 1", RED, ek.FULL_SHARE),
    ("2baka3/9/4b4/9/9/9/9/4R4/9/4K4 w - - 0 1", RED, ek.FULL_SHARE),
    # the same for Black (the board upside down)
    ("4k4/9/4n4/9/9/9/9/9/4A4/3AK4 b - - 0 1", BLACK, ek.HELD_SHARE),
    ("4k4/4a4/9/9/9/9/9/9/9/4K4 b - - 0 1", BLACK, ek.NO_ATTACKER_SHARE),
])
def test_the_winning_share_of_known_endings(fen: str, strong: int, share: int) -> None:
    assert int(ek.winning_share(_board(fen), strong)) == share


def test_a_scaled_score_keeps_its_sign_and_rounds_toward_zero() -> None:
    board = _board("3aka3/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1")  # Red's horse cannot win
    assert int(ek.scale_for_winning_chances(board, 400, RED)) == 400 * ek.HELD_SHARE // ek.FULL_SHARE
    assert int(ek.scale_for_winning_chances(board, -400, BLACK)) == -(400 * ek.HELD_SHARE // ek.FULL_SHARE)
    assert int(ek.scale_for_winning_chances(board, -30, RED)) == -(30 * ek.NO_ATTACKER_SHARE // ek.FULL_SHARE)
    pawns = _board("3ak4/9/9/9/4P4/9/9/4p4/9/4K4 w - - 0 1")  # a pawn each: Black's can still win
    assert int(ek.scale_for_winning_chances(pawns, -30, RED)) == -30
    assert int(ek.scale_for_winning_chances(board, 0, RED)) == 0


def test_the_search_scores_a_horse_against_two_advisors_near_a_draw() -> None:
    infos: list[SearchInfo] = []
    engine = BuiltinEngine()
    board = Board("3aka3/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1")
    engine.search(board, SearchLimits(depth=6), threading.Event(), infos.append)
    score = infos[-1].score
    assert score is not None and score.relative.score() is not None
    assert abs(score.relative.score() or 0) < 100  # a horse is worth about 400 in the middlegame
