"""``-v``/``--verbose`` and ``--debug`` on every command: how much of xqdesk's ``logging`` reaches
stderr.

Without them, warnings and errors (``xqdesk: …``); ``-v``: what the command does step by step
(engines started, games begun and ended); ``--debug`` (or ``-vv``): everything, the engines'
protocol lines too (``> go movetime 1000``, ``< bestmove h2e2``), each with its logger's name.
``--log FILE`` writes the protocol lines to a file whatever the level.
"""
from __future__ import annotations

import argparse
import logging
import sys
from typing import Optional

ROOT_LOGGER = "xqdesk"
QUIET_FORMAT = "xqdesk: %(message)s"
VERBOSE_FORMAT = "xqdesk: %(levelname)s %(name)s: %(message)s"


def add_log_level_arguments(parser: argparse.ArgumentParser) -> None:
    """``-v``/``--verbose`` (again for more) and ``--debug``."""
    group = parser.add_argument_group("logging")
    group.add_argument("-v", "--verbose", action="count", default=0,
                       help="say what the command does step by step on stderr (-vv: as --debug)")
    group.add_argument("--debug", action="store_true",
                       help="log everything on stderr, every line exchanged with the engines included")


def log_level(args: argparse.Namespace) -> int:
    """The level the options ask for (WARNING without them)."""
    verbose = getattr(args, "verbose", 0) or 0
    if getattr(args, "debug", False) or verbose >= 2:
        return logging.DEBUG
    return logging.INFO if verbose == 1 else logging.WARNING


class _CommandHandler(logging.StreamHandler):
    """The handler a command installs, remembering the logger's level before it."""

    def __init__(self, previous_level: int) -> None:
        super().__init__(sys.stderr)
        self.previous_level = previous_level


def configure_logging(args: argparse.Namespace) -> Optional[logging.Handler]:
    """Send the ``xqdesk`` loggers' records at the asked level to stderr; the handler installed
    (to remove after the command; None when one is there already)."""
    level = log_level(args)
    logger = logging.getLogger(ROOT_LOGGER)
    if any(isinstance(handler, _CommandHandler) for handler in logger.handlers):
        return None
    handler = _CommandHandler(logger.level)
    handler.setFormatter(logging.Formatter(QUIET_FORMAT if level >= logging.WARNING else VERBOSE_FORMAT))
    handler.setLevel(level)
    logger.addHandler(handler)
    logger.setLevel(level)
    return handler


def remove_logging(handler: Optional[logging.Handler]) -> None:
    """Undo :func:`configure_logging`."""
    if handler is not None:
        logger = logging.getLogger(ROOT_LOGGER)
        logger.removeHandler(handler)
        logger.setLevel(handler.previous_level if isinstance(handler, _CommandHandler) else logging.NOTSET)
        handler.close()


__all__ = ["add_log_level_arguments", "configure_logging", "log_level", "remove_logging"]
