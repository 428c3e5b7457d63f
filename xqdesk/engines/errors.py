"""Errors raised while starting, talking to or supervising an engine process.

All are :class:`xqdesk.errors.XqdeskError` subclasses, apart from the input errors: an engine's
failure is not a ``ValueError``. The two that are about what was given to an engine (an option
value, a position) are :class:`~xqdesk.errors.InputError` too.
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
