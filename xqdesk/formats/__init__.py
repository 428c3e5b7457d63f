"""Game record files, read and written by extension (and, for text, by content).

=========================  ==========================================================  ==========
what                       how it is recognised                                        read/write
=========================  ==========================================================  ==========
PGN (xqbase, ICCS/WXF/     ``.pgn``; text starting with a ``[Tag "…"]``; SAN moves       both
Chinese; WinBoard /        with ``[Variant "xiangqi"]`` (written with ``--notation
cutechess / pychess SAN)   san``)
XQF (XQStudio)             ``.xqf``; any file that starts with ``XQ``                  both
DhtmlXQ / UBB (dpxq.com)   ``.ubb``, ``.htm(l)``; text holding ``[DhtmlXQ_movelist]``   both
dpxq plain text            text with ``红方:`` / ``黑方:`` lines and numbered moves      read
PlayOK WXF                 ``.wxf``; text with ``FORMAT WXF`` and ``START{``            read
XiangQi Bridge record      ``.cbr``; a file starting ``CCBridge Record``               read
XiangQi Bridge library     ``.cbl``; a file starting ``CCBridgeLibrary`` (many games)  read
XiangQi Bridge XML         ``.cbf``; text with ``<ChineseChessRecord``                 read
FEN with moves, move list  ``.fen``; other text (any notation)                         both
course history             ``.txt`` holding ``[(9, 7, 7, 6, 0), …]``                   both
course match folder        a folder holding ``summary.txt``                            both
=========================  ==========================================================  ==========

:func:`read_games` never raises on a bad file: the :class:`GameFile` it returns holds the games it
could read and an error for each problem (naming the file, the game, the move and the text), and
``GameFile.format`` names the format it was read as. :func:`read_games_text` does the same for a
pasted text (see :mod:`xqdesk.formats.detect`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from xqdesk.errors import RecordFormatError
from xqdesk.formats.ccbridge import LIBRARY_MAGIC, RECORD_MAGIC, read_cbl, read_cbr
from xqdesk.formats.ccbridge_xml import parse_cbf
from xqdesk.formats.course_history import write_course_history
from xqdesk.formats.course_match import (is_course_match_folder, match_from_games, parse_folder_name,
                                         read_match_games, write_course_match)
from xqdesk.formats.detect import detect_text_format, read_text
from xqdesk.formats.dhtmlxq import parse_dhtmlxq, write_dhtmlxq
from xqdesk.formats.encoding import decode_record
from xqdesk.formats.fen_moves import GAME_START as FEN_GAME_START
from xqdesk.formats.fen_moves import parse_fen_moves, write_fen_moves
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, read_text_records, source_name
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, path_problem, read_record_bytes
from xqdesk.formats.pgn import GAME_START as PGN_GAME_START
from xqdesk.formats.pgn import parse_pgn, write_pgn
from xqdesk.formats.playok_wxf import parse_playok_wxf
from xqdesk.formats.xqf import read_xqf
from xqdesk.formats.xqf_write import write_xqf
from xqdesk.game import Game
from xqdesk.notation import Notation

__all__ = ["GameFile", "GameReadError", "read_games", "read_games_text", "write_games", "record_kind",
           "READ_EXTENSIONS", "WRITE_EXTENSIONS"]

READ_EXTENSIONS = (".pgn", ".xqf", ".fen", ".txt", ".ubb", ".htm", ".html", ".wxf", ".cbr", ".cbl", ".cbf")
WRITE_EXTENSIONS = (".pgn", ".fen", ".txt", ".xqf", ".ubb")
_TEXT_KINDS: dict[str, tuple[str, Callable[[str, str], GameFile]]] = {
    "pgn": ("PGN", parse_pgn),
    "fen": ("FEN and moves / move list", parse_fen_moves),
    "dhtmlxq": ("DhtmlXQ (UBB)", parse_dhtmlxq),
    "playok": ("PlayOK WXF", parse_playok_wxf),
    "cbf": ("XiangQi Bridge XML (CBF)", parse_cbf),
}
_BY_SUFFIX = {".pgn": "pgn", ".xqf": "xqf", ".fen": "fen", ".ubb": "dhtmlxq", ".htm": "dhtmlxq",
              ".html": "dhtmlxq", ".wxf": "playok", ".cbr": "cbr", ".cbl": "cbl", ".cbf": "cbf"}
_BINARY_FORMATS = {"xqf": ("XQF", read_xqf), "cbr": ("XiangQi Bridge record (CBR)", read_cbr),
                   "cbl": ("XiangQi Bridge library (CBL)", read_cbl)}


def record_kind(path: str | Path) -> str:
    """What :func:`read_games` will read ``path`` as: ``'match'``, a binary kind (``'xqf'``,
    ``'cbr'``, ``'cbl'``), a text kind named by the extension (``'pgn'``, ``'fen'``, ``'dhtmlxq'``,
    ``'playok'``, ``'cbf'``), else the text format found from the file's content (``'dpxq'``,
    ``'history'``, ``'pgn'``, ``'fen'`` … as :data:`~xqdesk.formats.detect.TEXT_FORMATS` names them)."""
    path = Path(path)
    if path.is_dir():
        return "match"
    try:
        head = read_record_bytes(path, 65536, head=True)
    except RecordFileError:
        head = b""
    if head.startswith(b"XQ"):
        return "xqf"
    if head.startswith(RECORD_MAGIC):
        return "cbr"
    if head.startswith(LIBRARY_MAGIC):
        return "cbl"
    kind = _BY_SUFFIX.get(path.suffix.lower())
    if kind is not None:
        return kind
    try:
        text, _encoding = decode_record(head, None, source_name(path))
    except (OSError, RecordFormatError):  # damaged: its structure (tags, brackets) still shows
        text = head.decode("utf-8", errors="replace")
    return detect_text_format(text).kind


def read_games(path: str | Path, encoding: str | None = None, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Every game in a record file or course match folder, with the errors met. Never raises: a
    missing path, a FIFO, device, symlink loop or folder that is no match folder, a file over
    ``max_bytes`` or a file with no game gives an error naming the file; a damaged file gives the
    games it holds and an error for each problem. ``encoding`` overrides detection for text."""
    path = Path(path)
    source = source_name(path)
    try:
        return _read_games(path, encoding, max_bytes)
    except Exception as error:  # a bug in a reader: still an answer, never a traceback
        return GameFile(source, errors=[file_error(source, "whole file", f"internal error while reading, please "
                                                   f"report it: {type(error).__name__}: {error}")])


