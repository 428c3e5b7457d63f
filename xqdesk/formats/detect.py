"""Which record format a text is in, and reading it: what *Paste game* and ``xqdesk convert -``
use, and what a ``.txt`` file is read as.

The formats are tried in a fixed order, each by a cheap look at the text (its markers), the first
that fits reading it: DhtmlXQ (UBB, alone or in a web page), XiangQi Bridge's XML, PlayOK's WXF
file, dpxq's plain text, a course history, PGN (a text starting with a tag), and last FEN with
moves or a bare move list in any notation xqdesk reads (ICCS with or without dashes, WXF, Chinese
in simplified or traditional characters, glued together or not, SAN). A text in which none of them
finds a move gives one error naming every format tried.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from xqdesk.formats.ccbridge_xml import looks_like_cbf, parse_cbf
from xqdesk.formats.course_history import history_game
from xqdesk.formats.dhtmlxq import looks_like_dhtmlxq, parse_dhtmlxq
from xqdesk.formats.dpxq_text import looks_like_dpxq_text, parse_dpxq_text
from xqdesk.formats.fen_moves import parse_fen_moves
from xqdesk.formats.game_file import NO_GAME, GameFile, file_error, shorten
from xqdesk.formats.pgn import parse_pgn
from xqdesk.formats.playok_wxf import looks_like_playok_wxf, parse_playok_wxf

HISTORY_START = re.compile(r"^\s*\[\s*(?:[(\[]|\])")
TAG_START = re.compile(r"^\s*\[\s*[A-Za-z]")


@dataclass(frozen=True)
class TextFormat:
    """A record format that comes as text: its name, how it is recognised, how it is read."""

    name: str
    kind: str
    looks_like: Callable[[str], bool]
    parse: Callable[[str, str], GameFile]


def _parse_history(text: str, source: str) -> GameFile:
    """A course history: the game up to its first bad entry (none when no entry reads), and the error."""
    game, problem = history_game(text, source)
    record = GameFile(source, [game] if problem is None or game.next() is not None else [])
    if problem is not None:
        record.errors.append(problem)
    return record


MOVE_LIST = TextFormat("FEN and moves / move list", "fen", lambda text: True, parse_fen_moves)
TEXT_FORMATS: tuple[TextFormat, ...] = (
    TextFormat("DhtmlXQ (UBB)", "dhtmlxq", looks_like_dhtmlxq, parse_dhtmlxq),
    TextFormat("XiangQi Bridge XML (CBF)", "cbf", looks_like_cbf, parse_cbf),
    TextFormat("PlayOK WXF", "playok", looks_like_playok_wxf, parse_playok_wxf),
    TextFormat("dpxq text", "dpxq", looks_like_dpxq_text, parse_dpxq_text),
    TextFormat("course history", "history", lambda text: HISTORY_START.match(text) is not None, _parse_history),
    TextFormat("PGN", "pgn", lambda text: TAG_START.match(text) is not None, parse_pgn),
    MOVE_LIST,
)
"""Every text format, in the order they are tried (the move list last: it takes anything)."""


def detect_text_format(text: str) -> TextFormat:
    """The first format of :data:`TEXT_FORMATS` whose markers ``text`` has."""
    text = text.removeprefix("\ufeff")
    return next(candidate for candidate in TEXT_FORMATS if candidate.looks_like(text))


def read_text(text: str, source: str = "<text>") -> GameFile:
    """The games in ``text``, in whichever format it is; ``GameFile.format`` names it. Never raises:
    a text in which no format finds a move gives one error naming the formats tried."""
    text = text.removeprefix("\ufeff")
    found = detect_text_format(text)
    record = found.parse(text, source)
    record.format = found.name
    if found is MOVE_LIST and not any(game.variations for game in record.games) and (
            record.errors or not record.games):  # no move read (a bare FEN is a record)
        tried = ", ".join(candidate.name for candidate in TEXT_FORMATS)
        detail = f" (as a move list: {record.errors[0].reason})" if record.errors else ""
        reason = (NO_GAME if not text.strip() else
                  f"not a game record in any known format; tried {tried}{detail}: {shorten(text.strip(), 40)!r}")
        record = GameFile(source, errors=[file_error(source, "whole file", reason)])
        record.format = None
    return record
