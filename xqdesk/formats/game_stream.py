"""Reading a record file game by game: memory bounded by one game whatever the file's size, and
progress as it goes.

A text record file is cut into pieces at the lines that begin a game (a PGN tag line, a FEN
line), read a megabyte at a time; each piece is decoded and parsed alone and its games are handed
on one by one (:class:`ReadGame`), each with where its text lies in the file (:class:`GameSpan`),
so a list of a huge file can keep just that and parse a game again when it is opened
(:class:`StoredGames`). Games, errors, their numbers and line numbers are the same as when the
whole text is parsed at once.

The encoding is decided before the first game: a byte-order mark, else UTF-8 when the whole file
decodes as UTF-8 (checked in one quick pass), else the pieces vote as
:func:`~xqdesk.formats.encoding.file_encoding` says. A byte that does not decode costs only its
game (read with the byte replaced, and an error). Encodings that cannot be cut at a line break
(UTF-16 …) are read whole, with the size cap of :mod:`~xqdesk.formats.record_file`.
"""
from __future__ import annotations

import codecs
import inspect
import os
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, overload

from xqdesk.errors import RecordFormatError
from xqdesk.formats.encoding import EncodingVotes, decode_piece, stream_encoding_name
from xqdesk.formats.game_file import (
    NO_GAME,
    WHOLE_FILE,
    ErrorList,
    ErrorsNotListed,
    GameFile,
    GameReadError,
    TextParser,
    file_error,
    source_name,
)
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, open_record_file
from xqdesk.game import Game

CHUNK_BYTES = 1 << 20
"""How much of a file is read at a time."""

Progress = Callable[[int, int], None]
"""``progress(bytes read, bytes in the file)``, called as reading goes on (it may raise to stop)."""

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


@dataclass(frozen=True, slots=True)
class GameSpan:
    """Where a game's text lies: the piece of the file that holds it (``offset``, ``length`` in
    bytes, its first line) and which game of that piece it is (0-based; a piece holds one game
    unless games stand with no movetext between them)."""

    offset: int
    length: int
    first_line: int
    index: int


@dataclass(frozen=True, slots=True)
class ReadGame:
    """One game of a file as it is read: its number (1-based), the game, whether an error was
    found in it (the error is in the stream's ``errors``), and where its text lies (None for a
    file read whole)."""

    number: int
    game: Game
    damaged: bool
    span: GameSpan | None = None


class GameTooLong(RecordFormatError):
    """A piece of a text file (one game's text) longer than the cap: no record is that long."""

    def __init__(self, offset: int, line: int, cap: int) -> None:
        self.offset = offset
        self.line = line
        super().__init__(f"the text from line {line} (byte {offset:,}) holds no new game for more than {cap:,} "
                         f"bytes; no game is that long, so reading stops there")


def read_pieces(handle: BinaryIO, game_start: re.Pattern[bytes], max_piece: int = MAX_RECORD_BYTES,
                chunk: int = CHUNK_BYTES) -> Iterator[tuple[int, int, bytes]]:
    """``(byte offset, first line number, bytes)`` of each piece of the file ``handle``, read
    ``chunk`` bytes at a time: a new piece begins at every line ``game_start`` matches that does
    not follow another such line (tag lines stay together). Raises :class:`GameTooLong` for a
    piece over ``max_piece`` bytes."""
    buffer = b""
    base = 0  # the file offset of buffer[0], always the start of the piece being gathered
    scanned = 0  # buffer index up to which start lines were looked for (a line start)
    previous_end = -2  # file offset just after the last start line found (-2: none yet)
    line = 1
    at_end = False
    while not at_end:
        data = handle.read(chunk)
        at_end = not data
        buffer = buffer + data if buffer else data
        limit = len(buffer) if at_end else buffer.rfind(b"\n") + 1  # whole lines only
        piece_start = base
        for found in game_start.finditer(buffer, scanned, limit) if limit > scanned else ():
            begin = base + found.start()  # the pattern matches from a line's start
            between = buffer[previous_end - base:found.start()] if previous_end >= 0 else b"x"
            if begin > 0 and between.strip() and begin > piece_start:
                piece = buffer[piece_start - base:found.start()]
                yield piece_start, line, piece
                line += piece.count(b"\n")
                piece_start = begin
            newline = buffer.find(b"\n", found.start())
            previous_end = base + (len(buffer) if newline < 0 else newline + 1)
        scanned = max(limit, scanned)
        if piece_start > base:
            buffer = buffer[piece_start - base:]
            scanned -= piece_start - base
            base = piece_start
        if len(buffer) > max_piece and not at_end:
            raise GameTooLong(base, line, max_piece)
    if buffer:
        yield base, line, buffer


