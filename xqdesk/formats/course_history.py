"""The course's history files: one line, a Python list of 5-tuples, e.g.
``[(9, 7, 7, 6, 0), (0, 1, 2, 2, 0)]`` — ``(old_x, old_y, new_x, new_y, captured)`` in the course's
coordinates, ``captured`` the code of the piece taken (0 for none).

The text is parsed as data, never executed.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from xqdesk.board import Board
from xqdesk.errors import RecordFormatError
from xqdesk.formats.atomic_write import write_bytes_atomically
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, source_name
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, read_record_bytes
from xqdesk.game import Game, GameNode, move_label
from xqdesk.move import Move

HistoryEntry = tuple[int, int, int, int, int]

# A player may return numpy integers, which the course's referee stores as they are: numpy 2
# writes them as ``np.int64(9)``.
_NUMPY_INT = re.compile(r"\b(?:np|numpy)\.(?:u?int(?:8|16|32|64)|int_|intc)\(\s*(-?[0-9]+)\s*\)")
# ASCII digits only, and few of them: '²' is no digit, and no course value has more than 2.
_INT = r"\s*(-?[0-9]{1,9})\s*"
_ENTRY = re.compile(r"\s*[(\[]" + ",".join([_INT] * 5) + r",?\s*[)\]]\s*")


def parse_course_history(text: str) -> list[HistoryEntry]:
    """The entries of a history text; raises RecordFormatError naming the entry that is wrong.

    Accepts tuples or lists, any spacing and a trailing comma, as Python's ``repr`` or a person
    might write them, and numpy integers as numpy 2 writes them (``np.int64(9)``)."""
    entries, error = read_history_entries(text)
    if error is not None:
        raise error
    return entries


def read_history_entries(text: str) -> tuple[list[HistoryEntry], RecordFormatError | None]:
    """The entries of a history text up to the first one that is wrong, and the error that stopped
    reading (None when the whole text is a history)."""
    body = _NUMPY_INT.sub(r"\1", text).strip().removeprefix("\ufeff").strip()
    if not body.startswith("["):
        return [], RecordFormatError(f"a course history is a list like '[(9, 7, 7, 6, 0), ...]', got {_clip(body)!r}")
    closed = body.endswith("]")
    body = body[1:-1] if closed else body[1:]
    entries: list[HistoryEntry] = []
    position = 0
    while position < len(body):
        match = _ENTRY.match(body, position)
        if match is None:
            if not body[position:].strip():
                break
            return entries, RecordFormatError(f"entry {len(entries) + 1} of the course history is not five "
                                              f"integers in brackets: {_clip(body[position:])!r}")
        entries.append(tuple(int(value) for value in match.groups()))  # type: ignore[arg-type]
        position = match.end()
        if position < len(body):
            if body[position] != ",":
                return entries, RecordFormatError(f"expected ',' after entry {len(entries)} of the course "
                                                  f"history, got {_clip(body[position:])!r}")
            position += 1
    if not closed:
        return entries, RecordFormatError(f"the list ends after entry {len(entries)} without its ']' "
                                          f"(the file is cut short?)")
    return entries, None


def format_course_history(history: Sequence[Sequence[int]]) -> str:
    """Exactly the course's text: the ``repr`` of a list of tuples of plain ints (no newline)."""
    return repr([tuple(int(value) for value in entry) for entry in history])


def game_from_course_history(history: Sequence[Sequence[int]], source: str = "<history>",
                             game_number: int = 1) -> tuple[Game, GameReadError | None]:
    """Replay a history from the start position, checking each move and its recorded capture.
    Returns the game (up to the first bad entry) and the error met, if any."""
    game = Game()
    node: GameNode = game
    board = Board()
    for index, entry in enumerate(history, start=1):
        try:
            move = Move.from_course(entry[:4])
        except ValueError as error:
            return game, GameReadError(source, game_number, f"entry {index}", str(tuple(entry)), str(error))
        if not board.is_legal(move):
            return game, GameReadError(source, game_number, f"entry {index}, {move_label(board)}",
                                       str(tuple(entry)), f"{move.iccs()} is not legal in {board.fen()!r}")
        captured = board.code_at(move.to_square)
        if len(entry) > 4 and int(entry[4]) != captured:
            return game, GameReadError(source, game_number, f"entry {index}, {move_label(board)}",
                                       str(tuple(entry)), f"records capture {int(entry[4])!r} but the "
                                       f"target square holds {captured!r} in {board.fen()!r}")
        board.push(move)
        node = node.add_variation(move)
    return game, None


def read_course_history(path: str | Path, game_number: int = 1, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Read one history file (``Game n.txt`` or any ``.txt`` holding such a list). A damaged list
    gives the game up to the bad entry, and an error; an unreadable one just the error."""
    source = source_name(path)
    result = GameFile(source, encoding="utf-8")
    try:
        data = read_record_bytes(path, max_bytes)
    except RecordFileError as error:
        result.errors.append(file_error(source, "whole file", error.reason))
        return result
    game, problem = history_game(data.decode("utf-8", errors="replace"), source, game_number)
    if problem is None or game.next() is not None:  # a text with no entry read holds no game
        result.games.append(game)
    if problem is not None:
        result.errors.append(problem)
    return result


def history_game(text: str, source: str, game_number: int = 1) -> tuple[Game, GameReadError | None]:
    """The game of a history text, up to the first bad entry or illegal move, and the error met."""
    entries, parse_error = read_history_entries(text)
    game, replay_error = game_from_course_history(entries, source, game_number)
    if replay_error is not None:
        return game, replay_error
    if parse_error is not None:
        return game, GameReadError(source, game_number, f"entry {len(entries) + 1}", "", str(parse_error))
    return game, None


def write_course_history(path: str | Path, game: Game) -> None:
    """Write the game's main line as a course history file. The course only knows games from the
    start position, so any other start raises RecordFormatError."""
    if Board(game.start_fen).fen() != Board().fen():
        raise RecordFormatError(f"a course history starts from the start position; this game starts "
                                f"from {game.start_fen!r}")
    write_bytes_atomically(path, format_course_history(game.course_history()).encode("ascii"))


def _clip(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "…"
