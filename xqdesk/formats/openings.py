"""Opening files for matches: the start positions engines play from (cutechess-cli's ``-openings``).

An :class:`Opening` is a start position and the moves already played from it. Files:

- ``.fen`` / ``.epd`` (or any other text): one position a line — a FEN (``placement side - - 0 1``)
  or an EPD (``placement side - -`` followed by operations such as ``id "name";``, ignored);
  ``#`` starts a comment, blank lines are skipped;
- ``.pgn`` and every other record format :func:`xqdesk.formats.read_games` reads: each game's start
  position and main line, cut to ``plies`` moves when asked.

A bad line or game is an error that names the file and the line (or game); nothing is skipped
silently, so a match never plays from a position other than the one meant.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional, Sequence

from xqdesk.board import Board
from xqdesk.errors import RecordFormatError
from xqdesk.fen import STARTING_FEN, parse_fen
from xqdesk.move import Move
from xqdesk.ruleset import COURSE, Ruleset

POSITION_EXTENSIONS = (".fen", ".epd")
"""Files read as one position a line; anything else is read as game records."""

OPENING_ORDERS = ("sequential", "random")


@dataclass(frozen=True)
class Opening:
    """A start position (``start_fen``) and the moves played from it before the engines take over;
    ``label`` says where it came from (``openings.fen:12``)."""

    start_fen: str = STARTING_FEN
    moves: tuple[Move, ...] = ()
    label: str = "start position"

    def board(self, ruleset: Ruleset = COURSE) -> Board:
        """The position after the opening's moves, with them as its history."""
        board = Board(self.start_fen, ruleset=ruleset)
        for move in self.moves:
            board.push(move)
        return board


def parse_position_line(text: str, where: str = "<text>") -> Opening:
    """One FEN or EPD line (comments already removed) as an opening; RecordFormatError naming
    ``where`` and the text when it is not a legal position."""
    fields = text.split(";", 1)[0].split() if ";" in text else text.split()
    if len(fields) < 2:
        raise RecordFormatError(f"{where}: {text!r} is not a FEN or EPD position (expected 'placement side …')")
    clocks = fields[4:6] if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit() else ["0", "1"]
    fen = " ".join(fields[:2] + ["-", "-"] + clocks)
    try:
        parse_fen(fen)
    except ValueError as error:
        raise RecordFormatError(f"{where}: not a position: {text!r} ({error})") from None
    return Opening(fen, (), where)


def read_position_lines(path: str | Path) -> list[Opening]:
    """The positions of a FEN/EPD file, one a line (see the module docstring)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordFormatError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    openings = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if content:
            openings.append(parse_position_line(content, f"{path.name}:{number}"))
    return openings


def read_game_openings(path: str | Path, plies: Optional[int] = None) -> list[Opening]:
    """Each game of a record file as an opening: its start position and its main line (the first
    ``plies`` moves when given)."""
    from xqdesk.formats import read_games

    path = Path(path)
    games = read_games(path)
    if games.errors:
        first = games.errors[0]
        more = f" (and {len(games.errors) - 1} more problems)" if len(games.errors) > 1 else ""
        raise RecordFormatError(f"{path}: {first}{more}")
    openings = []
    for number, game in enumerate(games.games, start=1):
        moves = tuple(game.mainline_moves())
        openings.append(Opening(game.start_board().fen(), moves if plies is None else moves[:plies],
                                f"{path.name}, game {number}"))
    return openings


def read_openings(path: str | Path, plies: Optional[int] = None) -> list[Opening]:
    """The openings of a file: FEN/EPD lines for ``.fen`` and ``.epd``, games otherwise (see the
    module docstring). RecordFormatError (or OSError) when the file cannot be used; an empty
    file is an error too."""
    path = Path(path)
    if plies is not None and plies < 0:
        raise ValueError(f"plies must be 0 or more, got {plies!r}")
    if path.suffix.lower() in POSITION_EXTENSIONS:
        openings = read_position_lines(path)
        if plies is not None:
            openings = [Opening(opening.start_fen, opening.moves[:plies], opening.label) for opening in openings]
    else:
        openings = read_game_openings(path, plies)
    if not openings:
        raise RecordFormatError(f"{path}: no opening in the file")
    return openings


def opening_sequence(openings: Sequence[Opening], order: str = "sequential", start: int = 1,
                     rng: Optional[random.Random] = None) -> Iterator[Opening]:
    """The openings to play, one after another without end: in file order from the ``start``-th
    (1-based), or in a random order (each opening once before any comes again)."""
    if order not in OPENING_ORDERS:
        raise ValueError(f"opening order must be one of {', '.join(OPENING_ORDERS)}, got {order!r}")
    if not openings:
        raise ValueError("no openings to play")
    if not 1 <= start <= len(openings):
        raise ValueError(f"start must be between 1 and {len(openings)} (the openings in the file), got {start!r}")
    if order == "sequential":
        index = start - 1
        while True:
            yield openings[index]
            index = (index + 1) % len(openings)
    shuffler = rng or random.Random()
    while True:
        batch = list(openings)
        shuffler.shuffle(batch)
        yield from batch


__all__ = ["Opening", "OPENING_ORDERS", "opening_sequence", "parse_position_line", "read_openings"]
