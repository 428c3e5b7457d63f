"""The exceptions xqdesk raises, under one root, :class:`XqdeskError` (catch it to catch them all):

- :class:`InputError` (also a ``ValueError``): what a person, a file or a caller gave is wrong — a
  FEN, a move, a record, a setting. Messages carry the bad input (``!r``), the position (FEN) and,
  for files, where it was read.
- :class:`xqdesk.engines.errors.EngineError`: an engine failed — it would not start, broke its
  protocol, crashed or ran out of time. It is not a ``ValueError``: nothing the caller gave was
  wrong. An option value an engine does not take, or a position it cannot be given, is both.
"""


class XqdeskError(Exception):
    """The root of every error xqdesk raises."""


class InputError(XqdeskError, ValueError):
    """Bad input: base class of the errors about what was given rather than what failed."""


class InvalidFenError(InputError):
    """A FEN string (or a course board) does not describe a valid position."""


class IllegalMoveError(InputError):
    """A move is not legal in the position it was applied to, or its text does not parse."""


class AmbiguousMoveError(IllegalMoveError):
    """A move's text matches more than one legal move."""


class RecordFormatError(InputError):
    """A game record (history, PGN, XQF, match folder …) is malformed."""
