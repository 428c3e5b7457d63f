"""Match arithmetic: schedules, tallies, standings, Elo with its interval, performance rating."""
import math

import pytest

from xqdesk.engines.contests.elo import elo_difference, elo_from_score, performance_rating
from xqdesk.engines.contests.match import PlayedGame, ScheduledGame, alternating_schedule, tally
from xqdesk.engines.contests.tournament import format_standings, round_robin_schedule, standings
from xqdesk.engines.play.referee import GameRecord
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED

pytestmark = pytest.mark.engines


def played(number: int, red: int, black: int, outcome: Outcome) -> PlayedGame:
    record = GameRecord.unplayed("r", "b", outcome)
    return PlayedGame(ScheduledGame(number, red, black), record)


def test_alternating_and_round_robin_schedules():
    assert [(g.number, g.red, g.black) for g in alternating_schedule(3)] == [(1, 0, 1), (2, 1, 0), (3, 0, 1)]
    schedule = round_robin_schedule(3, 2)
    assert [(g.red, g.black) for g in schedule] == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    assert [g.number for g in schedule] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="at least two contestants, got 1"):
        round_robin_schedule(1, 2)


def test_tally_and_standings():
    games = [played(1, 0, 1, Outcome.no_legal_moves(BLACK)),   # 0 wins as Red
             played(2, 1, 0, Outcome.timeout(RED)),             # 0 wins as Black
             played(3, 0, 2, Outcome.capture_free_draw()),
             played(4, 2, 1, Outcome.illegal_move(RED, "x")),   # 1 wins as Black
             played(5, 1, 2, Outcome.aborted())]                # not counted
    assert str(tally(games, 0)) == "+2 =1 -0"
    assert tally(games, 1).points == 1.0 and tally(games, 2).points == 0.5
    table = standings(["zero", "one", "two"], games)
    assert [(row.rank, row.name) for row in table] == [(1, "zero"), (2, "one"), (3, "two")]
    text = format_standings(table).splitlines()
    assert text[1].split()[:8] == ["1", "zero", "3", "2.5", "2", "1", "0", "83.3%"]
    assert text[1].split()[8:] == [f"{elo_from_score(2.5 / 3):+.0f}", "inf"]  # the upper bound is infinite
    one = elo_difference(1, 0, 2)
    assert one.lower is None and text[2].split()[8:] == [f"{one.difference:+.0f}", "inf"]
    assert text[-1].startswith("Elo: against the field")


def test_elo_difference_and_interval():
    assert elo_from_score(0.5) == 0.0
    assert math.isclose(elo_from_score(0.75), 190.85, abs_tol=0.01)
    even = elo_difference(3, 4, 3)
    assert even.difference == 0.0 and math.isclose(even.lower, -even.upper) and even.upper > 100
    strong = elo_difference(60, 20, 20)
    assert strong.lower < strong.difference < strong.upper
    assert math.isclose(strong.difference, elo_from_score(0.7))
    assert elo_difference(5, 0, 0).difference is None and elo_difference(0, 0, 0).difference is None
    assert "95% interval" in str(strong)


def test_performance_rating_is_the_seed_formula():
    assert performance_rating(1500, 6, 2, 10) == 1660
    assert performance_rating(1200, 0, 4, 4) == 800
    with pytest.raises(ValueError, match="at least one game"):
        performance_rating(1500, 0, 0, 0)


def test_round_robin_ratings_fit_every_game_at_once():
    from xqdesk.engines.contests.elo import fit_ratings, rating_intervals

    games = [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25
    assert fit_ratings(games, 2, prior_draws=0) == pytest.approx([0.0, elo_from_score(0.25)])
    low, high = rating_intervals(games, 2, prior_draws=0)[1]
    assert low < elo_from_score(0.25) < high and high - low > 100
    # A chain: 1 beats 0 as often as 2 beats 1; 2 is rated about twice as far above 0.
    chain = [(1, 0, 1.0)] * 70 + [(1, 0, 0.0)] * 30 + [(2, 1, 1.0)] * 70 + [(2, 1, 0.0)] * 30
    ratings = fit_ratings(chain, 3, prior_draws=0)
    assert ratings[1] == pytest.approx(elo_from_score(0.7), abs=1)
    assert ratings[2] == pytest.approx(2 * elo_from_score(0.7), abs=1)
    sweep = fit_ratings([(1, 0, 1.0)] * 50, 2)  # won every game: finite thanks to the virtual draw
    assert 500 < sweep[1] < 1000
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings(games, 2, anchor=2)
