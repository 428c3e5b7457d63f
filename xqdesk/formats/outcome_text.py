"""Reading the course's result texts back into :class:`~xqdesk.outcome.Outcome` values."""
from __future__ import annotations

import re

from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED, Color, side_name

_SIDES = {"Red": RED, "Black": BLACK}
_LOSES = re.compile(r"^(Red|Black) loses the game\. (Red|Black) wins!$")
_ILLEGAL = re.compile(r"^(Red|Black) moves illegally, (Red|Black) wins!(?: \((?P<reason>.*)\))?$", re.DOTALL)
_GENERAL_CAPTURED = re.compile(r"^(Red|Black)'s general is captured, (Red|Black) wins!$")
_TIMEOUT = re.compile(r"^(Red|Black) timeout, (Red|Black) wins!$")
_RESIGNS = re.compile(r"^(Red|Black) resigns, (Red|Black) wins!$")
_RESULT_WINNERS: dict[str, Color | None] = {"1-0": RED, "0-1": BLACK, "1/2-1/2": None}


def outcome_from_text(text: str) -> Outcome | None:
    """The outcome a course text describes (``"Red loses the game. Black wins!"`` …), or None
    when the text is none of the course's."""
    text = text.strip()
    if text == Outcome.capture_free_draw().text:
        return Outcome.capture_free_draw()
    if match := _LOSES.match(text):
        return Outcome.no_legal_moves(_SIDES[match.group(1)])
    if match := _GENERAL_CAPTURED.match(text):
        return Outcome.general_captured(_SIDES[match.group(1)])
    if match := _ILLEGAL.match(text):
        return Outcome.illegal_move(_SIDES[match.group(1)], match.group("reason"))
    if match := _TIMEOUT.match(text):
        return Outcome.timeout(_SIDES[match.group(1)])
    if match := _RESIGNS.match(text):
        return Outcome.resignation(_SIDES[match.group(1)])
    return None


def outcome_from_result(result: str, text: str | None = None) -> Outcome | None:
    """The outcome for a PGN result token (``1-0``, ``0-1``, ``1/2-1/2``) and an optional reason
    text. A course text gives its exact outcome; any other is kept as an adjudicated result.
    Returns None for ``*`` or an unknown token without text."""
    if text:
        known = outcome_from_text(text)
        if known is not None:
            return known
    result = result.strip()
    if result not in _RESULT_WINNERS:
        return Outcome(Termination.ADJUDICATION, None, text) if text else None
    winner = _RESULT_WINNERS[result]
    if not text:
        text = "Draw" if winner is None else f"{side_name(winner)} wins"
    return Outcome(Termination.ADJUDICATION, winner, text)
