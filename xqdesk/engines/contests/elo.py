"""Elo arithmetic for match results: the rating difference with a 95% interval (as cutechess
reports it) and the seed projects' performance rating."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def elo_from_score(score: float) -> float:
    """The Elo difference that makes ``score`` (0 < score < 1) the expected score."""
    if not 0.0 < score < 1.0:
        raise ValueError(f"an Elo difference needs a score strictly between 0 and 1, got {score!r}")
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


@dataclass(frozen=True)
class EloEstimate:
    """``difference`` and its 95% interval ``[lower, upper]``. ``difference`` is None when there is
    no finite estimate (no games, or all won, or all lost); a bound is None where it is infinite."""

    difference: Optional[float]
    lower: Optional[float]
    upper: Optional[float]

    def __str__(self) -> str:
        def show(value: Optional[float], infinite: str) -> str:
            return infinite if value is None else f"{value:+.1f}"

        if self.difference is None:
            return "Elo difference: n/a (no games, or every game won or every game lost)"
        return (f"Elo difference: {self.difference:+.1f} "
                f"(95% interval {show(self.lower, '-inf')} .. {show(self.upper, '+inf')})")


def elo_difference(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of the player with ``wins``/``draws``/``losses`` against its opponent,
    with a 95% interval from the normal approximation of the mean score (per-game variance of
    win=1, draw=½, loss=0)."""
    games = wins + draws + losses
    if games == 0:
        return EloEstimate(None, None, None)
    score = (wins + 0.5 * draws) / games
    if score <= 0.0 or score >= 1.0:  # all won or all lost: no finite estimate
        return EloEstimate(None, None, None)
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    margin = Z_95 * math.sqrt(variance / games)
    low, high = score - margin, score + margin
    return EloEstimate(elo_from_score(score),
                       elo_from_score(low) if low > 0 else None,
                       elo_from_score(high) if high < 1 else None)


def performance_rating(opponent_rating: float, wins: int, losses: int, games: int) -> float:
    """The seed projects' linear performance: opponent + 400·(wins − losses)/games."""
    if games <= 0:
        raise ValueError(f"a performance rating needs at least one game, got {games!r}")
    return opponent_rating + 400.0 * (wins - losses) / games


PairResult = tuple[int, int, float]
"""One game of a round robin: (player a, player b, a's score: 1, ½ or 0)."""


def fit_ratings(games: list[PairResult], players: int, *, anchor: int = 0, prior_draws: float = 1.0,
                iterations: int = 200) -> list[float]:
    """Elo ratings of ``players`` that best explain ``games`` (maximum likelihood under the logistic
    Elo model, a draw counting as half a win), with ``anchor`` rated 0. Each pair that met gets
    ``prior_draws`` virtual draws, so a side that won every game still gets a finite rating."""
    if not 0 <= anchor < players:
        raise ValueError(f"anchor {anchor!r} is not one of the {players} players")
    points = [[0.0] * players for _ in range(players)]
    meetings = [[0.0] * players for _ in range(players)]
    for a, b, score in games:
        if a == b or not (0 <= a < players and 0 <= b < players):
            raise ValueError(f"game between players {a!r} and {b!r} of {players}")
        points[a][b] += score
        points[b][a] += 1.0 - score
        meetings[a][b] += 1.0
        meetings[b][a] += 1.0
    for a in range(players):
        for b in range(players):
            if meetings[a][b]:
                points[a][b] += prior_draws / 2
                meetings[a][b] += prior_draws
    strength = [1.0] * players  # 10 ** (rating / 400), fitted by the minorise-maximise iteration
    for _ in range(iterations):
        updated = []
        for a in range(players):
            wins = sum(points[a])
            denominator = sum(meetings[a][b] / (strength[a] + strength[b]) for b in range(players) if meetings[a][b])
            updated.append(wins / denominator if denominator and wins else strength[a])
        strength = updated
    base = math.log10(strength[anchor])
    return [400.0 * (math.log10(value) - base) + 0.0 for value in strength]


def rating_intervals(games: list[PairResult], players: int, *, anchor: int = 0,
                     prior_draws: float = 1.0) -> list[tuple[float, float]]:
    """95% intervals of the ratings :func:`fit_ratings` gives (relative to ``anchor``), from the
    curvature of the likelihood at its maximum (the normal approximation; the virtual draws keep
    it finite when a pair's games all went one way)."""
    import numpy as np

    ratings = fit_ratings(games, players, anchor=anchor, prior_draws=prior_draws)
    meetings = np.zeros((players, players))
    for a, b, _ in games:
        meetings[a, b] += 1.0
        meetings[b, a] += 1.0
    meetings[meetings > 0] += prior_draws
    scale = 400.0 / math.log(10.0)  # Elo points per unit of log-odds
    information = np.zeros((players, players))
    for a in range(players):
        for b in range(players):
            if a != b and meetings[a, b]:
                expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
                weight = meetings[a, b] * expected * (1.0 - expected)
                information[a, a] += weight
                information[a, b] -= weight
    free = [player for player in range(players) if player != anchor]
    covariance = np.linalg.pinv(information[np.ix_(free, free)])
    intervals = [(0.0, 0.0)] * players
    for index, player in enumerate(free):
        margin = Z_95 * scale * math.sqrt(max(float(covariance[index, index]), 0.0))
        intervals[player] = (ratings[player] - margin, ratings[player] + margin)
    return intervals
