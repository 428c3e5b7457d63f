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

STANDARD = Ruleset(name="standard", perpetual_check_limit=0)
"""The rules records from outside the course are judged by: every piece move that keeps the king
safe is legal. Real games break the course's perpetual-check restriction (a piece may give a fourth
check in a row), so master games, PGN, XQF and FEN records are replayed under these."""

RULESETS = {COURSE.name: COURSE, STANDARD.name: STANDARD}
"""Rulesets by name (a PGN ``Ruleset`` tag, a command-line option)."""
