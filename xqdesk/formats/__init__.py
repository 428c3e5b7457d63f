"""Game record files, read and written by extension.

=====================  ======================================================  ==============
what                   how it is recognised                                    read / write
=====================  ======================================================  ==============
PGN                    ``.pgn``; ``.txt`` that starts with a ``[Tag "…"]``     both
XQF (XQStudio)         ``.xqf``; any file that starts with ``XQ``              read
FEN with moves         ``.fen``; ``.txt`` holding FENs or a plain move list    both
course history         ``.txt`` holding ``[(9, 7, 7, 6, 0), …]``               both
course match folder    a folder holding ``summary.txt``                        both
=====================  ======================================================  ==============

:func:`read_games` never raises on a bad file: the :class:`GameFile` it returns holds the games it
could read and an error for each problem (naming the file, the game, the move and the text).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from xqdesk.errors import RecordFormatError
from xqdesk.formats.course_history import read_course_history, write_course_history
from xqdesk.formats.course_match import (is_course_match_folder, match_from_games, parse_folder_name,
                                         read_match_games, write_course_match)
from xqdesk.formats.encoding import decode_record
from xqdesk.formats.fen_moves import parse_fen_moves, read_fen_moves, write_fen_moves
from xqdesk.formats.game_file import GameFile, GameReadError, source_name
from xqdesk.formats.pgn import parse_pgn, read_pgn, write_pgn
from xqdesk.formats.xqf import read_xqf
from xqdesk.game import Game
from xqdesk.notation import Notation

__all__ = ["GameFile", "GameReadError", "read_games", "write_games", "record_kind", "READ_EXTENSIONS",
           "WRITE_EXTENSIONS"]

READ_EXTENSIONS = (".pgn", ".xqf", ".fen", ".txt")
WRITE_EXTENSIONS = (".pgn", ".fen", ".txt")
_HISTORY_START = re.compile(r"^\s*\[\s*(?:[(\[]|\])")
_TAG_START = re.compile(r"^\s*\[\s*[A-Za-z]")


def record_kind(path: str | Path) -> str:
    """``'match'``, ``'pgn'``, ``'xqf'``, ``'fen'`` or ``'history'``: what :func:`read_games` will
    read ``path`` as (by extension, then by its first bytes)."""
    path = Path(path)
    if path.is_dir():
        return "match"
    suffix = path.suffix.lower()
    if suffix == ".pgn":
        return "pgn"
    if suffix == ".xqf":
        return "xqf"
    if suffix == ".fen":
        return "fen"
    head = path.read_bytes()[:4096] if path.is_file() else b""
    if head.startswith(b"XQ"):
        return "xqf"
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    if _HISTORY_START.match(text):
        return "history"
    if _TAG_START.match(text):
        return "pgn"
    return "fen"


def read_games(path: str | Path, encoding: str | None = None) -> GameFile:
    """Every game in a record file or course match folder, with the errors met (never raises for
    a bad file; a missing one gives an error too). ``encoding`` overrides detection for text."""
    path = Path(path)
    if not path.exists():
        return GameFile(source_name(path), errors=[GameReadError(source_name(path), 1, "", "",
                                                                 "no such file or folder")])
    kind = record_kind(path)
    if kind == "match":
        return read_match_games(path)
    if kind == "xqf":
        return read_xqf(path)
    if kind == "history":
        return read_course_history(path)
    if kind == "pgn":
        return read_pgn(path, encoding)
    return read_fen_moves(path, encoding)


def read_games_text(text: str, source: str = "<text>") -> GameFile:
    """Games pasted as text: PGN, a course history, FENs with moves or a plain move list."""
    if _HISTORY_START.match(text):
        from xqdesk.formats.course_history import game_from_course_history, parse_course_history
        try:
            history = parse_course_history(text)
        except RecordFormatError as error:
            return GameFile(source, errors=[GameReadError(source, 1, "", "", str(error))])
        game, replay_error = game_from_course_history(history, source)
        return GameFile(source, [game], [replay_error] if replay_error else [])
    if _TAG_START.match(text):
        return parse_pgn(text, source)
    return parse_fen_moves(text, source)


def write_games(path: str | Path, games: Sequence[Game], notation: Notation = Notation.ICCS) -> Path:
    """Write ``games`` by the extension of ``path`` and return what was written.

    ``.pgn`` (moves in ``notation``), ``.fen`` (FEN and ICCS moves, one line a game), ``.txt``
    (one game as a course history). A path named ``Player i VS Player j``, or an existing folder,
    gets a course match folder (games with Red/Black ``Player N`` headers, Round and an outcome).
    XQF is read only. Raises RecordFormatError when the games do not fit the format."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".pgn":
        write_pgn(path, games, notation)
        return path
    if suffix == ".fen":
        write_fen_moves(path, games)
        return path
    if suffix == ".txt":
        if len(games) != 1:
            raise RecordFormatError(f"{path.name}: a course history holds one game, not {len(games)}")
        write_course_history(path, games[0])
        return path
    if suffix == ".xqf":
        raise RecordFormatError(f"{path.name}: XQF files are read, not written; write .pgn instead")
    if suffix and not path.is_dir() and not _is_match_name(path.name):
        raise RecordFormatError(f"{path.name}: unknown record format {suffix!r}; use .pgn, .fen, .txt or "
                                f"a 'Player i VS Player j' folder")
    match = match_from_games(games)
    if path.is_dir() and not _is_match_name(path.name):
        return write_course_match(path, match)
    if _is_match_name(path.name):
        if set(parse_folder_name(path.name)) != {match.player_i, match.player_j}:
            raise RecordFormatError(f"{path.name}: the games are between Player {match.player_i} and "
                                    f"Player {match.player_j}")
        return write_course_match(path.parent, match)
    raise RecordFormatError(f"{path.name}: a course match folder is named like 'Player 1 VS Player 3' "
                            f"(or give an existing folder to write it in)")


def _is_match_name(name: str) -> bool:
    try:
        parse_folder_name(name)
    except RecordFormatError:
        return False
    return True


def is_match_folder(path: str | Path) -> bool:
    """True for a course match folder (it holds ``summary.txt``)."""
    return is_course_match_folder(path)


def decode_text(data: bytes, encoding: str | None = None, source: str = "<bytes>") -> tuple[str, str]:
    """The text of a record file's bytes and the encoding used (see :mod:`.encoding`)."""
    return decode_record(data, encoding, source)
