"""A fog agent behind the engine host (:mod:`xqdesk.engines.host`): it is sent every view of its
side as ``position fog VIEW …`` (see :mod:`xqdesk.variants.fog.text`) and answers ``go`` with
``bestmove``. It never receives a board: ``position startpos|fen`` followed by ``go`` is refused
with the reason."""
from __future__ import annotations

import threading
from typing import Callable, Optional, Sequence

from xqdesk.board import Board
from xqdesk.engines.fog import make_agent
from xqdesk.engines.options import OptionValue, UciOption
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.variants.fog.observation import Observation
from xqdesk.variants.fog.text import parse_view


def parse_fog_position(line: str) -> list[Observation]:
    """The views of ``position fog VIEW …``; ValueError saying which view is wrong."""
    tokens = line.split()
    if len(tokens) < 3 or tokens[:2] != ["position", "fog"]:
        raise ValueError(f"not a fog position command (expected 'position fog VIEW …'): {line[:80]!r}")
    views = [parse_view(token) for token in tokens[2:]]
    for index, view in enumerate(views):
        if view.ply != views[0].ply + index or view.side != views[0].side:
            raise ValueError(f"fog view {index + 1} does not follow the one before it (ply {view.ply})")
    return views


class HostedFogAgent:
    """An in-process engine for the host around a fog agent of ``kind``."""

    def __init__(self, kind: str) -> None:
        self.agent = make_agent(kind)
        self.name = kind
        self._shown: list[Observation] = []

    def uci_options(self) -> tuple[UciOption, ...]:
        return self.agent.uci_options()

    def set_option(self, name: str, value: OptionValue) -> None:
        self.agent.set_option(name, value)

    def warm_up(self) -> None:
        warm = getattr(self.agent, "warm_up", None)
        if warm is not None:
            warm()

    def new_game(self) -> None:
        self._shown = []

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        raise ValueError(f"{self.name} plays fog of war and is never shown the board: send 'position fog VIEW …'")

    def search_views(self, views: Sequence[Observation], limits: SearchLimits, stop: threading.Event,
                     on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """The agent's move after ``views`` (every view of its side since the game began, the last
        one its turn). Views it has already taken in are not shown again."""
        known = len(self._shown)
        if views[0].ply != 0 or list(views[:known]) != self._shown or not self._shown:
            self.agent.new_game(views[-1].side)
            self._shown, known = [], 0
        for view in views[known:]:
            self.agent.see(view)
            self._shown.append(view)
        move = self.agent.choose_move(views[-1], limits.movetime)
        on_info(SearchInfo(depth=1, pv=(move,)))
        return move
