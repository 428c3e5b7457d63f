"""The contract of a fog-of-war agent: it is shown :class:`Observation` values and answers with a
move; it is never given the board.

:class:`FogAgent` enforces that at the boundary: :meth:`~FogAgent.see` and
:meth:`~FogAgent.choose_move` refuse anything but an ``Observation`` and check that the move an
agent returns is one of the observer's moves. Options are declared as
:class:`~xqdesk.engines.transport.uci.UciOption` values (``spin`` or ``check``), checked by their declaration
and set by name (as UCI ``setoption`` does); ``Seed`` makes an agent's games repeatable (each game
starts from the seed), 0 (the default) plays differently every game.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Optional

from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.options import OptionValue, UciOption, find_option
from xqdesk.errors import XqdeskError
from xqdesk.move import Move
from xqdesk.pieces import RED, Color, side_name
from xqdesk.variants.fog.observation import Observation

SEED = UciOption("Seed", "spin", default="0", min=0, max=2**31 - 1)
"""A seed for repeatable games (the same in every game); 0 draws fresh randomness each game."""


def _number(option: UciOption, value: OptionValue) -> int:
    """A checked ``spin`` or ``check`` value as an int (a check is 0 or 1)."""
    if isinstance(value, (bool, int)):
        return int(value)
    raise EngineOptionError(f"option {option.name!r} of a fog agent must be a spin or a check, not {option.type!r}")


class NotAnObservationError(XqdeskError, TypeError):
    """An agent was handed something other than an :class:`Observation` (a board, say)."""


class FogAgent(ABC):
    """Base of the fog agents. Subclasses set ``name`` and ``OPTIONS`` and implement
    :meth:`decide` (and, when they keep a belief, :meth:`update`)."""

    name = "fog agent"
    OPTIONS: tuple[UciOption, ...] = (SEED,)

    def __init__(self, **options: int | str | bool) -> None:
        self.options: dict[str, int] = {option.name: _number(option, option.parse_value(option.default))
                                        for option in self.OPTIONS}
        """The options' values by name (a ``check`` is 0 or 1)."""
        for name, value in options.items():
            self.set_option(name.replace("_", " "), value)
        self.side: Color = RED
        self.random = self._fresh_random()

    # --- options -------------------------------------------------------------------------------

    def uci_options(self) -> tuple[UciOption, ...]:
        return self.OPTIONS

    def set_option(self, name: str, value: OptionValue) -> None:
        """Set an option by name (case-insensitive), checked by its declaration; EngineOptionError
        (a ValueError) for an unknown option or a bad value."""
        option = find_option(self.OPTIONS, name, self.name)
        self.options[option.name] = _number(option, option.parse_value(value))

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
            raise ValueError(f"{self.name} plays {side_name(self.side)} but was shown "
                             "the other side's view")

    def reset(self) -> None:
        """Forget what was learned in the last game (agents with a belief override this)."""

    def update(self, observation: Observation) -> None:
        """Learn from a new observation (agents with a belief override this)."""

    @abstractmethod
    def decide(self, observation: Observation, budget: Optional[float]) -> Move:
        """One of ``observation.moves`` (not empty; it is this agent's turn)."""
