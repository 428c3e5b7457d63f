"""Saving one game of a file that holds several: the file is written back with only that game's
text replaced.

The file is cut into pieces where games begin (a PGN game's first tag line, a ``.fen`` file's
lines, a ``[DhtmlXQ]`` block) and each piece is read on its own: the file can have one game
replaced only when every piece holds exactly one game (pieces holding no game, like a heading,
are kept as they are) and there are as many as were read when it was opened. Then the bytes before
and after the game's piece are written back unchanged, byte for byte (other games' text,
comments, variations, encoding, line ends), and the new game is written in the file's own
encoding and line ends, in the notation its piece named (PGN's ``Format`` tag). The write is
atomic (:mod:`~xqdesk.formats.atomic_write`).

When the file cannot be cut so, :class:`GameNotReplaceable` says why (a damaged game, an encoding
that cannot hold the game's text, a file changed by another program since it was read), and
nothing is written: the caller offers *Save as*.
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xqdesk.errors import RecordFormatError
from xqdesk.formats.atomic_write import write_bytes_atomically
from xqdesk.formats.dhtmlxq import format_dhtmlxq, parse_dhtmlxq
from xqdesk.formats.encoding import decode_piece, decode_record, file_encoding
from xqdesk.formats.fen_moves import GAME_START as FEN_GAME_START
from xqdesk.formats.fen_moves import format_fen_moves, parse_fen_moves
from xqdesk.formats.game_file import GameFile
from xqdesk.formats.pgn import GAME_START as PGN_GAME_START
from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.formats.record_file import read_record_bytes
from xqdesk.game import Game
from xqdesk.notation import Notation

_DHTMLXQ_START = re.compile(rb"^[ \t]*\[DhtmlXQ\]", re.MULTILINE | re.IGNORECASE)
_FORMAT_TAG = re.compile(r'^[ \t]*\[[ \t]*Format[ \t]*"([^"\n]*)"', re.MULTILINE)
_NOTATIONS = {"iccs": Notation.ICCS, "wxf": Notation.WXF, "chinese": Notation.CHINESE}


@dataclass(frozen=True)
class _Layout:
    """How one format's games are found and written."""

    game_start: re.Pattern[bytes]
    merge_adjacent: bool  # consecutive start lines are one game's (PGN tags), not one game each
    parse: Callable[[str, str], GameFile]
    write: Callable[[Game, Notation], str]


_LAYOUTS = {
    ".pgn": _Layout(PGN_GAME_START, True, parse_pgn, format_pgn),
    ".fen": _Layout(FEN_GAME_START, False, parse_fen_moves, lambda game, _notation: format_fen_moves(game) + "\n"),
    ".ubb": _Layout(_DHTMLXQ_START, False, parse_dhtmlxq, lambda game, _notation: format_dhtmlxq(game)),
}
REPLACEABLE_SUFFIXES = tuple(_LAYOUTS)
"""The file types whose games can be replaced one at a time."""


class GameNotReplaceable(RecordFormatError):
    """A file in which one game cannot be replaced alone; ``str()`` names the file and says why."""


def file_stamp(path: str | Path) -> tuple[int, int]:
    """``(size, modification time in ns)`` of ``path``: what tells whether it changed since."""
    info = Path(path).stat()
    return info.st_size, info.st_mtime_ns


def _pieces(data: bytes, layout: _Layout) -> list[tuple[int, int]]:
    """``(begin, end)`` byte offsets of the pieces of ``data``: each starts at a game's start line
    (the first piece also holds whatever comes before the first game)."""
    starts = [0]
    previous_end = -1
    for found in layout.game_start.finditer(data):
        line_start = data.rfind(b"\n", 0, found.start()) + 1
        follows_start = layout.merge_adjacent and previous_end >= 0 and not data[previous_end:line_start].strip()
        if line_start > 0 and not follows_start:
            starts.append(line_start)
        newline = data.find(b"\n", found.start())
        previous_end = len(data) if newline < 0 else newline + 1
    starts = sorted(set(starts))
    return [(begin, starts[index + 1] if index + 1 < len(starts) else len(data)) for index, begin in enumerate(starts)]