def _read_games(path: Path, encoding: str | None, max_bytes: int) -> GameFile:
    source = source_name(path)
    if path.is_dir():
        if not is_course_match_folder(path):
            return GameFile(source, errors=[file_error(source, "whole file", "a folder, and not a course match "
                                                       "folder (it holds no summary.txt)")])
        record = read_match_games(path, max_bytes).note_if_empty()
        record.format = record.format or "course match folder"
        return record
    problem = path_problem(path)
    if problem is None and path.stat().st_size > max_bytes:
        problem = f"{path.stat().st_size:,} bytes is larger than the {max_bytes:,} bytes a record file may have"
    if problem is not None:
        return GameFile(source, errors=[file_error(source, "whole file", problem)])
    kind = record_kind(path)
    if kind in _BINARY_FORMATS:
        name, reader = _BINARY_FORMATS[kind]
        record = reader(path)
        record.format = name
        return record.note_if_empty()
    game_start = FEN_GAME_START if kind == "fen" else PGN_GAME_START
    if kind in _TEXT_KINDS and path.suffix.lower() in _BY_SUFFIX:
        name, parse = _TEXT_KINDS[kind]
        record = read_text_records(path, encoding, parse, game_start, max_bytes)
        record.format = name
        return record
    return read_text_records(path, encoding, read_text, game_start, max_bytes)


def read_games_text(text: str, source: str = "<text>") -> GameFile:
    """Games pasted as text, in any text format xqdesk reads (``GameFile.format`` says which)."""
    return read_text(text, source)


def write_games(path: str | Path, games: Sequence[Game], notation: Notation = Notation.ICCS) -> Path:
    """Write ``games`` by the extension of ``path`` and return what was written.

    ``.pgn`` (moves in ``notation``; ``Notation.SAN`` writes the WinBoard / pychess.org dialect),
    ``.fen`` (FEN and ICCS moves, one line a game), ``.txt`` (one game as a course history),
    ``.xqf`` (one game, XQStudio's unobfuscated version), ``.ubb`` (DhtmlXQ blocks). A path named
    ``Player i VS Player j``, or an existing folder, gets a course match folder (games with
    Red/Black ``Player N`` headers, Round and an outcome). Raises RecordFormatError when the games
    do not fit the format."""
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
        if len(games) != 1:
            raise RecordFormatError(f"{path.name}: an XQF file holds one game, not {len(games)}")
        write_xqf(path, games[0])
        return path
    if suffix == ".ubb":
        write_dhtmlxq(path, games)
        return path
    if suffix and not path.is_dir() and not _is_match_name(path.name):
        raise RecordFormatError(f"{path.name}: unknown record format {suffix!r}; use .pgn, .fen, .txt, .xqf, "
                                f".ubb or a 'Player i VS Player j' folder")
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
