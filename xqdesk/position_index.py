"""An opening explorer's position index: every position of every game of a collection, in SQLite.

:class:`PositionIndex` reads any record :func:`xqdesk.formats.read_games` reads (PGN, XQF, FEN
files, course histories and match folders; a plain folder is searched for them) and stores, for each
position of each game's main line, its canonical key (a position and its mirror image are joined:
see :mod:`xqdesk.position_key`), the game and the move played from it. :meth:`PositionIndex.moves`
then tells, for any position, the moves played from it with their games and results, and
:meth:`PositionIndex.games` the games that reached it.

Files are remembered by path, size and modification time: adding a file again skips it unless it
changed (then its old games are replaced). A game counts once per position and move even when it
passes the position twice. Results come from the record's outcome (or its ``Result`` tag); a game
without one counts in the games only.

The schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`)::

    files(id, path, size, mtime_ns, games, errors)
    games(id, file_id, number, red, black, event, date, result, plies, start_fen, headers)
    positions(key, move, game_id, ply)    -- WITHOUT ROWID, primary key (key, move, game_id)

``result`` is 1 (Red won), 0 (draw), -1 (Black won) or NULL; ``move`` is ``from * 128 + to`` as the
canonical position plays it, -1 for the last position of a game; ``ply`` the first ply the game
stood there.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xqdesk.board import Board
from xqdesk.errors import InputError
from xqdesk.formats import READ_EXTENSIONS, is_match_folder, open_games
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.position_key import CanonicalKey, KeyedReplay, canonical_key

SCHEMA_VERSION = 1
CANCEL_CHECK_GAMES = 50
"""A build asks whether it is cancelled every this many games."""
NO_MOVE = -1
"""The ``move`` stored for the last position of a game (reached, nothing played from it)."""
WRITER_WAIT = 60.0
"""Seconds a build waits for another one writing the same index (each file is one short
transaction, so two windows indexing at once take turns) before it refuses with a message."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    games INTEGER NOT NULL, errors INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), number INTEGER NOT NULL,
    red TEXT NOT NULL, black TEXT NOT NULL, event TEXT NOT NULL, date TEXT NOT NULL, result INTEGER,
    plies INTEGER NOT NULL, start_fen TEXT NOT NULL, headers TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_file ON games(file_id);
CREATE TABLE IF NOT EXISTS positions (
    key INTEGER NOT NULL, move INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY (key, move, game_id)) WITHOUT ROWID;
"""


_SQLITE_CORRUPT = 11
"""SQLite's error code for a damaged database file (a file that is no database at all is 26)."""
_DAMAGED_CODES = frozenset({_SQLITE_CORRUPT, 26})
_SQLITE_FULL = 13
_SQLITE_IOERR = 10
_SQLITE_CANTOPEN = 14
_PERMISSION_CODES = frozenset({8, 3, 23})  # READONLY, PERM, AUTH


def _with_folder(error: str, path: Path) -> str:
    """A record's error, which names its file, naming it with its folder (``games/a/x.pgn, game 3 …``):
    a folder's files can share a name."""
    return str(path) + error[len(path.name):] if error.startswith(path.name) else f"{path}: {error}"


class PositionIndexError(InputError):
    """A file that is not a position index (or one of a newer schema), a damaged one (the message
    says how to build it again), one that could not be written (a full disk, no permission: the
    message says so, and the index keeps what it held), or one another writer held for longer
    than its wait."""


@dataclass(frozen=True)
class MoveStats:
    """One move played from a position: how many games played it and how they ended (games
    with no recorded result count in ``games`` only)."""

    move: Move
    games: int
    red_wins: int
    draws: int
    black_wins: int

    @property
    def decided(self) -> int:
        """Games with a known result."""
        return self.red_wins + self.draws + self.black_wins

    def red_score(self) -> float | None:
        """Red's average result over the games with a known result (1 win, ½ draw), None if none."""
        if not self.decided:
            return None
        return (self.red_wins + 0.5 * self.draws) / self.decided


@dataclass(frozen=True)
class IndexedGame:
    """A game that reached a position: where to find it (``path``, ``number`` 0-based in the file)
    and the ply at which it first stood there."""

    game_id: int
    path: str
    number: int
    red: str
    black: str
    event: str
    date: str
    result: int | None
    ply: int
    plies: int

    def result_text(self) -> str:
        """``'1-0'``, ``'½-½'``, ``'0-1'`` or ``'*'``."""
        return {1: "1-0", 0: "½-½", -1: "0-1"}.get(self.result, "*") if self.result is not None else "*"


