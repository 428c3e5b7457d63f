"""Text from a record, a file name or an engine, made safe to print on a terminal.

A game record is untrusted input: a PGN tag value, a comment, a player's or an event's name can
hold escape sequences that a terminal obeys (set the window title, write the clipboard with OSC 52,
clear the screen, move the cursor and overwrite earlier lines) or bidirectional overrides that make
text read other than it is. :func:`printable` is the one place that makes such text inert; every
command that prints text it did not write itself passes it through here on the way out.
"""
from __future__ import annotations

import re

_UNSAFE = (
    "\x00-\x08\x0b-\x1f"  # C0 controls but tab and newline: BEL, backspace, CR, ESC (starts every sequence) …
    "\x7f-\x9f"  # DEL and the C1 controls (CSI, OSC, DCS … as single characters)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates (undecodable bytes kept by surrogateescape): no terminal can show them
)
_UNSAFE_IN_LINE = re.compile(f"[{_UNSAFE}\t\n]")
_UNSAFE_IN_TEXT = re.compile(f"[{_UNSAFE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every character a terminal would act on written out as a visible escape.

    Escaped as ``\\x1b`` or ``\\u202e``: the C0 controls (ESC, BEL, CR, backspace …), DEL, the C1
    controls, the bidirectional controls, the line and paragraph separators and lone surrogates.
    Tab and newline are escaped too unless ``keep_newlines`` (a comment of several lines; a name or
    a tag value is one line, so a newline in it cannot forge the next line of the output). Every
    other character, Chinese included, is kept as it is; text with nothing to escape comes back
    unchanged.
    """
    pattern = _UNSAFE_IN_TEXT if keep_newlines else _UNSAFE_IN_LINE
    return pattern.sub(_escape, text)


__all__ = ["printable"]
