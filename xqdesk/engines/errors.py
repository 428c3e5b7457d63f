"""Errors raised while starting, talking to or supervising an engine process.

All are :class:`xqdesk.errors.XqdeskError` subclasses, apart from the input errors: an engine's
failure is not a ``ValueError``. Those about what was given to an engine (an option value, a
position, a network file) are :class:`~xqdesk.errors.InputError` too.
"""
from __future__ import annotations

from xqdesk.errors import InputError, XqdeskError


class EngineError(XqdeskError):
    """Something went wrong with an engine."""


class EngineStartError(EngineError):
    """The engine could not be started: missing file, not executable, failed handshake, not a
    Xiangqi engine, a course player that does not load."""


class EngineOptionError(EngineError, InputError):
    """An engine option that the engine does not declare, or a value its declaration does not
    allow (the message names the option, the value and what it takes)."""


class EngineProtocolError(EngineError):
    """The engine wrote something the UCI protocol does not allow where it was written."""


class EngineCrashedError(EngineError):
    """The engine process ended (crash, ``sys.exit``, killed by the memory cap …) while it was
    expected to answer."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time; the process has been killed."""


class EnginePositionError(EngineError, InputError):
    """A position the engine cannot be given (an impossible position for an engine that refuses
    them); nothing was sent."""


class NetworkFileError(InputError):
    """A network file (the built-in engine's ``EvalFile``, the ``zero`` engine's ``Network``) that
    cannot be read or does not hold a usable network of its format: the message names the file and
    what is wrong (missing, not an ``.npz``, an array of the wrong shape or type, values that are
    not finite …)."""
