"""Scores with a point of view (no Qt): conversions between views, negation, mates, order."""
from __future__ import annotations

import pytest

from xqdesk.pieces import BLACK, RED
from xqdesk.score import MATE_GIVEN, Cp, Mate, PovScore, Score


def test_a_score_changes_sign_with_the_point_of_view():
    score = PovScore(Cp(35), BLACK)
    assert score.relative == Cp(35) and score.turn == BLACK
    assert score.black() == Cp(35) and score.red() == Cp(-35)
    assert score.pov(BLACK) == Cp(35) and score.pov(RED) == Cp(-35)
    assert PovScore(Cp(-35), RED).red() == Cp(-35)
    assert PovScore(Mate(3), BLACK).red() == Mate(-3)
    assert PovScore(Mate(-2), RED).black() == Mate(2)


def test_pov_scores_are_equal_when_they_say_the_same_for_red():
    assert PovScore(Cp(35), BLACK) == PovScore(Cp(-35), RED)
    assert PovScore(Cp(35), BLACK) != PovScore(Cp(35), RED)
    assert hash(PovScore(Mate(2), RED)) == hash(PovScore(Mate(-2), BLACK))
    assert repr(PovScore(Cp(35), BLACK)) == "PovScore(Cp(centipawns=35), BLACK)"


def test_negation_turns_a_score_to_the_other_side_and_back():
    negated = -Cp(120)
    assert negated == Cp(-120) and -negated == Cp(120)
    assert -Mate(3) == Mate(-3) and -Mate(-3) == Mate(3)
    assert -Mate(0) == MATE_GIVEN and -MATE_GIVEN == Mate(0)
    assert +Cp(5) == Cp(5)


def test_a_side_mated_now_is_seen_as_a_mate_given_by_the_other():
    """An engine in a mated position says ``score mate 0``: the side to move is mated, so the
    other side has mated (the sign of 0 alone cannot say which)."""
    mated_black = PovScore(Mate(0), BLACK)
    assert mated_black.black() == Mate(0) and mated_black.red() == MATE_GIVEN
    assert mated_black.red() > Mate(1) and mated_black.black() < Mate(-1)
    assert str(Mate(0)) == "#-0" and str(MATE_GIVEN) == "#+0"


def test_centipawn_and_mate_values():
    assert Cp(35).score() == 35 and Cp(35).mate() is None and not Cp(35).is_mate()
    assert Mate(3).mate() == 3 and Mate(3).is_mate() and Mate(3).score() is None
    assert Mate(3).score(mate_score=100_000) == 99_997
    assert Mate(-3).score(mate_score=100_000) == -99_997
    assert Mate(0).score(mate_score=100_000) == -100_000
    assert MATE_GIVEN.score(mate_score=100_000) == 100_000 and MATE_GIVEN.mate() == 0
    assert PovScore(Mate(1), RED).is_mate() and not PovScore(Cp(0), RED).is_mate()


def test_scores_sort_from_worst_to_best():
    ordered: list[Score] = [Mate(0), Mate(-1), Mate(-5), Cp(-900), Cp(0), Cp(30), Mate(7), Mate(2), MATE_GIVEN]
    assert sorted(reversed(ordered)) == ordered
    assert Cp(30) > Cp(0) >= Cp(0) and Mate(-5) > Mate(-1) and Mate(1) > Mate(2) > Cp(100_000)
    assert max(Mate(-1), Cp(-5000)) == Cp(-5000)
    with pytest.raises(TypeError):
        _ = Cp(1) < 2  # type: ignore[operator]


def test_scores_print_as_engines_write_them():
    assert str(Cp(35)) == "+0.35" and str(Cp(-120)) == "-1.20" and str(Cp(0)) == "+0.00"
    assert str(Mate(3)) == "#3" and str(Mate(-2)) == "#-2"
    assert str(PovScore(Cp(35), BLACK)) == "+0.35"
