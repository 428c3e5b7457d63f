"""``fog-pbsa``: the progressive belief-state agent.

It carries a :class:`~xqdesk.engines.fog.particles.ParticleBelief` of ``Particles`` boards from
ply to ply (propagated by the opponent's possible moves, pruned by what it then sees), draws
``Samples`` boards from it each turn and lets them vote as ``fog-ubsa`` does. ``Opponent Greed``
(percent) is how often its model of the opponent takes the most valuable piece it can.
"""
from __future__ import annotations

from typing import Optional

from xqdesk.engines.fog.agent import SEED
from xqdesk.engines.fog.particles import ParticleBelief
from xqdesk.engines.fog.ubsa import SAMPLE_DEPTH, SAMPLE_TIME, SAMPLES, BeliefAgent
from xqdesk.engines.transport.uci import UciOption
from xqdesk.move import Move
from xqdesk.variants.fog.observation import Observation

PARTICLES = UciOption("Particles", "spin", default="64", min=1, max=4096)
OPPONENT_GREED = UciOption("Opponent Greed", "spin", default="50", min=0, max=100)


class ParticleBeliefAgent(BeliefAgent):
    """Keeps a particle belief from move to move; see the module docstring."""

    name = "fog-pbsa"
    OPTIONS = (SEED, PARTICLES, SAMPLES, SAMPLE_DEPTH, SAMPLE_TIME, OPPONENT_GREED)

    def __init__(self, **options: int | str | bool) -> None:
        super().__init__(**options)
        self.belief = self._fresh_belief()

    def _fresh_belief(self) -> ParticleBelief:
        return ParticleBelief(self.side, self.options["Particles"], self.random,
                              self.options["Opponent Greed"] / 100)

    def reset(self) -> None:
        super().reset()
        self.belief = self._fresh_belief()

    def update(self, observation: Observation) -> None:
        self.belief.update(observation)

    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        if self.belief.ply != observation.ply:
            self.belief.update(observation)  # shown this view only now
        return self.vote_on(observation, self.belief.draw(self.options["Samples"]), budget)
