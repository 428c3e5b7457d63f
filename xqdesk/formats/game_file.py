"""What reading a record file gives: the games, and the problems met on the way."""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, MutableSequence, Self

from xqdesk.errors import RecordFormatError, XqdeskError
from xqdesk.formats.encoding import decode_piece, decode_record, file_encoding
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, read_record_bytes
from xqdesk.game import Game

WHOLE_FILE = 0
"""The ``game_number`` of a problem with the whole file rather than one game."""
QUOTE_LIMIT = 60
"""At most this many characters of a failing text are quoted in a message."""
REASON_LIMIT = 400
"""At most this many characters of a reason are kept (reasons quote the input too)."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with ``…`` and the full length when it was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


class GameReadError(RecordFormatError):
    """A problem in one game of a file: names the file, the game (1-based; :data:`WHOLE_FILE`, 0,
    for a problem with the file as a whole), where (a move number, a line, a byte) and the text
    that failed. Quoted text and the reason are shortened, so a huge bad token gives a short message."""

    def __init__(self, source: str, game_number: int, where: str, text: str, reason: str) -> None:
        self.source = source
        self.game_number = game_number
        self.where = where
        self.text = shorten(text)
        self.reason = shorten(reason, REASON_LIMIT)
        game = f", game {game_number}" if game_number != WHOLE_FILE else ""
        place = f", {where}" if where else ""
        failing = f": {self.text!r}" if text else ""
        super().__init__(f"{source}{game}{place}{failing}: {self.reason}")


def file_error(source: str, where: str, reason: str) -> GameReadError:
    """A problem with the whole file (not one of its games), found at ``where``."""
    return GameReadError(source, WHOLE_FILE, where, "", reason)


NO_GAME = "no game found in the file"

MAX_ERRORS = 1000
"""The most errors a :class:`GameFile` lists; the rest are counted in one last error (a damaged
16 MiB file could otherwise make a million errors, a gigabyte of them)."""


class ErrorsNotListed(GameReadError):
    """The last error of a file with more than :data:`MAX_ERRORS`: how many more there were."""

    def __init__(self, source: str, count: int = 0) -> None:
        super().__init__(source, WHOLE_FILE, "whole file", "", "more errors, not listed")
        self.count = count

    def __str__(self) -> str:
        return f"{self.source}, whole file: {self.count:,} more errors, not listed (the first {MAX_ERRORS:,} are)"


class ErrorList(list[GameReadError]):
    """A file's errors: the first :data:`MAX_ERRORS`, then one :class:`ErrorsNotListed` that counts
    the others, so the memory errors take is bounded whatever the file holds."""

    def __init__(self, errors: Iterable[GameReadError] = ()) -> None:
        super().__init__()
        self._not_listed: ErrorsNotListed | None = None
        self.extend(errors)

    def append(self, error: GameReadError) -> None:
        if isinstance(error, ErrorsNotListed):
            self._count_not_listed(error.source, error.count)
        elif len(self) - (self._not_listed is not None) < MAX_ERRORS:
            super().append(error)
        else:
            self._count_not_listed(error.source, 1)

    def extend(self, errors: Iterable[GameReadError]) -> None:
        for error in errors:
            self.append(error)

    def __iadd__(self, errors: Iterable[GameReadError]) -> Self:  # type: ignore[misc,override]
        self.extend(errors)
        return self

    def sort(self, *, key: Callable[[GameReadError], Any] | None = None, reverse: bool = False) -> None:
        """Sort the errors listed; the count of the others stays last."""
        if self._not_listed is not None:
            super().remove(self._not_listed)
        super().sort(key=key, reverse=reverse)
        if self._not_listed is not None:
            super().append(self._not_listed)

    def _count_not_listed(self, source: str, count: int) -> None:
        if self._not_listed is None:
            self._not_listed = ErrorsNotListed(source)
            super().append(self._not_listed)
        self._not_listed.count += count


@dataclass
class GameFile:
    """The games read from one file (or folder) and the errors met.

    A game in which an error was found is kept with the moves read before the error, so
    ``games`` can hold damaged games: each error's ``game_number`` says which (1-based)."""

    source: str
    games: MutableSequence[Game] = field(default_factory=list)
    errors: list[GameReadError] = field(default_factory=ErrorList)
    """At most :data:`MAX_ERRORS` errors, then one that counts the rest (an :class:`ErrorList`)."""
    encoding: str | None = None
    format: str | None = None
    """The record format the games were read as (``'PGN'``, ``'DhtmlXQ (UBB)'`` …), when known."""

    def __post_init__(self) -> None:
        if not isinstance(self.errors, ErrorList):
            self.errors = ErrorList(self.errors)

    @property
    def damaged_game_numbers(self) -> set[int]:
        """The games (1-based) an error was found in (never :data:`WHOLE_FILE`)."""
        return {error.game_number for error in self.errors if error.game_number != WHOLE_FILE}

    def note_if_empty(self, where: str = "whole file") -> GameFile:
        """Add an error when nothing at all was read: an empty file is a problem, not 0 games."""
        if not self.games and not self.errors:
            self.errors.append(file_error(self.source, where, NO_GAME))
        return self

    def raise_first_error(self) -> None:
        """Raise the first error, if any (for callers that want all or nothing)."""
        if self.errors:
            raise self.errors[0]


