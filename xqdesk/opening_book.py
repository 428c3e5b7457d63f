"""A compact opening book: for each position of the opening phase of a collection of games, the
moves played, how often, and how the games ended, from the mover's view.

xqdesk ships one built from master games (``resources/book/masters.npz``, see its ``PROVENANCE.md``
and :func:`shipped_book`); ``xqdesk book build`` makes one from any record files, ``xqdesk book
probe`` reads one.

The file is a NumPy ``.npz`` holding one structured array sorted by ``key`` (:data:`ROW_TYPE`):
a row per (position, move) played in at least ``min_games`` games within the first ``max_ply``
plies. ``key`` is the position's canonical key (a position and its mirror image are joined:
:mod:`xqdesk.position_key`), ``move`` is ``from * 128 + to`` as the canonical position plays it,
``games`` the games that played it there (a game counts once per position and move) and ``wins``,
``draws``, ``losses`` those of them with a known result, from the side to move's view. A look-up is
two binary searches (``numpy.searchsorted``) in the sorted keys. ``meta`` holds a JSON text: the
ply limit, the minimum count, the games read and the sources.
"""
from __future__ import annotations

import io
import json
import lzma
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from xqdesk.board import Board
from xqdesk.errors import InputError
from xqdesk.formats import read_games
from xqdesk.formats.pgn import parse_pgn
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.position_index import MoveStats, game_positions, game_result, record_paths
from xqdesk.position_key import canonical_key
from xqdesk.resource_files import resource

BOOK_FORMAT = 1
"""The ``format`` written in a book's ``meta``; a book of a later format is refused."""
DEFAULT_MAX_PLY = 40
"""Positions before this ply (20 moves each side) go in a book by default."""
DEFAULT_MIN_GAMES = 2
"""A move goes in a book by default when at least this many games played it from the position."""
SHIPPED_BOOK = "book/masters.npz"
"""The shipped book, as :func:`xqdesk.resource_files.resource` names it."""
SHIPPED_ATTRIBUTION = ("Yu-Han Tseng and Bo-Nian Chen (2026), Chinese Chess Practical Dataset (CCPD), "
                       "CC BY 4.0")
"""The credit the shipped book's source asks for, wherever something built from it ships."""

ROW_TYPE = np.dtype([("key", "<u8"), ("move", "<u2"), ("games", "<u4"), ("wins", "<u4"),
                     ("draws", "<u4"), ("losses", "<u4")])


class BookFileError(InputError):
    """A file that is not an opening book (or one of a later format), or cannot be read."""


@dataclass
class BuildReport:
    """What :func:`build_book` read: games, games left out (a set-up start), and read errors."""

    games: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)


def _encode(move: Move) -> int:
    return move.from_square << 7 | move.to_square


def _decode(code: int) -> Move:
    return Move(code >> 7, code & 127)


def _pgn_texts(stream: IO[str]) -> Iterator[str]:
    """The text of each game of a PGN stream, one at a time (a game ends where the next one's tags
    begin after movetext)."""
    lines: list[str] = []
    has_moves = False
    for line in stream:
        if line.startswith("[") and has_moves:
            yield "".join(lines)
            lines, has_moves = [], False
        lines.append(line)
        if not has_moves and line.strip() and not line.startswith("["):
            has_moves = True
    if lines:
        yield "".join(lines)


def read_xz_pgn(path: Path, errors: list[str], keep_damaged: bool = True) -> Iterator[Game]:
    """The games of an ``.xz`` file read as a stream of UTF-8 PGN, game by game (so its size is
    not limited); problems are appended to ``errors`` (a game with one is left out unless
    ``keep_damaged``)."""
    try:
        with lzma.open(path, "rt", encoding="utf-8") as stream:
            for number, text in enumerate(_pgn_texts(stream), 1):
                record = parse_pgn(text, f"{path.name}, game {number}")
                errors.extend(str(error) for error in record.errors)
                if keep_damaged or not record.errors:
                    yield from record.games
    except (lzma.LZMAError, UnicodeDecodeError, EOFError) as error:
        errors.append(f"{path}: cannot be read as xz-compressed UTF-8 PGN ({error})")


def undamaged_games(path: Path, errors: list[str]) -> Iterator[Game]:
    """The games of one record file that have no problem in them, its problems appended to
    ``errors``; an ``.xz`` file (such as the CCPD collection) is read as a stream of UTF-8 PGN."""
    if path.suffix.lower() == ".xz":
        yield from read_xz_pgn(path, errors, keep_damaged=False)
        return
    record = read_games(path)
    errors.extend(str(error) for error in record.errors)
    for number, game in enumerate(record.games, start=1):
        if number not in record.damaged_game_numbers:
            yield game


def _games_of(path: Path, report: BuildReport) -> Iterator[Game]:
    """The games of a record file or folder; an ``.xz`` file is read as a stream of UTF-8 PGN,
    game by game (so its size is not limited)."""
    if path.is_file() and path.suffix.lower() == ".xz":
        yield from read_xz_pgn(path, report.errors)
        return
    for found in record_paths(path):
        record = read_games(found)
        report.errors.extend(str(error) for error in record.errors)
        yield from record.games


