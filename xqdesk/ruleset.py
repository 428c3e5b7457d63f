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
    ``general_capture``: there is no check: every move the pieces' movement allows is legal (a
    general may step into attack, or stay in it), a general facing the other on an open file may
    capture it, and the side whose general is captured loses.
    """

    name: str
    move_time_limit: float = 10.0
    capture_free_draw_plies: int = 120
    perpetual_check_limit: int = 3
    perpetual_check_min_history: int = 6
    general_capture: bool = False


COURSE = Ruleset(name="course")
"""The AlphaChess course's referee rules (see RULES.md)."""

STANDARD = Ruleset(name="standard", perpetual_check_limit=0)
"""The rules records from outside the course are judged by: every piece move that keeps the king
safe is legal. Real games break the course's perpetual-check restriction (a piece may give a fourth
check in a row), so master games, PGN, XQF and FEN records are replayed under these."""

FOG = Ruleset(name="fog", perpetual_check_limit=0, general_capture=True)
"""Fog-of-war Xiangqi (:mod:`xqdesk.variants.fog`): no check, the game is won by capturing the
general; no move at all loses; 120 plies without a capture draw."""

RULESETS = {COURSE.name: COURSE, STANDARD.name: STANDARD, FOG.name: FOG}
"""Rulesets by name (a PGN ``Ruleset`` tag, a command-line option)."""
