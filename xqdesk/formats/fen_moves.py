"""FEN with moves, and plain move lists: the paste-friendly formats.

A text holds one or more games. A game starts at a line that begins with a FEN (or UCI's
``position fen <FEN>`` / ``position startpos``); its moves follow, after ``moves`` on the same line
and/or on the next lines, in any notation xqdesk reads, with or without move numbers. Text with no
FEN at all is one game from the start position (``1. 炮二平五 马８进７ 2. 马二进三 …``).

Written files hold one line per game: ``<FEN> moves h2e2 h9g7 …`` (ICCS), which UCI engines and
people alike read. Comments and variations are not part of this format.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from xqdesk.fen import STARTING_FEN
from xqdesk.formats.atomic_write import atomic_text_output
from xqdesk.formats.game_file import GameFile, GameReadError, read_text_records
from xqdesk.formats.pgn import parse_pgn
from xqdesk.formats.record_file import MAX_RECORD_BYTES
from xqdesk.game import Game

_FEN_START = re.compile(
    r"^\s*(?:position\s+)?(?:fen\s+)?(?P<fen>[1-9rnbakcpehRNBAKCPEH]+(?:/[1-9rnbakcpehRNBAKCPEH]+){9}"
    r"(?:\s+[wrb](?:\s+(?:-|\d+)){0,4})?)(?P<rest>.*)$")
GAME_START = re.compile(rb"^[ \t]*(?:position[ \t]+)?(?:fen[ \t]+)?(?:startpos\b|[1-9rnbakcpehRNBAKCPEH]+/)",
                        re.MULTILINE | re.IGNORECASE)
"""A line that begins a game (in the file's bytes): where a damaged file is cut in pieces."""
_STARTPOS = re.compile(r"^\s*(?:position\s+)?startpos\b(?P<rest>.*)$", re.IGNORECASE)
_MOVES_WORD = re.compile(r"^\s*moves\b", re.IGNORECASE)


def parse_fen_moves(text: str, source: str = "<text>", line_offset: int = 0) -> GameFile:
    """The games in a FEN-with-moves text or a plain move list (``line_offset`` is added to the
    line numbers errors give)."""
    chunks: list[tuple[str, list[str], int]] = []  # (fen, move lines, first line number)
    for number, line in enumerate(text.splitlines(), start=1 + line_offset):
        fen_match = _FEN_START.match(line)
        startpos = None if fen_match else _STARTPOS.match(line)
        position_match = fen_match or startpos
        if position_match is not None:
            fen = fen_match.group("fen") if fen_match else STARTING_FEN
            rest = position_match.group("rest")
            chunks.append((fen, [_MOVES_WORD.sub("", rest, count=1)], number))
        elif line.strip():
            if not chunks:
                chunks.append((STARTING_FEN, [], number))
            chunks[-1][1].append(line)
    result = GameFile(source)
    for index, (fen, lines, first_line) in enumerate(chunks, start=1):
        part = parse_pgn(f'[FEN "{fen.strip()}"]\n' + "\n".join(lines), source, line_offset=first_line - 2)
        result.games.extend(part.games)
        result.errors.extend(GameReadError(error.source, index, error.where, error.text, error.reason)
                             for error in part.errors)
    return result


def read_fen_moves(path: str | Path, encoding: str | None = None, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Read a ``.fen`` file (or any text of FENs and moves)."""
    return read_text_records(path, encoding, parse_fen_moves, GAME_START, max_bytes)


def format_fen_moves(game: Game) -> str:
    """``<start FEN> moves <ICCS moves>`` (just the FEN when there are no moves)."""
    moves = " ".join(move.iccs() for move in game.mainline_moves())
    return f"{game.start_fen} moves {moves}" if moves else game.start_fen


def write_fen_moves(path: str | Path, games: Iterable[Game]) -> None:
    """One line per game (UTF-8), replacing ``path`` whole or not at all (see
    :mod:`~xqdesk.formats.atomic_write`)."""
    with atomic_text_output(path) as output:
        for game in games:
            output.write(format_fen_moves(game) + "\n")
