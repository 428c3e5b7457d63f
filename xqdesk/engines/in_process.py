"""The contract of an engine that runs inside the host process (built-in, random, greedy, course
players). :mod:`xqdesk.engines.host` turns any of them into a UCI engine in its own process."""
from __future__ import annotations

import threading
from typing import Callable, Optional, Protocol

from xqdesk.board import Board
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

    def uci_options(self) -> list[str]:
        """Full ``option name … type …`` lines."""
        ...

    def set_option(self, name: str, value: str) -> None:
        """Apply an option; ValueError for an unknown option or a bad value."""
        ...

    def new_game(self) -> None:
        ...

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        ...
