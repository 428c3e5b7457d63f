"""How a command tells its user what went wrong: one line on stderr, inert (no control
characters from a record or an engine reach the terminal)."""
from __future__ import annotations

import sys
from typing import Optional

from xqdesk.terminal_text import printable


def report_error(message: str, command: str = "", *, label: Optional[str] = None) -> None:
    """A command's message to its user on stderr, ``xqdesk[ COMMAND]: MESSAGE`` (what went wrong
    and what to do), or ``LABEL: MESSAGE`` (``error: …`` for each problem met in a record file):
    the one way commands report what is not their output; internals log through ``logging``."""
    head = label if label is not None else f"xqdesk {command}" if command else "xqdesk"
    print(printable(f"{head}: {message}", keep_newlines=True), file=sys.stderr, flush=True)
