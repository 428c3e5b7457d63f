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
from xqdesk.game import Game, GameNode, move_label
from xqdesk.errors import RecordFormatError
from xqdesk.formats.game_file import GameFile, GameReadError, source_name
from xqdesk.move import Move

HistoryEntry = tuple[int, int, int, int, int]

# A player may return numpy integers, which the course's referee stores as they are: numpy 2
# writes them as ``np.int64(9)``.
_NUMPY_INT = re.compile(r"\b(?:np|numpy)\.(?:u?int(?:8|16|32|64)|int_|intc)\(\s*(-?\d+)\s*\)")
_ENTRY = re.compile(r"\s*[(\[]\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,?\s*[)\]]\s*")


def parse_course_history(text: str) -> list[HistoryEntry]:
    """The entries of a history text; raises RecordFormatError naming the entry that is wrong.

    Accepts tuples or lists, any spacing and a trailing comma, as Python's ``repr`` or a person
    might write them, and numpy integers as numpy 2 writes them (``np.int64(9)``)."""
    body = _NUMPY_INT.sub(r"\1", text).strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise RecordFormatError(f"a course history is a list like '[(9, 7, 7, 6, 0), ...]', got {_clip(body)!r}")
    body = body[1:-1]
    entries: list[HistoryEntry] = []
    position = 0
    while position < len(body):
        match = _ENTRY.match(body, position)
        if match is None:
            if not body[position:].strip():
                break
            raise RecordFormatError(f"entry {len(entries) + 1} of the course history is not five integers "
                                    f"in brackets: {_clip(body[position:])!r}")
        entries.append(tuple(int(value) for value in match.groups()))  # type: ignore[arg-type]
        position = match.end()
        if position < len(body):
            if body[position] != ",":
                raise RecordFormatError(f"expected ',' after entry {len(entries)} of the course history, "
                                        f"got {_clip(body[position:])!r}")
            position += 1
    return entries


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


def read_course_history(path: str | Path, game_number: int = 1) -> GameFile:
    """Read one history file (``Game n.txt`` or any ``.txt`` holding such a list)."""
    source = source_name(path)
    result = GameFile(source, encoding="utf-8")
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    try:
        history = parse_course_history(text)
    except RecordFormatError as error:
        result.errors.append(GameReadError(source, game_number, "", "", str(error)))
        return result
    game, replay_error = game_from_course_history(history, source, game_number)
    result.games.append(game)
    if replay_error is not None:
        result.errors.append(replay_error)
    return result


def write_course_history(path: str | Path, game: Game) -> None:
    """Write the game's main line as a course history file. The course only knows games from the
    start position, so any other start raises RecordFormatError."""
    if Board(game.start_fen).fen() != Board().fen():
        raise RecordFormatError(f"a course history starts from the start position; this game starts "
                                f"from {game.start_fen!r}")
    Path(path).write_bytes(format_course_history(game.course_history()).encode("ascii"))


def _clip(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "…"
