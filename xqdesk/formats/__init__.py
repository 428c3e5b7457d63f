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

:func:`open_games` is the one reading path under both: a stream of the games, one at a time, with
progress. PGN and FEN files (the formats big collections come in) are read in pieces, with
memory bounded by one game whatever their size (:mod:`xqdesk.formats.game_stream`); every other
format is read whole, up to :data:`~xqdesk.formats.record_file.MAX_RECORD_BYTES`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from xqdesk.errors import RecordFormatError, XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.ccbridge import LIBRARY_MAGIC, RECORD_MAGIC, read_cbl, read_cbr
from xqdesk.formats.ccbridge_xml import parse_cbf
from xqdesk.formats.course_history import write_course_history
from xqdesk.formats.course_match import (
    is_course_match_folder,
    match_from_games,
    parse_folder_name,
    read_match_games,
    write_course_match,
)
from xqdesk.formats.detect import detect_text_format, read_text
from xqdesk.formats.dhtmlxq import parse_dhtmlxq, write_dhtmlxq
from xqdesk.formats.encoding import decode_record
from xqdesk.formats.fen_moves import GAME_START as FEN_GAME_START
from xqdesk.formats.fen_moves import parse_fen_moves, write_fen_moves
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, read_text_records, source_name
from xqdesk.formats.game_stream import (
    GameSpan,
    GameStream,
    Progress,
    ReadGame,
    StoredGames,
    StoredSpans,
    stream_text_file,
    whole_file_stream,
)
from xqdesk.formats.pgn import GAME_START as PGN_GAME_START
from xqdesk.formats.pgn import parse_pgn, write_pgn
from xqdesk.formats.playok_wxf import parse_playok_wxf
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, path_problem, read_record_bytes
from xqdesk.formats.xqf import read_xqf
from xqdesk.formats.xqf_write import write_xqf
from xqdesk.game import Game
from xqdesk.notation import Notation