@dataclass(frozen=True)
class IndexReport:
    """What one :meth:`PositionIndex.add` call did."""

    files_added: int = 0
    files_skipped: int = 0
    games: int = 0
    positions: int = 0
    errors: tuple[str, ...] = ()
    cancelled: bool = False
    """True when the build was stopped by ``cancelled()``: the file in hand was left out whole."""


class _Cancelled(Exception):
    """Raised inside a file's transaction to roll it back when the build is cancelled."""


def _signed(key: int) -> int:
    """A 64-bit key as SQLite's signed integer."""
    return key - (1 << 64) if key >= 1 << 63 else key


def _encode(move: Move) -> int:
    return move.from_square << 7 | move.to_square


def _decode(code: int) -> Move:
    return Move(code >> 7, code & 127)


def game_result(game: Game) -> int | None:
    """1 (Red won), 0 (draw), -1 (Black won) or None, from the outcome or else the ``Result`` tag."""
    if game.outcome is not None:
        token = game.outcome.result()
    else:
        token = game.headers.get("Result", "").strip()
    return {"1-0": 1, "0-1": -1, "1/2-1/2": 0, "½-½": 0}.get(token)


def record_paths(path: Path) -> Iterator[Path]:
    """The record files and match folders at ``path``: itself when it is a file or a match folder,
    else every one found below the folder (sorted, so the order is stable)."""
    if path.is_file() or is_match_folder(path):
        yield path
        return
    if not path.is_dir():
        raise FileNotFoundError(f"{str(path)!r}: no such file or folder")
    for child in sorted(path.iterdir()):
        if child.is_dir() or child.suffix.lower() in READ_EXTENSIONS:
            yield from record_paths(child)


def _fingerprint(path: Path) -> tuple[int, int]:
    """Size and modification time of a file, or of everything in a match folder."""
    if path.is_file():
        stat = path.stat()
        return stat.st_size, stat.st_mtime_ns
    size = mtime = 0
    for child in sorted(path.rglob("*")):
        if child.is_file():
            stat = child.stat()
            size += stat.st_size
            mtime = max(mtime, stat.st_mtime_ns)
    return size, mtime


def game_positions(game: Game) -> Iterator[tuple[int, CanonicalKey, Move | None]]:
    """Each position of ``game``'s main line: its ply, canonical key and the move played there
    (None at the end). Stops before a move that does not fit the board (a damaged record)."""
    replay = KeyedReplay(Board(game.start_fen, ruleset=game.ruleset))
    board = replay.board
    ply = 0
    for move in game.mainline_moves():
        code = board.code_at(move.from_square)
        if code == 0 or (code > 0) != board.turn:
            break
        yield ply, replay.key(), move
        replay.push(move)
        ply += 1
    yield ply, replay.key(), None


