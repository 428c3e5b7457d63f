"""What reading a record file gives: the games, and the problems met on the way."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from xqdesk.errors import RecordFormatError, XqdeskError
from xqdesk.formats.encoding import decode_record
from xqdesk.game import Game


class GameReadError(RecordFormatError):
    """A problem in one game of a file: names the file, the game (1-based), where in the game
    (a move number or a line) and the text that failed."""

    def __init__(self, source: str, game_number: int, where: str, text: str, reason: str) -> None:
        self.source = source
        self.game_number = game_number
        self.where = where
        self.text = text
        self.reason = reason
        place = f", {where}" if where else ""
        failing = f": {text!r}" if text else ""
        super().__init__(f"{source}, game {game_number}{place}{failing}: {reason}")


@dataclass
class GameFile:
    """The games read from one file (or folder) and the errors met.

    A game in which an error was found is kept with the moves read before the error, so
    ``games`` can hold damaged games: each error's ``game_number`` says which (1-based)."""

    source: str
    games: list[Game] = field(default_factory=list)
    errors: list[GameReadError] = field(default_factory=list)
    encoding: str | None = None
    format: str | None = None
    """The record format the games were read as (``'PGN'``, ``'DhtmlXQ (UBB)'`` …), when known."""

    @property
    def damaged_game_numbers(self) -> set[int]:
        return {error.game_number for error in self.errors}

    def raise_first_error(self) -> None:
        """Raise the first error, if any (for callers that want all or nothing)."""
        if self.errors:
            raise self.errors[0]


def source_name(path: str | Path) -> str:
    """How a file is named in messages: its name only (never the folders it sits in)."""
    return Path(path).name


def read_text_records(path: str | Path, encoding: str | None,
                      parse: Callable[[str, str], GameFile]) -> GameFile:
    """Decode a text record file (encoding detected unless given) and ``parse(text, source)`` it;
    an unreadable file gives a GameFile holding just that error."""
    source = source_name(path)
    try:
        text, used = decode_record(Path(path).read_bytes(), encoding, source)
    except XqdeskError as error:
        return GameFile(source, errors=[GameReadError(source, 1, "", "", str(error))])
    game_file = parse(text, source)
    game_file.encoding = used
    return game_file
