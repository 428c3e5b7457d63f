"""Fog-of-war agents: they receive observations (:mod:`xqdesk.variants.fog`), never the board.

``fog-random``, ``fog-greedy`` (options ``Conservative``, ``Preservative``), ``fog-ubsa`` (uniform
belief) and ``fog-pbsa`` (particle belief); :func:`make_agent` makes one by kind and options.
"""
from __future__ import annotations

from typing import Mapping

from xqdesk.engines.fog.agent import FogAgent, NotAnObservationError
from xqdesk.engines.fog.baselines import GreedyFogAgent, RandomFogAgent
from xqdesk.engines.fog.pbsa import ParticleBeliefAgent
from xqdesk.engines.fog.ubsa import UniformBeliefAgent

AGENT_KINDS: dict[str, type[FogAgent]] = {
    "fog-random": RandomFogAgent,
    "fog-greedy": GreedyFogAgent,
    "fog-ubsa": UniformBeliefAgent,
    "fog-pbsa": ParticleBeliefAgent,
}


def make_agent(kind: str, options: Mapping[str, str] | None = None) -> FogAgent:
    """A fog agent of ``kind`` with ``options`` set by name; ValueError for an unknown kind or option."""
    if kind not in AGENT_KINDS:
        raise ValueError(f"unknown fog agent {kind!r} (expected one of {', '.join(AGENT_KINDS)})")
    agent = AGENT_KINDS[kind]()
    for name, value in (options or {}).items():
        agent.set_option(name, value)
    return agent


__all__ = ["AGENT_KINDS", "make_agent", "FogAgent", "NotAnObservationError", "RandomFogAgent",
           "GreedyFogAgent", "UniformBeliefAgent", "ParticleBeliefAgent"]