class PositionIndex:
    """A position index in the SQLite file ``path`` (created when missing).

    One object per thread (SQLite connections stay in the thread that made them). Use as a context
    manager, or :meth:`close` it."""

    def __init__(self, path: str | Path, *, create: bool = True, writer_wait: float = WRITER_WAIT) -> None:
        self.path = Path(path)
        if self.path.exists() and not self.path.is_file():
            raise PositionIndexError(f"{str(self.path)!r} is not a file, so not a position index")
        if not create and not self.path.is_file():
            raise PositionIndexError(f"{str(self.path)!r}: no such position index")
        try:
            self._db = sqlite3.connect(str(self.path), timeout=writer_wait)
        except sqlite3.Error as error:
            raise PositionIndexError(f"{str(self.path)!r} cannot be opened as a position index: {error}") from None
        self.writer_wait = writer_wait
        try:
            with self._guard():
                self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorcode", None) == _SQLITE_CORRUPT or "malformed" in str(error):
                raise self._damaged(error) from None  # an index whose first pages are damaged or cut short
            raise PositionIndexError(f"{str(self.path)!r} is not a position index: {error}") from None
        if version > SCHEMA_VERSION:
            raise PositionIndexError(f"{str(self.path)!r} is a position index of a newer xqdesk "
                                     f"(schema {version}, this one reads {SCHEMA_VERSION})")
        if tables and "positions" not in tables:
            raise PositionIndexError(f"{str(self.path)!r} is an SQLite file but not a position index "
                                     f"(tables: {', '.join(sorted(tables))})")
        if tables and version == SCHEMA_VERSION:
            return  # nothing to write: opening to read never waits for a build in another window
        if not tables:  # a new index: readers (the explorer) may read while a build writes
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.executescript(_SCHEMA)
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._db.commit()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn SQLite's errors into PositionIndexError: a damaged file says how to build it again,
        a writer that held the index past :attr:`writer_wait` says so."""
        try:
            yield
        except sqlite3.OperationalError as error:
            text = str(error)
            if "locked" in text or "busy" in text:
                raise PositionIndexError(
                    f"{str(self.path)!r}: another program was writing to this index and did not finish within "
                    f"{self.writer_wait:g} s ({text}); try again when it has") from None
            raise self._problem(error) from None
        except sqlite3.DatabaseError as error:
            raise self._problem(error) from None

    def _problem(self, error: sqlite3.Error) -> PositionIndexError:
        """The error for a failure of SQLite, named by its cause: only a damaged file (SQLite's
        CORRUPT or NOTADB) is called damaged; a full disk, a file size limit, a disk error or
        no permission to write says so, and that the index keeps what it held before."""
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        where = str(self.path)
        kept = "the index keeps the files indexed before this one"
        if code in _DAMAGED_CODES:
            return self._damaged(error)
        if code == _SQLITE_FULL:
            return PositionIndexError(f"{where!r} could not be written: the disk is full ({error}); {kept}: free "
                                      f"some space and index again")
        if code == _SQLITE_IOERR:
            return PositionIndexError(f"{where!r} could not be written: the disk refused the write (a full disk, "
                                      f"a file size limit or a failing disk: {error}); {kept}")
        if code in _PERMISSION_CODES:
            return PositionIndexError(f"{where!r} could not be written: permission denied ({error}); {kept}")
        if code == _SQLITE_CANTOPEN:
            return PositionIndexError(f"{where!r} could not be opened for writing ({error}): check that its "
                                      f"folder exists and may be written")
        return PositionIndexError(f"{where!r}: the index could not be used: {error}")

    def _damaged(self, error: sqlite3.Error) -> PositionIndexError:
        return PositionIndexError(
            f"{str(self.path)!r} is damaged ({error}): delete it and build it again from the record files, "
            f"with 'xqdesk index {self.path.name} FILE…' or Index games… in the window")

    def __enter__(self) -> PositionIndex:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # --- building ----------------------------------------------------------------------------
    def add(self, paths: Iterable[str | Path], progress: Callable[[str, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None,
            game_progress: Callable[[int, int], None] | None = None) -> IndexReport:
        """Index the record files and folders ``paths`` (see :func:`record_paths`); files already
        indexed and unchanged are skipped, changed ones re-indexed. ``progress(name, games)`` is
        called after each file, ``game_progress(done, games)`` after each game of the file in
        hand. ``cancelled()``, asked between files and every few games, stops the build (each file
        is one transaction: the one in hand is rolled back). Read errors are reported, never
        raised; a missing path is an error. A damaged index, or another writer holding it past
        :attr:`writer_wait`, raises PositionIndexError (files done so far stay)."""
        added = skipped = games = positions = 0
        errors: list[str] = []
        found: list[Path] = []
        for given in paths:
            try:
                found.extend(record_paths(Path(given)))
            except OSError as error:
                errors.append(str(error))
        for path in found:
            if cancelled is not None and cancelled():
                return IndexReport(added, skipped, games, positions, tuple(errors), cancelled=True)
            resolved = str(path.resolve())
            size, mtime = _fingerprint(path)
            with self._guard():
                row = self._db.execute("SELECT id, size, mtime_ns FROM files WHERE path = ?", (resolved,)).fetchone()
            if row is not None and (row[1], row[2]) == (size, mtime):
                skipped += 1
                continue
            stream = open_games(path)  # a game at a time: a file of any size in bounded memory
            file_games = 0
            try:
                with self._guard(), self._db:
                    if row is not None:
                        self._forget_file(row[0])
                    file_id = int(self._db.execute(
                        "INSERT INTO files (path, size, mtime_ns, games, errors) VALUES (?, ?, ?, ?, ?)",
                        (resolved, size, mtime, 0, 0)).lastrowid or 0)
                    added_positions = 0
                    for read in stream:
                        if cancelled is not None and file_games % CANCEL_CHECK_GAMES == 0 and cancelled():
                            raise _Cancelled
                        added_positions += self._add_game(file_id, file_games, read.game)
                        file_games += 1
                        if game_progress is not None:
                            game_progress(file_games, stream.estimated_games())
                    self._db.execute("UPDATE files SET games = ?, errors = ? WHERE id = ?",
                                     (file_games, len(stream.errors), file_id))
            except _Cancelled:
                return IndexReport(added, skipped, games, positions, tuple(errors), cancelled=True)
            positions += added_positions
            errors.extend(_with_folder(str(error), path) for error in stream.errors)
            added += 1
            games += file_games
            if progress is not None:
                progress(path.name, file_games)
        return IndexReport(added, skipped, games, positions, tuple(errors))

    def _forget_file(self, file_id: int) -> None:
        self._db.execute("DELETE FROM positions WHERE game_id IN (SELECT id FROM games WHERE file_id = ?)",
                         (file_id,))
        self._db.execute("DELETE FROM games WHERE file_id = ?", (file_id,))
        self._db.execute("DELETE FROM files WHERE id = ?", (file_id,))

    def _add_game(self, file_id: int, number: int, game: Game) -> int:
        headers = game.headers
        rows = list(game_positions(game))
        game_id = self._db.execute(
            "INSERT INTO games (file_id, number, red, black, event, date, result, plies, start_fen, headers) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (file_id, number, headers.get("Red", ""), headers.get("Black", ""), headers.get("Event", ""),
             headers.get("Date", ""), game_result(game), rows[-1][0], game.start_fen,
             json.dumps(headers, ensure_ascii=False))).lastrowid
        self._db.executemany(
            "INSERT OR IGNORE INTO positions (key, move, game_id, ply) VALUES (?, ?, ?, ?)",
            [(_signed(key.key), NO_MOVE if move is None else _encode(key.to_index(move)), game_id, ply)
             for ply, key, move in rows])
        return len(rows)

    # --- asking ------------------------------------------------------------------------------
    def _rows(self, sql: str, parameters: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query; a damaged index raises PositionIndexError saying how to rebuild it."""
        with self._guard():
            return self._db.execute(sql, parameters).fetchall()

    def moves(self, board: Board) -> list[MoveStats]:
        """The moves played from ``board``'s position (or its mirror image, mirrored back), most
        played first (ties by ICCS)."""
        key = canonical_key(board)
        rows = self._rows(
            "SELECT p.move, COUNT(*), SUM(g.result = 1), SUM(g.result = 0), SUM(g.result = -1) "
            "FROM positions p JOIN games g ON g.id = p.game_id WHERE p.key = ? AND p.move >= 0 "
            "GROUP BY p.move", (_signed(key.key),))
        stats = [MoveStats(key.from_index(_decode(code)), count, int(red or 0), int(draw or 0), int(black or 0))
                 for code, count, red, draw, black in rows]
        return sorted(stats, key=lambda stat: (-stat.games, stat.move.iccs()))

    def games(self, board: Board, limit: int = 200) -> list[IndexedGame]:
        """Up to ``limit`` games that reached ``board``'s position (or its mirror image), in the
        order they were indexed, each with the first ply it stood there."""
        key = canonical_key(board)
        rows = self._rows(
            "SELECT g.id, f.path, g.number, g.red, g.black, g.event, g.date, g.result, MIN(p.ply), g.plies "
            "FROM positions p JOIN games g ON g.id = p.game_id JOIN files f ON f.id = g.file_id "
            "WHERE p.key = ? GROUP BY g.id ORDER BY g.id LIMIT ?", (_signed(key.key), limit))
        return [IndexedGame(*row) for row in rows]

    def reached_count(self, board: Board) -> int:
        """How many games reached ``board``'s position (or its mirror image)."""
        key = canonical_key(board)
        return int(self._rows("SELECT COUNT(DISTINCT game_id) FROM positions WHERE key = ?", (_signed(key.key),))[0][0])

    def game_count(self) -> int:
        return int(self._rows("SELECT COUNT(*) FROM games")[0][0])

    def file_count(self) -> int:
        return int(self._rows("SELECT COUNT(*) FROM files")[0][0])

    def position_count(self) -> int:
        """Rows in the index: (position, move, game) triples."""
        return int(self._rows("SELECT COUNT(*) FROM positions")[0][0])


def open_index(path: str | Path) -> PositionIndex:
    """An existing index (PositionIndexError when ``path`` is missing or not an index)."""
    return PositionIndex(path, create=False)


__all__ = ["PositionIndex", "PositionIndexError", "MoveStats", "IndexedGame", "IndexReport", "open_index",
           "game_result", "game_positions", "record_paths", "NO_MOVE", "SCHEMA_VERSION"]