def source_name(path: str | Path) -> str:
    """How a file is named in messages: its name only (never the folders it sits in)."""
    return Path(path).name


TextParser = Callable[..., GameFile]
"""``parse(text, source)`` giving the games of a text; :func:`read_text_records` also passes
``line_offset`` (added to the line numbers errors give) to a parser that takes it."""


TAG_LINE_START = re.compile(rb'^[ \t]*(?:\xef\xbb\xbf)?\[[ \t]*[A-Za-z0-9_]+[ \t]*"', re.MULTILINE)
"""A line that begins a PGN-like game's tags, in a file's bytes: where a damaged file is cut in
pieces unless its format says otherwise."""


def read_text_records(path: str | Path, encoding: str | None, parse: TextParser,
                      game_start: re.Pattern[bytes] = TAG_LINE_START, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Decode a text record file (encoding detected unless given) and ``parse(text, source)`` it;
    an unreadable file gives a GameFile holding just that error, an empty one a "no game" error.

    When the file does not decode as a whole (a bad byte, a file cut mid-character), it is decoded
    game by game — pieces start at lines ``game_start`` matches — so a bad byte costs only the game
    it is in: that game gets an error naming the byte, and is read with the byte replaced."""
    source = source_name(path)
    try:
        data = read_record_bytes(path, max_bytes)
    except RecordFileError as error:
        return GameFile(source, errors=[file_error(source, "whole file", error.reason)])
    chosen: str | None = None
    if encoding is None and not data.startswith(_BOMS):
        try:
            text, used = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:  # a legacy file, or a UTF-8 one with damage: judged game by game
            pieces = _split_pieces(data, game_start)
            chosen = file_encoding([piece for _start, _line, piece in pieces])
            if chosen == "utf-8" or chosen is None:
                return _read_pieces(pieces, "utf-8", parse, source).note_if_empty()
            try:
                text, used = data.decode(chosen), chosen
            except UnicodeDecodeError:
                return _read_pieces(pieces, chosen, parse, source).note_if_empty()
    else:
        try:
            text, used = decode_record(data, encoding, source)
        except XqdeskError as error:
            chosen = file_encoding([data], encoding)  # None for UTF-16, which cannot be cut in pieces
            if chosen is None:
                return GameFile(source, errors=[file_error(source, "whole file", _drop_source(str(error), source))])
            return _read_pieces(_split_pieces(data, game_start), chosen, parse, source).note_if_empty()
    game_file = parse(text, source)
    game_file.encoding = used
    return game_file.note_if_empty()


_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _drop_source(message: str, source: str) -> str:
    return message.removeprefix(f"{source}: ")


def _split_pieces(data: bytes, game_start: re.Pattern[bytes]) -> list[tuple[int, int, bytes]]:
    """``(byte offset, first line number, bytes)`` of each piece of ``data``: a new piece begins at
    every line ``game_start`` matches that does not follow another such line."""
    starts = [0]
    previous_end = -2
    for found in game_start.finditer(data):
        begin = found.start()
        line_start = data.rfind(b"\n", 0, begin) + 1
        between = data[previous_end:line_start] if previous_end >= 0 else b"x"
        if line_start > 0 and between.strip():  # not right after the previous start line
            starts.append(line_start)
        newline = data.find(b"\n", begin)
        previous_end = len(data) if newline < 0 else newline + 1
    starts = sorted(set(starts))
    pieces = []
    line = 1
    for index, begin in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(data)
        pieces.append((begin, line, data[begin:end]))
        line += data.count(b"\n", begin, end)
    return pieces


def _read_pieces(pieces: list[tuple[int, int, bytes]], encoding: str, parse: TextParser, source: str) -> GameFile:
    result = GameFile(source, encoding=encoding)
    takes_offset = "line_offset" in inspect.signature(parse).parameters
    games_before = 0
    for begin, first_line, piece in pieces:
        text, bad_byte = decode_piece(piece, encoding)
        part = parse(text, source, line_offset=first_line - 1) if takes_offset else parse(text, source)
        result.games.extend(part.games)
        for error in part.errors:
            if isinstance(error, ErrorsNotListed):  # counted as they are, with no game to renumber
                result.errors.append(error)
                continue
            number = error.game_number + games_before if error.game_number != WHOLE_FILE else WHOLE_FILE
            result.errors.append(GameReadError(source, number, error.where, error.text, error.reason))
        if bad_byte is not None:
            line = first_line + piece.count(b"\n", 0, bad_byte)
            result.errors.append(GameReadError(
                source, games_before + 1, f"line {line}, byte {begin + bad_byte}", "",
                f"{piece[bad_byte:bad_byte + 4]!r} cannot be decoded as {encoding}; this game is read with "
                f"the undecodable bytes replaced"))
        numbers = [error.game_number for error in part.errors]
        games_before += max([len(part.games), *numbers])
    result.errors.sort(key=lambda error: error.game_number)
    return result
