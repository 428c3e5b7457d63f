"""The SPRT (fishtest's generalised LLR, trinomial and pentanomial) and the LOS."""
import math

import pytest

from xqdesk.engines.contests.sprt import (
    PairedResults,
    Sprt,
    SprtModel,
    Verdict,
    likelihood_of_superiority,
    log_likelihood_ratio,
)


@pytest.mark.parametrize("counts, expected", [
    # Checked against an independent solution of the same maximum-likelihood problem (scipy's brentq).
    ([10, 20, 15], 0.2259548333523),
    ([100, 240, 130], 1.3687910350200),
    ([0, 0, 30], 0.8510439712209),
    ([3, 5, 7, 5, 3], -0.0257611709520),
    ([0, 0, 0, 0, 12], 0.3404738072187),
])
def test_llr_of_known_results(counts, expected):
    assert log_likelihood_ratio(counts, 0, 10) == pytest.approx(expected, abs=1e-9)


def test_bounds_and_verdicts():
    test = Sprt(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert test.lower_bound == pytest.approx(math.log(0.05 / 0.95))
    assert test.upper_bound == pytest.approx(-test.lower_bound)
    assert test.status([0, 0, 0]).verdict is Verdict.CONTINUE and test.status([0, 0, 0]).llr == 0.0
    assert test.status([0, 0, 200]).verdict is Verdict.H1
    assert test.status([200, 0, 0]).verdict is Verdict.H0
    status = test.status([10, 20, 15])
    assert status.model is SprtModel.TRINOMIAL and status.verdict is Verdict.CONTINUE
    assert str(status) == "SPRT: llr 0.226 (7.7%), lbound -2.94, ubound 2.94"
    assert test.status([0, 0, 0, 0, 120]).model is SprtModel.PENTANOMIAL
    assert str(test.status([0, 0, 0, 0, 120])).endswith("H1 was accepted (passed)")


@pytest.mark.parametrize("arguments, message", [
    ({"elo0": 5, "elo1": 0}, "elo0 must be below elo1"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.0}, "alpha must be between 0 and 0.5"),
    ({"elo0": 0, "elo1": 5, "beta": 0.7}, "beta must be between 0 and 0.5"),
])
def test_bad_tests_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        Sprt(**arguments)


def test_pairs_count_once_both_games_are_in():
    results = PairedResults()
    results.add(1.0, pair=0)
    assert results.pentanomial == [0, 0, 0, 0, 0] and results.trinomial == [0, 0, 1]
    results.add(0.5, pair=1)
    results.add(0.5, pair=0)   # pair 0: win + draw = 1.5
    results.add(0.0, pair=1)   # pair 1: draw + loss = 0.5
    results.add(1.0)           # no pair: counted game by game only
    assert results.pentanomial == [0, 1, 0, 1, 0] and results.trinomial == [1, 2, 2]
    with pytest.raises(ValueError):
        results.add(0.7)


def test_likelihood_of_superiority():
    assert likelihood_of_superiority(0, 0) is None
    assert likelihood_of_superiority(7, 7) == 0.5
    assert likelihood_of_superiority(10, 0) == pytest.approx(0.999217, abs=1e-6)
    assert likelihood_of_superiority(3, 5) < 0.5
