"""``fog-ubsa``: the uniform belief-state agent.

Each turn it draws ``Samples`` boards uniformly from what it sees (which enemy pieces are alive is
known from the captures; where the unseen ones stand is drawn over the unseen squares each can
stand on, honouring what the view implies), lets the built-in engine search each for ``Sample
Depth`` plies and/or ``Sample Time`` ms, and plays the move most boards vote for (else greedy).
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Optional

from xqdesk.engines.fog.agent import SEED, FogAgent
from xqdesk.engines.fog.belief import Codes, implied, sample_board
from xqdesk.engines.fog.voting import SampleSearcher, search_limits, vote
from xqdesk.engines.transport.uci import UciOption
from xqdesk.move import Move
from xqdesk.variants.fog.observation import Observation

SAMPLES = UciOption("Samples", "spin", default="8", min=1, max=256)
SAMPLE_DEPTH = UciOption("Sample Depth", "spin", default="0", min=0, max=32)
SAMPLE_TIME = UciOption("Sample Time", "spin", default="50", min=0, max=60_000)
"""Milliseconds the built-in engine is given per board (it keeps a safety margin of that)."""
BUDGET_SHARE = 0.8
"""Under a move clock, no new board is searched after this share of the time."""


class BeliefAgent(FogAgent):
    """What both belief agents share: the engine that searches their boards, and the vote."""

    def __init__(self, **options: int | str | bool) -> None:
        super().__init__(**options)
        self.searcher = SampleSearcher()

    def warm_up(self) -> None:
        """Load the built-in engine before the first move (compiling it after an install)."""
        self.searcher.warm_up()

    def reset(self) -> None:
        self.searcher.new_game()

    def vote_on(self, observation: Observation, boards: list[tuple[Codes, float]], budget: Optional[float]) -> Move:
        limits = search_limits(self.options["Sample Depth"], self.options["Sample Time"])
        deadline = time.perf_counter() + BUDGET_SHARE * budget if budget else None
        return vote(observation, boards, self.searcher, limits, self.random.choice, deadline)


class UniformBeliefAgent(BeliefAgent):
    """Samples the unseen enemy pieces uniformly each turn; see the module docstring."""

    name = "fog-ubsa"
    OPTIONS = (SEED, SAMPLES, SAMPLE_DEPTH, SAMPLE_TIME)

    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        hint = implied(observation)
        drawn: Counter[Codes] = Counter()
        for _ in range(self.options["Samples"]):
            board = sample_board(observation, self.random, hint=hint)
            if board is not None:
                drawn[board] += 1
        return self.vote_on(observation, list(drawn.items()), budget)