@dataclass(frozen=True)
class GameSpans:
    """Where each game of a file lies: what :func:`replace_game` needs, found once by
    :func:`find_game_spans` (reading every game) and kept up to date by each replacement."""

    path: Path
    stamp: tuple[int, int]
    """:func:`file_stamp` of the file the spans were found in (a changed file is refused)."""
    encoding: str
    prefix: bytes
    """A UTF-8 byte-order mark the file starts with, or nothing; offsets count after it."""
    spans: tuple[tuple[int, int, str], ...]
    """``(begin, end, Format tag's notation or '')`` of each game's bytes, in file order."""

    def game_bytes(self, number: int) -> bytes:
        """Game ``number``'s bytes (0-based) as the file holds them now."""
        begin, end, _notation = self.spans[number]
        with open(self.path, "rb") as handle:
            handle.seek(len(self.prefix) + begin)
            return handle.read(end - begin)


def find_game_spans(path: str | Path, games_read: int, stamp: tuple[int, int] | None = None) -> GameSpans:
    """The games' places in ``path``, which held ``games_read`` games when it was read (and had
    ``stamp``, :func:`file_stamp`, when given). Reads every game again (the cost of reading the
    file). Raises :class:`GameNotReplaceable` when the file cannot have one game replaced alone,
    RecordFileError when it cannot be read."""
    path = Path(path)
    name = path.name
    layout = _LAYOUTS.get(path.suffix.lower())
    if layout is None:
        raise GameNotReplaceable(f"{name}: one game of a {path.suffix or 'suffixless'} file cannot be saved alone")
    before = file_stamp(path)
    data = read_record_bytes(path)
    if (stamp is not None and before != stamp) or file_stamp(path) != before:
        raise GameNotReplaceable(f"{name} was changed by another program since it was opened")
    prefix = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    body = data[len(prefix):]
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise GameNotReplaceable(f"{name} is UTF-16 text, which xqdesk does not rewrite in part")
    try:
        encoding = "utf-8" if prefix else decode_record(body, None, name)[1]
    except RecordFormatError:
        encoding = file_encoding([body[begin:end] for begin, end in _pieces(body, layout)]) or "utf-8"
    spans: list[tuple[int, int, str]] = []
    for begin, end in _pieces(body, layout):
        text, bad_byte = decode_piece(body[begin:end], encoding)
        if bad_byte is not None:
            raise GameNotReplaceable(f"{name}: byte {len(prefix) + begin + bad_byte} cannot be read as {encoding}")
        part = layout.parse(text, name)
        if part.errors:
            raise GameNotReplaceable(f"{name} holds a damaged game ({part.errors[0].reason}), so its games "
                                     f"cannot be told apart safely")
        if len(part.games) > 1:
            raise GameNotReplaceable(f"{name}: its games cannot be told apart (more than one game in a piece)")
        if part.games:
            spans.append((begin, end, _notation_name(text)))
    if len(spans) != games_read:
        raise GameNotReplaceable(f"{name} now holds {len(spans)} games where {games_read} were read")
    return GameSpans(path, before, encoding, prefix, tuple(spans))


