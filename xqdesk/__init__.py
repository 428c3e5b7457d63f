"""xqdesk: Xiangqi rules, notation, records and matches (this package and its core modules never
import Qt); engines live in :mod:`xqdesk.engines`, the window in :mod:`xqdesk.ui`."""
from xqdesk.board import Board, LegalMoves
from xqdesk.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, RecordFormatError, XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, RED, Color, Piece
from xqdesk.ruleset import COURSE, Ruleset
from xqdesk.score import MATE_GIVEN, Cp, Mate, PovScore, Score

__version__ = "0.2.0"

__all__ = [
    "Board", "LegalMoves", "Move", "Outcome", "Termination", "Piece", "Color", "RED", "BLACK",
    "PAWN", "ADVISOR", "ELEPHANT", "HORSE", "CANNON", "CHARIOT", "KING", "Ruleset", "COURSE",
    "STARTING_FEN", "XqdeskError", "InvalidFenError", "IllegalMoveError", "AmbiguousMoveError",
    "RecordFormatError", "Score", "Cp", "Mate", "MATE_GIVEN", "PovScore",
]
