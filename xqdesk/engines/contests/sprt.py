"""The sequential probability ratio test of engine matches, as fishtest runs it, and the LOS.

The test (Michel Van den Bergh's generalised SPRT, fishtest's ``LLR_logistic``): H0 says the
engine's expected score is ``s0 = L(elo0)``, H1 says ``s1 = L(elo1)``, with ``L(elo) = 1/(1+10^(-elo/400))``
(logistic Elo, the scale of cutechess-cli and of :mod:`xqdesk.engines.contests.elo`). The log-likelihood
ratio compares the two maximum-likelihood distributions of the results that have those expected
scores (each found with the "secular equation", Proposition 1.1 of Van den Bergh's note
*support_MLE_multinomial*), a zero count being replaced by 0.001 as fishtest does. The test stops
when the LLR leaves ``[log(beta/(1-alpha)), log((1-beta)/alpha)]``: below, H0 is accepted; above, H1.

Two models of the results:

- **pentanomial** (fishtest's): games come in pairs from the same opening with the colours
  swapped; a pair scores 0, ½, 1, 1½ or 2 (counted as LL, LD+DL, LW+DD+WL, DW+WD, WW). Pairs
  capture the opening's bias, so the test needs fewer games;
- **trinomial**: each game on its own (loss, draw, win).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Optional, Sequence

REGULARISATION = 1e-3
"""What an empty result category counts as (fishtest's prior), so the LLR stays finite."""


class SprtModel(enum.Enum):
    TRINOMIAL = "trinomial"
    PENTANOMIAL = "pentanomial"


class Verdict(enum.Enum):
    CONTINUE = "continue"
    H0 = "H0"
    """Accepted H0: the engine's Elo difference is ``elo0`` or less rather than ``elo1`` or more (failed)."""
    H1 = "H1"
    """Accepted H1: the engine's Elo difference is ``elo1`` or more rather than ``elo0`` or less (passed)."""


def logistic_score(elo: float) -> float:
    """The expected score of a side ``elo`` logistic Elo stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _secular_root(values: Sequence[float], probabilities: Sequence[float]) -> float:
    """The ``x`` with ``sum p_i v_i / (1 + x v_i) = 0`` on the interval where every ``1 + x v_i > 0``
    (``values`` hold both signs). The sum falls as ``x`` grows, so bisection finds it."""
    low, high = -1.0 / max(values), -1.0 / min(values)
    margin = 1e-12 * (high - low)
    low, high = low + margin, high - margin
    for _ in range(200):
        middle = 0.5 * (low + high)
        if sum(p * v / (1.0 + middle * v) for v, p in zip(values, probabilities)) > 0.0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    return 0.5 * (low + high)


def _mle_with_mean(scores: Sequence[float], observed: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``scores`` closest in likelihood to ``observed`` whose mean is ``mean``."""
    shifted = [score - mean for score in scores]
    x = _secular_root(shifted, observed)
    return [p / (1.0 + x * v) for v, p in zip(shifted, observed)]


def log_likelihood_ratio(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised LLR of H1 (``elo1``) against H0 (``elo0``) for ``counts``: three (losses,
    draws, wins) for the trinomial model, five (pairs scoring 0 … 2) for the pentanomial one."""
    if len(counts) not in (3, 5):
        raise ValueError(f"results are 3 (L, D, W) or 5 (pair) counts, got {list(counts)!r}")
    regular = [count if count > 0 else REGULARISATION for count in counts]
    total = sum(regular)
    observed = [count / total for count in regular]
    scores = [index / (len(counts) - 1) for index in range(len(counts))]
    under_h0 = _mle_with_mean(scores, observed, logistic_score(elo0))
    under_h1 = _mle_with_mean(scores, observed, logistic_score(elo1))
    return total * sum(p * (math.log(p1) - math.log(p0)) for p, p0, p1 in zip(observed, under_h0, under_h1))


def likelihood_of_superiority(wins: int, losses: int) -> Optional[float]:
    """LOS: the probability that the side with ``wins`` and ``losses`` is the stronger (draws
    carry no information); None before any decisive game."""
    if wins + losses == 0:
        return None
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


@dataclass(frozen=True)
class Sprt:
    """A test of ``elo0`` against ``elo1`` with error rates ``alpha`` (false H1) and ``beta``
    (false H0)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got elo0={self.elo0:g}, elo1={self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, got {value:g}")

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def status(self, counts: Sequence[int]) -> SprtStatus:
        """Where the test stands after ``counts`` (see :func:`log_likelihood_ratio`)."""
        model = SprtModel.PENTANOMIAL if len(counts) == 5 else SprtModel.TRINOMIAL
        if sum(counts) == 0:
            return SprtStatus(self, model, 0.0, Verdict.CONTINUE)
        llr = log_likelihood_ratio(counts, self.elo0, self.elo1)
        verdict = Verdict.H1 if llr >= self.upper_bound else Verdict.H0 if llr <= self.lower_bound else Verdict.CONTINUE
        return SprtStatus(self, model, llr, verdict)


@dataclass(frozen=True)
class SprtStatus:
    """The LLR after some games and what it means."""

    test: Sprt
    model: SprtModel
    llr: float
    verdict: Verdict

    def __str__(self) -> str:
        """cutechess-cli's line: ``SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94``, then the verdict."""
        share = 100.0 * self.llr / (self.test.upper_bound if self.llr >= 0 else -self.test.lower_bound)
        text = (f"SPRT: llr {self.llr:.3f} ({share:.1f}%), lbound {self.test.lower_bound:.2f}, "
                f"ubound {self.test.upper_bound:.2f}")
        if self.verdict is Verdict.H1:
            text += " - H1 was accepted (passed)"
        elif self.verdict is Verdict.H0:
            text += " - H0 was accepted (failed)"
        return text


@dataclass
class PairedResults:
    """Results of a match between the tested engine and its opponent, kept both game by game
    (trinomial) and by pairs of games (pentanomial). A pair is two games that share a ``pair``
    key (the same opening, colours swapped); it counts once both are known."""

    losses: int = 0
    draws: int = 0
    wins: int = 0

    def __post_init__(self) -> None:
        self.pairs = [0, 0, 0, 0, 0]
        self._open: dict[object, float] = {}

    def add(self, score: float, pair: object = None) -> None:
        """One game's score for the tested engine (1, ½ or 0), with its pair key (None: no pair)."""
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        elif score == 0.5:
            self.draws += 1
        else:
            raise ValueError(f"a game scores 0, 0.5 or 1, got {score!r}")
        if pair is None:
            return
        if pair in self._open:
            self.pairs[round(2 * (self._open.pop(pair) + score))] += 1
        else:
            self._open[pair] = score

    @property
    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]

    @property
    def pentanomial(self) -> list[int]:
        return list(self.pairs)


__all__ = ["PairedResults", "Sprt", "SprtModel", "SprtStatus", "Verdict", "likelihood_of_superiority",
           "log_likelihood_ratio", "logistic_score"]
