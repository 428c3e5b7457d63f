"""Rulesets: the one place the referee, the engines and the window ask about the rules."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """The rules a game is judged by.

    ``move_time_limit``: seconds a player may think per move. ``capture_free_draw_plies``: a game
    with this many plies in a row without a capture is drawn. ``perpetual_check_limit``: a piece
    that has given check this many times running may not give another (0 disables the rule);
    the rule applies only once the history holds more than ``perpetual_check_min_history`` entries.
    """

    name: str
    move_time_limit: float = 10.0
    capture_free_draw_plies: int = 120
    perpetual_check_limit: int = 3
    perpetual_check_min_history: int = 6


COURSE = Ruleset(name="course")
"""The AlphaChess course's referee rules (see RULES.md)."""
