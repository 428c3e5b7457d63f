"""The few exception types xqdesk raises. All are ``ValueError`` subclasses.

Messages carry the bad input (``!r``), the position (FEN) and, for files, where it was read.
"""


class XqdeskError(ValueError):
    """Base class of every error xqdesk raises on bad input."""


class InvalidFenError(XqdeskError):
    """A FEN string (or a course board) does not describe a valid position."""


class IllegalMoveError(XqdeskError):
    """A move is not legal in the position it was applied to, or its text does not parse."""


class AmbiguousMoveError(IllegalMoveError):
    """A move's text matches more than one legal move."""


class RecordFormatError(XqdeskError):
    """A game record (history, PGN, XQF, match folder …) is malformed."""
