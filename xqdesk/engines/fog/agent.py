"""The contract of a fog-of-war agent: it is shown :class:`Observation` values and answers with a
move; it is never given the board.

:class:`FogAgent` enforces that at the boundary: :meth:`~FogAgent.see` and
:meth:`~FogAgent.choose_move` refuse anything but an ``Observation`` and check that the move an
agent returns is one of the observer's moves. Options are declared as :class:`AgentOption` values
and set by name (as UCI ``setoption`` does); ``Seed`` makes an agent's games repeatable (each game
starts from the seed), 0 (the default) plays differently every game.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Optional

from xqdesk.move import Move
from xqdesk.pieces import RED, Color
from xqdesk.variants.fog.observation import Observation


@dataclass(frozen=True)
class AgentOption:
    """An integer (``spin``) or on/off (``check``) option of an agent."""

    name: str
    default: int
    low: int = 0
    high: int = 1
    check: bool = False

    def uci_line(self) -> str:
        if self.check:
            return f"option name {self.name} type check default {'true' if self.default else 'false'}"
        return f"option name {self.name} type spin default {self.default} min {self.low} max {self.high}"

    def parse(self, value: str) -> int:
        """The option's value for ``value``; ValueError naming the option for a bad one."""
        text = value.strip().lower()
        if self.check:
            if text in ("true", "1", "on", "yes"):
                return 1
            if text in ("false", "0", "off", "no"):
                return 0
            raise ValueError(f"option {self.name!r} takes true or false, got {value!r}")
        try:
            number = int(text)
        except ValueError:
            raise ValueError(f"option {self.name!r} takes an integer, got {value!r}") from None
        if not self.low <= number <= self.high:
            raise ValueError(f"option {self.name!r} must be {self.low}..{self.high}, got {value!r}")
        return number


SEED = AgentOption("Seed", 0, 0, 2**31 - 1)
"""A seed for repeatable games (the same in every game); 0 draws fresh randomness each game."""


class NotAnObservationError(TypeError):
    """An agent was handed something other than an :class:`Observation` (a board, say)."""


class FogAgent(ABC):
    """Base of the fog agents. Subclasses set ``name`` and ``OPTIONS`` and implement
    :meth:`decide` (and, when they keep a belief, :meth:`update`)."""

    name = "fog agent"
    OPTIONS: tuple[AgentOption, ...] = (SEED,)

    def __init__(self, **options: int | str | bool) -> None:
        self.options: dict[str, int] = {option.name: option.default for option in self.OPTIONS}
        for name, value in options.items():
            self.set_option(name.replace("_", " "), str(value).lower() if isinstance(value, bool) else str(value))
        self.side: Color = RED
        self.random = self._fresh_random()

    # --- options -------------------------------------------------------------------------------

    def uci_options(self) -> list[str]:
        return [option.uci_line() for option in self.OPTIONS]

    def set_option(self, name: str, value: str) -> None:
        """Set an option by name (case-insensitive); ValueError for an unknown one or a bad value."""
        for option in self.OPTIONS:
            if option.name.lower() == name.strip().lower():
                self.options[option.name] = option.parse(value)
                return
        names = ", ".join(option.name for option in self.OPTIONS)
        raise ValueError(f"{self.name} has no option {name!r} (it has: {names})")

    # --- the game ------------------------------------------------------------------------------

    def new_game(self, side: Color) -> None:
        """A game starts with this agent playing ``side``: forget the last one, reseed."""
        self.side = side
        self.random = self._fresh_random()
        self.reset()

    def _fresh_random(self) -> random.Random:
        seed = self.options["Seed"]
        return random.Random(seed if seed else None)

    def see(self, observation: Observation) -> None:
        """Take in what this side sees (at the start and after every ply)."""
        self._check(observation)
        self.update(observation)

    def choose_move(self, observation: Observation, budget: Optional[float] = None) -> Move:
        """This agent's move in the position ``observation`` shows (the one last seen);
        ``budget``: seconds it may take, when a clock limits it."""
        self._check(observation)
        if not observation.to_move:
            raise ValueError(f"{self.name}: asked for a move at ply {observation.ply} when it is not its turn")
        if not observation.move_codes:
            raise ValueError(f"{self.name}: asked for a move with no move to play")
        move = self.decide(observation, budget)
        if move.from_square << 7 | move.to_square not in observation.move_codes:
            raise ValueError(f"{self.name} chose {move.iccs()}, which is not one of its moves")
        return move

    def _check(self, observation: object) -> None:
        if not isinstance(observation, Observation):
            raise NotAnObservationError(f"{self.name} is given only what its side sees (an Observation), "
                                        f"not a {type(observation).__name__}")
        if observation.side != self.side:
            raise ValueError(f"{self.name} plays {'Red' if self.side == RED else 'Black'} but was shown "
                             "the other side's view")

    def reset(self) -> None:
        """Forget what was learned in the last game (agents with a belief override this)."""

    def update(self, observation: Observation) -> None:
        """Learn from a new observation (agents with a belief override this)."""

    @abstractmethod
    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        """One of ``observation.moves`` (not empty; it is this agent's turn)."""