def build_book(sources: Iterable[str | Path], max_ply: int = DEFAULT_MAX_PLY,
               min_games: int = DEFAULT_MIN_GAMES,
               progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, BuildReport]:
    """The rows of a book of the games in ``sources`` (record files, folders, ``.pgn.xz``
    streams): positions up to ply ``max_ply`` of each game from the standard start (set-up starts
    are skipped), moves played in at least ``min_games`` games. ``progress(games)`` is called
    every 1000 games. A missing source raises FileNotFoundError; unreadable games are reported."""
    standard = Board().zobrist_hash()
    counts: dict[tuple[int, int], list[int]] = {}
    report = BuildReport()
    for source in sources:
        path = Path(source)
        if not path.exists():
            raise FileNotFoundError(f"{str(path)!r}: no such file or folder")
        for game in _games_of(path, report):
            if Board(game.start_fen).zobrist_hash() != standard:
                report.skipped += 1
                continue
            report.games += 1
            if progress is not None and report.games % 1000 == 0:
                progress(report.games)
            result = game_result(game)
            seen: set[tuple[int, int]] = set()
            for ply, key, move in game_positions(game):
                if move is None or ply >= max_ply:
                    break
                entry = (key.key, _encode(key.to_index(move)))
                if entry in seen:
                    continue
                seen.add(entry)
                tally = counts.setdefault(entry, [0, 0, 0, 0])
                tally[0] += 1
                if result is not None:
                    mover = 1 if ply % 2 == 0 else -1  # a standard start: Red moves at even plies
                    tally[1 + (1 - result * mover)] += 1  # wins, draws, losses
    kept = [(key, move, *tally) for (key, move), tally in counts.items() if tally[0] >= min_games]
    rows = np.array(kept, dtype=ROW_TYPE) if kept else np.zeros(0, dtype=ROW_TYPE)
    rows.sort(order=["key", "move"])
    return rows, report


def save_book(path: str | Path, rows: np.ndarray, meta: dict[str, Any]) -> None:
    """Write ``rows`` (sorted by key) and ``meta`` as a book file at ``path`` (compressed)."""
    text = json.dumps({"format": BOOK_FORMAT, **meta}, ensure_ascii=False)
    with open(path, "wb") as out:
        np.savez_compressed(out, rows=rows, meta=np.frombuffer(text.encode("utf-8"), dtype=np.uint8))


class CompactBook:
    """A book file read whole into memory (a few MB); safe to ask from any thread.

    :meth:`moves` answers in microseconds: two binary searches in the sorted keys."""

    def __init__(self, rows: np.ndarray, meta: dict[str, Any], name: str = "book") -> None:
        self.rows = rows
        self.meta = meta
        self.name = name
        self._keys = rows["key"]

    @classmethod
    def load(cls, source: str | Path | IO[bytes], name: str | None = None) -> CompactBook:
        """Read the book at ``source`` (a path or a binary file); BookFileError when it is not one."""
        label = name or (Path(source).name if isinstance(source, (str, Path)) else "book")
        try:
            with np.load(source, allow_pickle=False) as data:
                rows = data["rows"]
                meta = json.loads(bytes(data["meta"]).decode("utf-8"))
        except FileNotFoundError:
            raise BookFileError(f"{str(source)!r}: no such opening book") from None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            raise BookFileError(f"{label!r} is not an opening book: {error}") from None
        if not isinstance(meta, dict) or rows.dtype != ROW_TYPE:
            raise BookFileError(f"{label!r} is not an opening book (unexpected contents)")
        if int(meta.get("format", 0)) > BOOK_FORMAT:
            raise BookFileError(f"{label!r} is an opening book of a newer xqdesk "
                                f"(format {meta.get('format')}, this one reads {BOOK_FORMAT})")
        return cls(rows, meta, label)

    def __len__(self) -> int:
        return len(self.rows)

    def moves(self, board: Board) -> list[MoveStats]:
        """The moves of the book from ``board``'s position (or its mirror image, mirrored back),
        legal here, most played first (ties by ICCS), with results as Red and Black see them."""
        key = canonical_key(board)
        start, end = np.searchsorted(self._keys, np.uint64(key.key), "left"), \
            np.searchsorted(self._keys, np.uint64(key.key), "right")
        found = []
        for row in self.rows[start:end]:
            move = key.from_index(_decode(int(row["move"])))
            if not board.is_legal(move):
                continue  # a key collision, or a position whose history forbids the move
            wins, draws, losses = int(row["wins"]), int(row["draws"]), int(row["losses"])
            red, black = (wins, losses) if board.turn else (losses, wins)
            found.append(MoveStats(move, int(row["games"]), red, draws, black))
        return sorted(found, key=lambda stat: (-stat.games, stat.move.iccs()))

    def position_count(self) -> int:
        """Distinct positions in the book."""
        return int(np.unique(self._keys).size)


_shipped: CompactBook | None = None


def shipped_book() -> CompactBook | None:
    """The master-game book xqdesk ships (read once), or None when this install lacks it."""
    global _shipped
    if _shipped is None:
        try:
            data = resource(SHIPPED_BOOK).read_bytes()
        except FileNotFoundError:
            return None
        _shipped = CompactBook.load(io.BytesIO(data), name="masters.npz")
    return _shipped


def looks_like_book(path: str | Path) -> bool:
    """Whether ``path`` is a book file rather than a position index (a zip file, as ``.npz`` is)."""
    try:
        with open(path, "rb") as stream:
            return stream.read(4) == b"PK\x03\x04"
    except OSError:
        return False


__all__ = ["CompactBook", "BookFileError", "BuildReport", "build_book", "read_xz_pgn", "save_book", "shipped_book", "undamaged_games",
           "looks_like_book", "ROW_TYPE", "DEFAULT_MAX_PLY", "DEFAULT_MIN_GAMES", "SHIPPED_BOOK",
           "SHIPPED_ATTRIBUTION"]