def decodes_as_utf8(handle: BinaryIO, chunk: int = CHUNK_BYTES) -> bool:
    """Whether the whole file ``handle`` is UTF-8 (one pass, a chunk at a time)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        while data := handle.read(chunk):
            decoder.decode(data)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


class GameStream:
    """The games of one record file, read as they are iterated (once): each a :class:`ReadGame`.

    ``errors`` grows as reading goes on (capped, as :class:`GameFile`'s); once iterated, a file in
    which nothing at all was read holds a "no game" error. ``format`` and ``encoding`` say how it
    was read (``encoding`` is known once the first game is read). ``parse`` and ``game_start``
    are set for a file read in pieces (:class:`StoredGames` reads a game again with them)."""

    def __init__(self, path: str | Path, produce: Callable[[GameStream], Iterator[ReadGame]],
                 format_name: str | None = None, parse: TextParser | None = None,
                 game_start: re.Pattern[bytes] | None = None, progress: Progress | None = None) -> None:
        self.path = Path(path)
        self.source = source_name(path)
        self.format = format_name
        self.encoding: str | None = None
        self.errors: ErrorList = ErrorList()
        self.parse = parse
        self.game_start = game_start
        self.progress = progress
        self.games_read = 0
        self.done = 0  # bytes (games, for a file read whole) read so far …
        self.total = 0  # … of this many
        self.fingerprint = _fingerprint(self.path)
        self._produce = produce
        self._started = False

    def __iter__(self) -> Iterator[ReadGame]:
        if self._started:
            raise RuntimeError(f"the games of {self.source} were read already (a stream is read once)")
        self._started = True
        for read in self._produce(self):
            self.games_read += 1
            yield read
        if not self.games_read and not self.errors:
            self.errors.append(file_error(self.source, "whole file", NO_GAME))

    def estimated_games(self) -> int:
        """How many games the file holds, as far as can be told yet (exact once read; for a file
        read in pieces, the games so far scaled by the share of bytes read)."""
        if self.done <= 0 or self.total <= 0:
            return self.games_read
        return max(self.games_read, round(self.games_read * self.total / self.done))

    def _report(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.progress is not None:
            self.progress(done, total)

    @property
    def streamed(self) -> bool:
        """Whether the file is read in pieces (its games can be read again one by one)."""
        return self.parse is not None and self.encoding is not None

    def read_all(self) -> GameFile:
        """Every game and error, in memory (for the small files, or callers that need them all)."""
        games = [read.game for read in self]
        return GameFile(self.source, games, self.errors, self.encoding, self.format)

    def stored(self, spans: StoredSpans) -> GameFile:
        """After iterating while keeping ``spans``: a GameFile whose games are read from the file
        when asked for (:class:`StoredGames`), holding only where each lies."""
        if self.parse is None or self.encoding is None:
            raise RuntimeError(f"{self.source} was not read in pieces; its games cannot be read again one by one")
        games = StoredGames(self.path, self.fingerprint, self.encoding, self.parse, spans)
        return GameFile(self.source, games, self.errors, self.encoding, self.format)


def stream_text_file(path: str | Path, encoding: str | None, parse: TextParser, game_start: re.Pattern[bytes],
                     format_name: str | None, whole: Callable[[], GameFile], progress: Progress | None = None,
                     max_piece: int = MAX_RECORD_BYTES) -> GameStream:
    """The games of a text record file in ``parse``'s format, read in pieces cut at ``game_start``
    lines; ``whole()`` reads a file whose encoding cannot be cut in pieces (UTF-16)."""
    def produce(stream: GameStream) -> Iterator[ReadGame]:
        source = stream.source
        try:
            handle = open_record_file(path)
        except RecordFileError as error:
            stream.errors.append(file_error(source, "whole file", error.reason))
            return
        with handle:
            size = os.fstat(handle.fileno()).st_size
            chosen = _choose_encoding(handle, encoding, game_start, max_piece)
            if chosen is None:
                stream.parse = None
                yield from _whole_file_games(stream, whole())
                return
            stream.encoding = chosen
            handle.seek(0)
            try:
                yield from _piece_games(stream, read_pieces(handle, game_start, max_piece), parse, chosen, size)
            except GameTooLong as error:
                stream.errors.append(file_error(source, f"line {error.line}", str(error)))
            except OSError as error:
                stream.errors.append(file_error(source, "whole file", f"cannot be read: {error.strerror or error}"))
    return GameStream(path, produce, format_name, parse, game_start, progress)


def whole_file_stream(path: str | Path, read: Callable[[], GameFile], progress: Progress | None = None) -> GameStream:
    """A stream over a file read whole by ``read()`` (binary formats, match folders …)."""
    def produce(stream: GameStream) -> Iterator[ReadGame]:
        yield from _whole_file_games(stream, read())
    return GameStream(path, produce, progress=progress)


def _whole_file_games(stream: GameStream, record: GameFile) -> Iterator[ReadGame]:
    stream.format = record.format or stream.format
    stream.encoding = record.encoding
    stream.errors.extend(record.errors)
    damaged = record.damaged_game_numbers
    total = len(record.games)
    for number, game in enumerate(record.games, start=1):
        stream._report(number - 1, total)
        yield ReadGame(number, game, number in damaged)
    stream._report(total, total)


def _choose_encoding(handle: BinaryIO, encoding: str | None, game_start: re.Pattern[bytes],
                     max_piece: int) -> str | None:
    """The codec the file's pieces are decoded with, or None when it must be read whole."""
    if encoding:
        return stream_encoding_name(encoding)
    head = handle.read(4)
    if head.startswith(_UTF16_BOMS) or head.startswith(codecs.BOM_UTF32_LE):
        return None
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    handle.seek(0)
    if decodes_as_utf8(handle):
        return "utf-8"
    handle.seek(0)
    votes = EncodingVotes()
    try:
        for _offset, _line, piece in read_pieces(handle, game_start, max_piece):
            votes.add(piece)
    except GameTooLong:
        pass  # the reading proper reports it
    return votes.winner()


def _piece_games(stream: GameStream, pieces: Iterator[tuple[int, int, bytes]], parse: TextParser,
                 encoding: str, size: int) -> Iterator[ReadGame]:
    """The games of each piece, numbered and with their errors renumbered as in the whole file."""
    source = stream.source
    takes_offset = "line_offset" in inspect.signature(parse).parameters
    games_before = 0
    for begin, first_line, piece in pieces:
        text, bad_byte = decode_piece(piece, encoding)
        part = parse(text, source, line_offset=first_line - 1) if takes_offset else parse(text, source)
        found: list[GameReadError] = []
        not_listed: list[GameReadError] = []  # the count of a piece's errors past the cap stays last
        for error in part.errors:
            if isinstance(error, ErrorsNotListed):
                not_listed.append(error)
                continue
            number = error.game_number + games_before if error.game_number != WHOLE_FILE else WHOLE_FILE
            found.append(GameReadError(source, number, error.where, error.text, error.reason))
        if bad_byte is not None:
            line = first_line + piece.count(b"\n", 0, bad_byte)
            found.append(GameReadError(
                source, games_before + 1, f"line {line}, byte {begin + bad_byte}", "",
                f"{piece[bad_byte:bad_byte + 4]!r} cannot be decoded as {encoding}; this game is read with "
                f"the undecodable bytes replaced"))
        found.sort(key=lambda error: error.game_number)
        stream.errors.extend(found + not_listed)
        damaged = {error.game_number for error in found}
        stream._report(begin + len(piece), size)
        for index, game in enumerate(part.games):
            number = games_before + index + 1
            yield ReadGame(number, game, number in damaged, GameSpan(begin, len(piece), first_line, index))
        games_before += max([len(part.games), *(error.game_number for error in part.errors)])


def _fingerprint(path: Path) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return (-1, -1)
    return (info.st_size, info.st_mtime_ns)


class StoredSpans:
    """Where each game of a file lies, kept compactly (four integers a game, in arrays)."""

    def __init__(self) -> None:
        self.offsets = array("q")
        self.lengths = array("q")
        self.first_lines = array("q")
        self.indexes = array("l")

    def add(self, span: GameSpan) -> None:
        self.offsets.append(span.offset)
        self.lengths.append(span.length)
        self.first_lines.append(span.first_line)
        self.indexes.append(span.index)

    def __len__(self) -> int:
        return len(self.offsets)

    def __getitem__(self, index: int) -> GameSpan:
        return GameSpan(self.offsets[index], self.lengths[index], self.first_lines[index], self.indexes[index])


class StoredGames(MutableSequence[Game]):
    """The games of a file read in pieces, each parsed from the file when asked for: memory holds
    where each lies, not the games. A game asked for again is parsed again (a new object), but
    the few last asked for are kept, and a game put in its place (``games[i] = edited``) stays.
    Asking after the file changed on disk raises RecordFormatError saying so. Games cannot be
    added or removed."""

    KEPT = 4
    """How many games last asked for are kept (the same object is returned for them)."""

    def __init__(self, path: Path, fingerprint: tuple[int, int], encoding: str, parse: TextParser,
                 spans: StoredSpans) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.encoding = encoding
        self.parse = parse
        self.spans = spans
        self._takes_offset = "line_offset" in inspect.signature(parse).parameters
        self._replaced: dict[int, Game] = {}
        self._kept: dict[int, Game] = {}

    def __len__(self) -> int:
        return len(self.spans)

    @overload
    def __getitem__(self, index: int) -> Game: ...

    @overload
    def __getitem__(self, index: slice) -> list[Game]: ...

    def __getitem__(self, index: int | slice) -> Game | list[Game]:
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(len(self)))]
        number = index + len(self) if index < 0 else index
        if not 0 <= number < len(self):
            raise IndexError(f"game index {index} out of range ({len(self)} games)")
        if number in self._replaced:
            return self._replaced[number]
        kept = self._kept.pop(number, None)
        game = kept if kept is not None else self._read(number)
        self._kept[number] = game
        while len(self._kept) > self.KEPT:
            del self._kept[next(iter(self._kept))]
        return game

    def __iter__(self) -> Iterator[Game]:
        for number in range(len(self)):
            yield self[number]

    @overload
    def __setitem__(self, index: int, value: Game) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[Game]) -> None: ...

    def __setitem__(self, index: int | slice, value: Game | Iterable[Game]) -> None:
        if isinstance(index, slice) or not isinstance(value, Game):
            raise TypeError("only one game at a time can be replaced in a file's stored games")
        number = index + len(self) if index < 0 else index
        if not 0 <= number < len(self):
            raise IndexError(f"game index {index} out of range ({len(self)} games)")
        self._replaced[number] = value

    def follow_rewrite(self, number: int, game: Game, byte_change: int, line_change: int) -> None:
        """The file was rewritten with game ``number``'s text replaced by ``game``'s, ``byte_change``
        bytes and ``line_change`` lines longer, every other game's bytes as they were (a *Save* of
        one game into its file): ``game`` stands in its place and the other games are found where
        they now lie."""
        spans = self.spans
        piece = spans.offsets[number]
        for index in range(len(spans)):
            if spans.offsets[index] == piece:
                spans.lengths[index] += byte_change
            elif spans.offsets[index] > piece:
                spans.offsets[index] += byte_change
                spans.first_lines[index] += line_change
        self._kept.clear()
        self._replaced[number] = game
        self.fingerprint = _fingerprint(self.path)

    def __delitem__(self, index: int | slice) -> None:
        raise TypeError("games cannot be removed from a file's stored games")

    def insert(self, index: int, value: Game) -> None:
        raise TypeError("games cannot be added to a file's stored games")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, StoredGames)):
            return len(self) == len(other) and all(mine is theirs or mine == theirs
                                                   for mine, theirs in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _read(self, number: int) -> Game:
        span = self.spans[number]
        name = source_name(self.path)
        if _fingerprint(self.path) != self.fingerprint:
            raise RecordFormatError(f"{name} changed on disk since it was read; open it again")
        try:
            handle = open_record_file(self.path)
            with handle:
                handle.seek(span.offset)
                piece = handle.read(span.length)
        except OSError as error:
            raise RecordFormatError(f"{name}: cannot be read: {error.strerror or error}") from None
        text, _bad_byte = decode_piece(piece, self.encoding)
        part = (self.parse(text, name, line_offset=span.first_line - 1) if self._takes_offset
                else self.parse(text, name))
        if span.index >= len(part.games):
            raise RecordFormatError(f"{name}: game {number + 1} is no longer where it was; open the file again")
        return part.games[span.index]
