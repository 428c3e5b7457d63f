"""The contract of an engine that runs inside the host process (built-in, random, greedy, course
players). :mod:`xqdesk.engines.host` turns any of them into a UCI engine in its own process."""
from __future__ import annotations

import threading
from typing import Callable, Optional, Protocol

from xqdesk.board import Board
from xqdesk.engines.options import OptionValue, UciOption, find_option
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move


class InProcessEngine(Protocol):
    """An engine the host drives. ``search`` must return promptly once ``stop`` is set, and may
    return None only when it has no move to offer (the referee judges that).

    An engine may also define ``prepare(board)``: the host calls it on every ``position``, before
    the move clock starts (course players make their ``Player(side)`` there); and ``warm_up()``:
    slow one-off start-up work (loading tables, compiling), which the host runs in the background
    as soon as it starts and finishes before it answers ``isready``."""

    name: str

    def uci_options(self) -> tuple[UciOption, ...]:
        """The options the engine declares (the host writes them as ``option`` lines)."""
        ...

    def set_option(self, name: str, value: OptionValue) -> None:
        """Apply a value of a declared option, already checked and typed by
        :meth:`UciOption.parse_value` (call :func:`apply_option`, which does that)."""
        ...

    def new_game(self) -> None:
        ...

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        ...


def apply_option(engine: InProcessEngine, name: str, value: OptionValue) -> None:
    """Check ``value`` against the option ``engine`` declares as ``name`` and apply it typed;
    EngineOptionError (nothing applied) for an unknown option or a value it does not take."""
    option = find_option(engine.uci_options(), name, engine.name)
    engine.set_option(option.name, option.parse_value(value))
