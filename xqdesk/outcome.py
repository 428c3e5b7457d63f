"""How a game ended: one value with a termination, a winner and the course's text."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from xqdesk.pieces import BLACK, RED, Color


class Termination(enum.Enum):
    NO_LEGAL_MOVES = "no legal moves"
    GENERAL_CAPTURED = "general captured"
    CAPTURE_FREE_DRAW = "capture-free draw"
    ILLEGAL_MOVE = "illegal move"
    TIMEOUT = "timeout"
    RESIGNATION = "resignation"
    ADJUDICATION = "adjudication"
    ABORTED = "aborted"


def _side(color: Color) -> str:
    return "Red" if color == RED else "Black"


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``winner`` is None for a draw (or an aborted game)."""

    termination: Termination
    winner: Optional[Color]
    text: str

    def result(self) -> str:
        """The PGN result token: ``'1-0'`` (Red won), ``'0-1'`` or ``'1/2-1/2'`` (``'*'`` if aborted)."""
        if self.termination is Termination.ABORTED:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == RED else "0-1"

    @classmethod
    def no_legal_moves(cls, loser: Color) -> Outcome:
        """The side to move has no legal move: ``"Red loses the game. Black wins!"``."""
        return cls(Termination.NO_LEGAL_MOVES, not loser,
                   f"{_side(loser)} loses the game. {_side(not loser)} wins!")

    @classmethod
    def general_captured(cls, loser: Color) -> Outcome:
        """Fog of war: ``loser``'s general was taken: ``"Red's general is captured, Black wins!"``."""
        return cls(Termination.GENERAL_CAPTURED, not loser,
                   f"{_side(loser)}'s general is captured, {_side(not loser)} wins!")

    @classmethod
    def illegal_move(cls, offender: Color, reason: Optional[str] = None) -> Outcome:
        """``"Red moves illegally, Black wins!"``, with the reason appended when given."""
        text = f"{_side(offender)} moves illegally, {_side(not offender)} wins!"
        return cls(Termination.ILLEGAL_MOVE, not offender, f"{text} ({reason})" if reason else text)

    @classmethod
    def timeout(cls, offender: Color) -> Outcome:
        """``"Red timeout, Black wins!"``."""
        return cls(Termination.TIMEOUT, not offender, f"{_side(offender)} timeout, {_side(not offender)} wins!")

    @classmethod
    def capture_free_draw(cls) -> Outcome:
        """The course's sixty-round rule."""
        return cls(Termination.CAPTURE_FREE_DRAW, None, "Both sides have not eaten in sixty rounds, draw!")

    @classmethod
    def resignation(cls, loser: Color) -> Outcome:
        return cls(Termination.RESIGNATION, not loser, f"{_side(loser)} resigns, {_side(not loser)} wins!")

    @classmethod
    def adjudicated(cls, winner: Optional[Color], reason: str) -> Outcome:
        """A result the match decided from the engines' own scores (cutechess-cli's draw and resign
        adjudication): ``"Draw by adjudication: …"`` or ``"Black wins by adjudication: …"``."""
        who = "Draw" if winner is None else f"{_side(winner)} wins"
        return cls(Termination.ADJUDICATION, winner, f"{who} by adjudication: {reason}")

    @classmethod
    def aborted(cls, reason: str = "Game aborted") -> Outcome:
        return cls(Termination.ABORTED, None, reason)


__all__ = ["Outcome", "Termination", "RED", "BLACK"]