def replace_game(spans: GameSpans, number: int, game: Game, notation: Notation = Notation.ICCS) -> GameSpans:
    """Write ``game`` in place of game ``number`` (0-based) of the file ``spans`` describes; the
    other bytes stay as they are. PGN moves are written in the notation the old game's text was in
    (its ``Format`` tag, or its moves), else ``notation``; ICCS when the file's encoding cannot
    hold that notation. Returns the spans of the file written.

    Raises :class:`GameNotReplaceable` (nothing written) when the file changed since ``spans``
    were found or its encoding cannot hold the game's text;
    :class:`~xqdesk.formats.atomic_write.FileWriteError` when writing failed (the file is
    unchanged); RecordFileError when it cannot be read."""
    path = spans.path
    name = path.name
    layout = _LAYOUTS[path.suffix.lower()]
    if not 0 <= number < len(spans.spans):
        raise GameNotReplaceable(f"{name} has no game {number + 1}")
    data = read_record_bytes(path)
    if file_stamp(path) != spans.stamp or len(data) != spans.stamp[0]:
        raise GameNotReplaceable(f"{name} was changed by another program since it was opened")
    body = data[len(spans.prefix):]
    begin, end, old_notation = spans.spans[number]
    chosen = _NOTATIONS.get(old_notation, notation)
    new_bytes, written_notation = _game_bytes(game, layout, chosen, spans.encoding, name)
    old_bytes = body[begin:end]
    if b"\r\n" in old_bytes or (b"\n" not in old_bytes and b"\r\n" in body):
        new_bytes = new_bytes.replace(b"\n", b"\r\n")
    if end < len(body) and not new_bytes.endswith(b"\n"):
        new_bytes += b"\n"
    write_bytes_atomically(path, spans.prefix + body[:begin] + new_bytes + body[end:])
    shift = len(new_bytes) - (end - begin)
    updated = [*spans.spans[:number], (begin, begin + len(new_bytes), written_notation)]
    updated.extend((later_begin + shift, later_end + shift, later) for later_begin, later_end, later
                   in spans.spans[number + 1:])
    return GameSpans(path, file_stamp(path), spans.encoding, spans.prefix, tuple(updated))


_CHINESE_MOVE = re.compile(r"[进進退平][一二三四五六七八九1-9１-９]")
_ICCS_MOVE = re.compile(r"(?<![A-Za-z0-9])[a-iA-I][0-9]-?[a-iA-I][0-9](?![A-Za-z0-9])")
_WXF_MOVE = re.compile(r"(?<![A-Za-z0-9])[KAEBHNRCPkaebhnrcp+\-=.][1-9+\-=.][+\-=.][1-9](?![A-Za-z0-9])")


def _notation_name(text: str) -> str:
    """The notation a game's text is written in (``'iccs'``, ``'wxf'``, ``'chinese'``), from its
    ``Format`` tag or else its moves; ``''`` when neither tells."""
    named = _FORMAT_TAG.search(text)
    if named is not None and named.group(1).strip().lower() in _NOTATIONS:
        return named.group(1).strip().lower()
    moves = unicodedata.normalize("NFKC", text[max(text.rfind("]\n"), 0):])  # after the tags; Ｃ２＝５ is C2=5
    for pattern, notation in ((_CHINESE_MOVE, "chinese"), (_ICCS_MOVE, "iccs"), (_WXF_MOVE, "wxf")):
        if pattern.search(moves):
            return notation
    return ""


def _game_bytes(game: Game, layout: _Layout, notation: Notation, encoding: str,
               name: str) -> tuple[bytes, str]:
    """The game's new text in ``encoding`` and the notation it is in: ``notation``, or ICCS
    (plain letters) when that notation's characters are not in the encoding."""
    failed: UnicodeEncodeError | None = None
    for attempt in dict.fromkeys((notation, Notation.ICCS)):
        text = layout.write(game, attempt)
        try:
            return text.encode(encoding), _NOTATION_NAMES.get(attempt, "")
        except UnicodeEncodeError as error:
            failed = error
    assert failed is not None
    raise GameNotReplaceable(f"{name} is {encoding} text, which cannot hold {failed.object[failed.start]!r} "
                             f"of this game")


_NOTATION_NAMES = {notation: name for name, notation in _NOTATIONS.items()}


__all__ = ["GameNotReplaceable", "GameSpans", "REPLACEABLE_SUFFIXES", "file_stamp", "find_game_spans", "replace_game"]
