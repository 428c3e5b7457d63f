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