__all__ = ["GameFile", "GameReadError", "read_games", "read_games_text", "write_games", "record_kind",
           "open_games", "read_games_stored", "GameStream", "ReadGame", "GameSpan", "StoredGames",
           "STREAMED_FORMATS", "blank_record_problem", "is_blank_game", "read_record", "READ_EXTENSIONS", "WRITE_EXTENSIONS"]

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
STREAMED_FORMATS = ("pgn", "fen")
"""The kinds read a game at a time, of any size; every other kind is read whole (up to the cap)."""
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
    missing path, a FIFO, device, symlink loop or folder that is no match folder, a file read whole
    over ``max_bytes`` (a PGN or FEN file: a game's text over it) or a file with no game gives an
    error naming the file; a damaged file gives the games it holds and an error for each problem.
    ``encoding`` overrides detection for text. Holds every game in memory: :func:`open_games`
    reads one at a time."""
    return open_games(path, encoding, max_bytes=max_bytes).read_all()


def read_games_stored(path: str | Path, encoding: str | None = None, progress: Progress | None = None,
                      each: Callable[[ReadGame], None] | None = None) -> GameFile:
    """The games of ``path`` as :func:`read_games` gives them, but for a file read in pieces (PGN,
    FEN) only where each game lies is kept and a game is parsed again when asked for (a
    :class:`StoredGames`), so a file of any size takes memory for its index only. ``each(read)``
    sees every game as it is read (to make a list's rows); ``progress`` as :func:`open_games`."""
    stream = open_games(path, encoding, progress)
    spans = StoredSpans()
    games: list[Game] = []
    for read in stream:
        if each is not None:
            each(read)
        if read.span is not None:
            spans.add(read.span)
        else:
            games.append(read.game)
    if stream.streamed and not games:
        return stream.stored(spans)
    return GameFile(stream.source, games, stream.errors, stream.encoding, stream.format)


def open_games(path: str | Path, encoding: str | None = None, progress: Progress | None = None,
               max_bytes: int = MAX_RECORD_BYTES) -> GameStream:
    """The games of a record file or course match folder, read one at a time as the stream is
    iterated (see :class:`GameStream`); never raises, problems go to the stream's ``errors``.

    A PGN or FEN file (by extension; a file of another extension whose text is PGN, when it is over
    ``max_bytes``) is read in pieces: memory bounded by one game, ``progress(bytes read, size)``.
    Every other format is read whole, refused over ``max_bytes`` (the error says so), and
    ``progress(games handed on, games)``."""
    path = Path(path)
    kind = _stream_kind(path, max_bytes)
    if kind is None:
        return whole_file_stream(path, lambda: read_whole_file(path, encoding, max_bytes), progress)
    name, parse = _TEXT_KINDS[kind]
    game_start = FEN_GAME_START if kind == "fen" else PGN_GAME_START
    return stream_text_file(path, encoding, parse, game_start, name,
                            lambda: read_whole_file(path, encoding, max_bytes), progress, max_bytes)


def _stream_kind(path: Path, max_bytes: int) -> str | None:
    """``'pgn'`` or ``'fen'`` for a file read in pieces, None for one read whole."""
    try:
        if path_problem(path) is not None:
            return None
        kind = record_kind(path)
        if kind not in STREAMED_FORMATS:
            return None
        if path.suffix.lower() in _BY_SUFFIX:
            return kind
        # Found from the content: a small file is read whole, as a pasted text is (its whole text
        # decides the format); a bigger one is read in pieces when its start is PGN.
        return "pgn" if kind == "pgn" and path.stat().st_size > max_bytes else None
    except (OSError, ValueError):
        return None


def read_whole_file(path: str | Path, encoding: str | None = None, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Every game of ``path`` read in one step (the file whole, up to ``max_bytes``); never raises."""
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
        problem = (f"{path.stat().st_size:,} bytes is larger than the {max_bytes:,} bytes a record file may have "
                   f"when it is read whole, as {_whole_format_name(path)} files are (PGN and FEN files are "
                   f"read a game at a time and may be of any size)")
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


def _whole_format_name(path: Path) -> str:
    kind = record_kind(path)
    if kind in _BINARY_FORMATS:
        return _BINARY_FORMATS[kind][0]
    if kind in _TEXT_KINDS and path.suffix.lower() in _BY_SUFFIX:
        return _TEXT_KINDS[kind][0]
    return f"{path.suffix or 'extension-less'} text"


MOVE_LIST_FORMAT = "FEN and moves / move list"
"""The reader a text in no other format falls to: what it cannot read becomes a comment."""


def is_blank_game(game: Game) -> bool:
    """A game with no move, no tag and the standard start: what a text with no record in it
    (JSON, random bytes) reads as."""
    return not game.variations and not game.headers and game.start_fen.split()[:2] == _START_FIELDS


_START_FIELDS = STARTING_FEN.split()[:2]


def blank_record_problem(record: GameFile, all_blank: bool | None = None) -> str:
    """Why ``record`` holds no game at all although a reader returned one ('' : it holds one).

    A JSON file or random bytes read as text give games with no move, no tag and the standard
    start: nothing of the file was a record. (A record file that is really an empty game, an XQF
    with no move, is read without errors by its own reader and is not refused.) ``all_blank``:
    whether every game is blank, when known already (:func:`is_blank_game` on each as read)."""
    if not record.games:
        return ""
    blank = all(is_blank_game(game) for game in record.games) if all_blank is None else all_blank
    if not blank:
        return ""
    if record.errors:
        return str(record.errors[0])
    if record.format == MOVE_LIST_FORMAT:
        return "nothing in it reads as a game record (no tags, no moves, no position)"
    return ""


def read_record(path: str | Path) -> GameFile:
    """The games at ``path``, a course match folder or a record file of any known format, every
    game in memory; raises XqdeskError for a folder that is no match folder."""
    if Path(path).is_dir() and not is_course_match_folder(path):
        raise XqdeskError(f"{str(path)!r} is a folder but not a course match folder (no summary.txt)")
    return read_games(path)


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
