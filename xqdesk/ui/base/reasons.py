"""Why something could not be done — a file not opened, a FEN or a pasted text refused, an engine
refused — said in the interface language and without program internals.

The core and the engines explain problems in fixed English sentences with values in them (``FEN
'…' has 3 ranks, expected 10``). :func:`tr_reason` recognises the sentences listed in
:data:`REASON_TEMPLATES` (each a template whose ``{fields}`` match any text) and says them in the
interface language, translating the values too where they are themselves known texts; a sentence
it does not know stays as it is. Several problems joined by ``; `` are translated one by one.

:func:`engine_reason` first takes out what only a programmer needs: the command line
(``engine ['/usr/bin/python', '-m', …]``), the engine host's ``xqdesk host:`` prefix, and Python's
``(<frozen importlib._bootstrap>, line 241)``; when the process exited while the handshake waited,
the cause it gave is the reason.
"""
from __future__ import annotations

import re
from functools import lru_cache

from xqdesk.ui.base.i18n import Language, current_language, tr

REASON_TEMPLATES = (
    # record files and pasted texts (xqdesk.formats)
    "{source}, whole file: {reason}",
    "{source}, game {number}: {reason}",
    "not a game record in any known format; tried {formats} (as a move list: {detail}): {text}",
    "not a game record in any known format; tried {formats}: {text}",
    "not a game record in any known format; tried {formats}",
    "no game found in the file",
    "cannot read move {move} in position {fen}: {reason}",
    "not WXF notation (expected like {examples})",
    "no such file or folder",
    "a folder, and not a course match folder (it holds no summary.txt)",
    "nothing in it reads as a game record (no tags, no moves, no position)",
    "unknown text encoding (not UTF-8, GB18030 or Big5; byte {number} is {byte}); name the encoding",
    # FEN (xqdesk.fen)
    "empty FEN: {fen}",
    "FEN {fen} has {count} ranks, expected {expected}",
    "FEN {fen}: unknown piece letter {letter} in rank {rank} ({text})",
    "FEN {fen}: rank {rank} ({text}) has {count} files, expected {expected}",
    "FEN {fen}: side to move {side} is not 'w' or 'b'",
    "FEN {fen}: move counter {field} is not a number",
    "FEN {fen}: {problems}",
    "{count} red kings, expected 1",
    "{count} black kings, expected 1",
    # engines (xqdesk.engines)
    "the engine speaks neither UCI nor UCCI ({details})",
    "to 'uci': {first}; to 'ucci': {second}",
    "cannot start engine {path}: {reason}",
    "No such file or directory",
    "not found on the PATH",
    "the engine exited with code {code} while waiting for {what}",
    "the engine exited with code {code} while sending {what}",
    "the engine was killed by signal {signal} while waiting for {what}",
    "the engine gave no {what} in time; killed",
    "cannot load player {path}: {reason}",
    "player file {path} defines no class Player",
    "Player({side}) in {path} raised {error}",
    "{path} does not exist",
    "{path} is not an executable program",
    "Permission denied",
)
"""The English sentences :func:`tr_reason` knows (each has a Chinese entry in :mod:`xqdesk.ui.base.i18n`)."""

_FIELD = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    patterns = []
    for template in REASON_TEMPLATES:
        pieces = _FIELD.split(template)  # text, field, text, field, … text
        regex = "".join(re.escape(piece) if index % 2 == 0 else f"(?P<{piece}>.+?)"
                        for index, piece in enumerate(pieces))
        patterns.append((re.compile(regex, re.DOTALL), template))
    return tuple(patterns)


def _translate_one(text: str, depth: int) -> str:
    for pattern, template in _patterns():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        values = {name: _value(value, depth) for name, value in match.groupdict().items()}
        return tr(template).format(**values)
    return text


def _value(value: str, depth: int) -> str:
    """A value in a sentence: a known text (``Red``), a nested known sentence, or itself."""
    translated = tr(value)
    if translated != value or depth >= 4:  # a pasted text's refusal nests four deep
        return translated
    return tr_reason(value, depth + 1)


def tr_reason(text: str, depth: int = 0) -> str:
    """``text`` (an English problem sentence, or several joined by ``; ``) in the interface
    language; sentences not in :data:`REASON_TEMPLATES` stay as they are."""
    if current_language() is Language.ENGLISH or not text:
        return text
    whole = _translate_one(text, depth)
    if whole != text or "; " not in text:
        return whole
    return "；".join(_translate_one(part, depth) for part in text.split("; "))


_COMMAND_LINE = re.compile(r"engine (?:\[[^\]]*\]|\('[^']*'(?:, '[^']*')*\))")
_FROZEN_FRAME = re.compile(r" \(<frozen [^>]*>, line \d+\)")
_EXITED_WITH_CAUSE = re.compile(r"the engine exited with code -?\d+ while (?:waiting for|sending) '[^']*': (?P<cause>.+)",
                                re.DOTALL)


def engine_reason(text: str) -> str:
    """Why an engine could not be used, without program internals, in the interface language."""
    cleaned = _COMMAND_LINE.sub("the engine", text)
    cleaned = _FROZEN_FRAME.sub("", cleaned).replace("xqdesk host: ", "")
    cause = _EXITED_WITH_CAUSE.fullmatch(cleaned.strip())
    if cause is not None:
        cleaned = cause.group("cause")
    return tr_reason(cleaned.strip())
