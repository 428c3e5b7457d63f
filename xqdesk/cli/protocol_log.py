"""``--log FILE``: every line exchanged with every engine, both directions, with its time.

The lines come from the transport's trace logger
(:data:`xqdesk.engines.transport.process.TRACE`); this module only points it at a file::

    2026-01-31 12:03:04.567 builtin[4121] > go movetime 1000
    2026-01-31 12:03:05.571 builtin[4121] < bestmove h2e2

``>`` was sent to the engine, ``<`` read from it, ``!`` written by it on stderr; the name is the
engine's spec and the number its process id (two copies of one engine stay apart).
"""
from __future__ import annotations

import argparse
import logging
from typing import Optional

from xqdesk.engines.transport.process import TRACE

LINE_FORMAT = "%(asctime)s.%(msecs)03d %(message)s"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def add_log_argument(parser: argparse.ArgumentParser) -> None:
    """``--log FILE`` (read by :func:`xqdesk.cli.main` around the command's run)."""
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="append every line sent to and read from the engines to FILE, with its time "
                             "('>' sent, '<' read, '!' the engine's stderr)")


class ProtocolLog:
    """A context in which the engines' protocol trace is appended to ``path`` (nothing when
    ``path`` is None). The file is opened at once: OSError when it cannot be written."""

    def __init__(self, path: Optional[str]) -> None:
        self._handler: Optional[logging.Handler] = None
        self._previous_level = TRACE.level
        if path is not None:
            handler = logging.FileHandler(path, mode="a", encoding="utf-8")
            handler.setFormatter(logging.Formatter(LINE_FORMAT, TIME_FORMAT))
            self._handler = handler

    def __enter__(self) -> ProtocolLog:
        if self._handler is not None:
            self._previous_level = TRACE.level
            TRACE.addHandler(self._handler)
            TRACE.setLevel(logging.DEBUG)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._handler is not None:
            TRACE.removeHandler(self._handler)
            TRACE.setLevel(self._previous_level)
            self._handler.close()
