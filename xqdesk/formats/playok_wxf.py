"""PlayOK's WXF game files, read.

::

    FORMAT  WXF
    RED     tmt6838g ; 1137 ;;
    BLACK   computerhuang ; 1177 ;;
    RESULT  1-0
    DATE    2026-09-03 16:20:58
    EVENT   PlayOK Game ; 10m+0s
    START{
     1. C8.5 c2.5   2. H8+7 h2+3 …
    }END

Header lines are a key and its value; a player is ``name ; rating ;;`` (the rating becomes
``RedElo`` / ``BlackElo``), the event ``name ; time control``. A ``FEN`` line, when present, sets
the start position. The moves between ``START{`` and ``}END`` are WXF (Black's in lower case). A
file may hold several games, each from its ``FORMAT`` line.
"""
from __future__ import annotations

import re
from pathlib import Path

from xqdesk.formats.game_file import GameFile, GameReadError, file_error, read_text_records
from xqdesk.formats.pgn import parse_pgn

# Spaces and tabs only (no newlines) around the words: a run of blank lines is not searched again
# from each of its lines, and a header's value is stripped after the match, not by backtracking.
_FORMAT_LINE = re.compile(r"^[ \t]*FORMAT[ \t]+WXF[ \t\r]*$", re.MULTILINE | re.IGNORECASE)
_HEADER = re.compile(r"\s*([A-Z]+)\s+(.*)")
_MOVES = re.compile(r"START\s*\{(.*?)(?:\}\s*END|\Z)", re.DOTALL | re.IGNORECASE)


def looks_like_playok_wxf(text: str) -> bool:
    """Whether ``text`` is a PlayOK WXF file (a ``FORMAT WXF`` line and ``START{``)."""
    return _FORMAT_LINE.search(text) is not None and "START{" in text.upper().replace(" ", "")


def parse_playok_wxf(text: str, source: str = "<wxf>") -> GameFile:
    """Every game of a PlayOK WXF text. Linear in the text's length: each game's line number is
    counted on from the previous game's. A ``FORMAT WXF`` block with no moves is an error of the
    file at its line, not a game: errors name the games by their place among the games read."""
    starts = [match.start() for match in _FORMAT_LINE.finditer(text)] or [0]
    result = GameFile(source)
    line_offset = 0
    for index, start in enumerate(starts, start=1):
        end = starts[index] if index < len(starts) else len(text)
        chunk = text[start:end]
        line_offset += text.count("\n", starts[index - 2] if index > 1 else 0, start)
        moves = _MOVES.search(chunk)
        if moves is None:  # no game here: the games read are numbered on without it
            result.errors.append(file_error(source, f"line {line_offset + 1}",
                                            "a 'FORMAT WXF' block with no moves between 'START{' and '}END'"))
            continue
        number = len(result.games) + 1  # this game's place among the games read
        tags = {"Format": "WXF"}
        for line in chunk[:moves.start()].splitlines():
            header = _HEADER.match(line)
            if header is None:
                continue
            key, value = header.group(1).upper(), header.group(2).strip()
            parts = [part.strip() for part in value.split(";")]
            if key in ("RED", "BLACK"):
                tags[key.title()] = parts[0]
                if len(parts) > 1 and parts[1]:
                    tags[f"{key.title()}Elo"] = parts[1]
            elif key == "EVENT":
                tags["Event"] = parts[0]
                if len(parts) > 1 and parts[1]:
                    tags["TimeControl"] = parts[1]
            elif key in ("RESULT", "DATE", "SITE", "ROUND", "FEN"):
                tags[key.title() if key != "FEN" else "FEN"] = value
        pgn = "".join(f'[{tag} "{value.replace(chr(34), chr(39))}"]\n' for tag, value in tags.items())
        moves_line = line_offset + chunk.count("\n", 0, moves.start(1)) + 1  # where 'START{' stands
        part = parse_pgn(pgn + moves.group(1), source, line_offset=moves_line - len(tags) - 1)
        result.games.extend(part.games)
        result.errors.extend(GameReadError(source, number, error.where, error.text, error.reason)
                             for error in part.errors)
    return result


def read_playok_wxf(path: str | Path, encoding: str | None = None) -> GameFile:
    """Read a PlayOK WXF file (encoding detected unless given)."""
    return read_text_records(path, encoding, parse_playok_wxf)
