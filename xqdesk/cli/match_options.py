"""The options ``match`` and ``tournament`` share with cutechess-cli, and what they turn into.

cutechess-cli writes grouped settings as ``key=value`` words after the option
(``-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05``); so do these:

    --openings FILE [order=sequential|random] [plies=N] [start=N]
    --repeat N                  games per opening (default 2: colours swapped)
    --fen FEN                   every game from this position
    --draw movenumber=N movecount=M score=S
    --resign movecount=M score=S [twosided=true]
    --tb DIR                    tablebase adjudication (xqdesk's own tables)
    --sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]
"""
from __future__ import annotations

import argparse
import itertools
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from xqdesk.engines.contests.adjudication import AdjudicationRules, DrawRule, ResignRule
from xqdesk.engines.contests.sprt import Sprt
from xqdesk.formats.openings import OPENING_ORDERS, Opening


class UsageError(ValueError):
    """A command-line value that cannot be used; the message says which option and why."""


def _boolean(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(f"{text!r} is not true or false")
    return lowered in ("true", "1", "yes")


def key_values(option: str, words: Sequence[str], kinds: dict[str, Callable[[str], object]],
               required: Sequence[str] = ()) -> dict[str, Any]:
    """``words`` (``key=value`` each) read with ``kinds[key]``; UsageError naming ``option`` for
    an unknown key, a bad value or a missing required key."""
    values: dict[str, Any] = {}
    for word in words:
        key, equals, text = word.partition("=")
        if not equals:
            raise UsageError(f"{option}: {word!r} is not key=value (keys: {', '.join(kinds)})")
        if key not in kinds:
            raise UsageError(f"{option}: unknown key {key!r} (keys: {', '.join(kinds)})")
        try:
            values[key] = kinds[key](text)
        except ValueError as error:
            reason = ("not a whole number" if kinds[key] is int else "not a number" if kinds[key] is float
                      else str(error))
            raise UsageError(f"{option}: {key}={text!r}: {reason}") from None
    missing = [key for key in required if key not in values]
    if missing:
        raise UsageError(f"{option}: needs {', '.join(f'{key}=…' for key in missing)}")
    return values


def parse_sprt(words: Sequence[str]) -> Sprt:
    """``--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]`` (alpha and beta default to 0.05)."""
    values = key_values("--sprt", words, {"elo0": float, "elo1": float, "alpha": float, "beta": float},
                        required=("elo0", "elo1"))
    try:
        return Sprt(**values)
    except ValueError as error:
        raise UsageError(f"--sprt: {error}") from None


def parse_adjudication(draw: Optional[Sequence[str]], resign: Optional[Sequence[str]],
                       tablebase: Optional[str] = None) -> AdjudicationRules:
    """``--draw movenumber=N movecount=M score=S``, ``--resign movecount=M score=S [twosided=true]``
    and ``--tb DIR`` (a directory holding tables: UsageError saying what is wrong otherwise)."""
    draw_rule = resign_rule = None
    tables = None
    if tablebase is not None:
        from xqdesk.egtb.fileformat import SUFFIX as TABLE_SUFFIX

        folder = Path(tablebase).expanduser()
        if not folder.is_dir():
            raise UsageError(f"--tb: {tablebase!r} is not a folder (build tables with 'xqdesk egtb build')")
        if not any(folder.glob(f"*{TABLE_SUFFIX}")):
            raise UsageError(f"--tb: {tablebase!r} holds no tables (*{TABLE_SUFFIX}; build them with "
                             "'xqdesk egtb build')")
        tables = str(folder.resolve())
    try:
        if draw is not None:
            values = key_values("--draw", draw, {"movenumber": int, "movecount": int, "score": int},
                                required=("movenumber", "movecount", "score"))
            draw_rule = DrawRule(values["movenumber"], values["movecount"], values["score"])
        if resign is not None:
            values = key_values("--resign", resign, {"movecount": int, "score": int, "twosided": _boolean},
                                required=("movecount", "score"))
            resign_rule = ResignRule(values["movecount"], values["score"], values.get("twosided", False))
    except UsageError:
        raise
    except ValueError as error:  # a rule's own check (e.g. movecount=0)
        raise UsageError(f"{'--draw' if draw_rule is None and draw is not None else '--resign'}: {error}") from None
    return AdjudicationRules(draw_rule, resign_rule, tables)


@dataclass(frozen=True)
class OpeningChoice:
    """What ``--openings``/``--fen``/``--repeat`` ask for, with the openings already read."""

    openings: tuple[Opening, ...]
    order: str = "sequential"
    start: int = 1
    repeat: int = 2

    @property
    def described(self) -> str:
        if len(self.openings) == 1 and not self.openings[0].moves:
            return f"from {self.openings[0].label}"
        return (f"{len(self.openings)} openings in {self.order} order"
                + (f" from #{self.start}" if self.start != 1 else "")
                + (f", each played {self.repeat} times (colours swapped)" if self.repeat > 1 else ""))

    def sequence(self, seed: Optional[int]) -> Iterable[Opening]:
        """The openings one after another, without end."""
        from xqdesk.formats.openings import opening_sequence

        return opening_sequence(self.openings, self.order, self.start, random.Random(seed))


def parse_openings(openings: Optional[Sequence[str]], fen: Optional[str], repeat: int) -> Optional[OpeningChoice]:
    """``--openings FILE [order=…] [plies=N] [start=N]`` or ``--fen FEN``; None when neither.
    UsageError for an unreadable file, a bad position or bad keys (with the file and line)."""
    from xqdesk.errors import XqdeskError
    from xqdesk.formats.openings import parse_position_line, read_openings

    if openings is not None and fen is not None:
        raise UsageError("--openings and --fen both say where games start: give one")
    if repeat < 1:
        raise UsageError(f"--repeat must be at least 1, got {repeat}")
    if fen is not None:
        try:
            return OpeningChoice((parse_position_line(fen, "--fen"),), repeat=repeat)
        except XqdeskError as error:
            raise UsageError(str(error)) from None
    if openings is None:
        return None
    words = list(openings)
    path = words.pop(0)
    if path.startswith("file="):
        path = path[len("file="):]
    values = key_values("--openings", words, {"order": str, "plies": int, "start": int})
    order = values.get("order", "sequential")
    if values.get("plies", 0) < 0:
        raise UsageError(f"--openings: plies must be 0 or more (moves of each game to play), got {values['plies']}")
    if order not in OPENING_ORDERS:
        raise UsageError(f"--openings: order must be {' or '.join(OPENING_ORDERS)}, got {order!r}")
    try:
        read = read_openings(path, values.get("plies"))
    except OSError as error:
        raise UsageError(f"--openings: cannot read {path!r}: {error.strerror or error}") from None
    except XqdeskError as error:
        raise UsageError(f"--openings: {error}") from None
    start = values.get("start", 1)
    if not 1 <= start <= len(read):
        raise UsageError(f"--openings: start must be between 1 and {len(read)} (the openings in {path}), got {start}")
    return OpeningChoice(tuple(read), order, start, repeat)


OPENING_KEYS = ("file=", "order=", "plies=", "start=")
"""The words ``--openings`` takes after its FILE."""


def openings_last(words: Sequence[str]) -> list[str]:
    """A command line with its ``--openings FILE [KEY=VALUE…]`` moved to the end: the option takes
    one or more words, so engine names after it (``tournament --openings FILE A B``) would be taken
    as its own; moved, they stay the command's. Unchanged when there is no ``--openings`` or a
    ``--``."""
    words = list(words)
    if "--" in words or "--openings" not in words:
        return words
    start = words.index("--openings")
    end = start + 2  # the option and its FILE
    while end < len(words) and words[end].startswith(OPENING_KEYS):
        end += 1
    return words[:start] + words[end:] + words[start:end]


def add_start_and_adjudication_arguments(parser: argparse.ArgumentParser) -> None:
    """``--openings``, ``--fen``, ``--repeat``, ``--seed``, ``--draw``, ``--resign``, ``--tb``."""
    parser.add_argument("--openings", nargs="+", default=None, metavar="FILE [KEY=VALUE",
                        help="start the games from the positions in FILE: .fen/.epd (one position a line) or "
                             "game records (.pgn …: each game's moves); keys order=sequential|random, plies=N "
                             "(moves of each game to play), start=N (the first opening)")
    parser.add_argument("--fen", default=None, metavar="FEN", help="start every game from this position")
    parser.add_argument("--repeat", type=int, default=2, metavar="N",
                        help="games from each opening, colours swapped (default 2, cutechess-cli's -repeat)")
    parser.add_argument("--seed", type=int, default=None, help="seed for order=random (and the course playoff)")
    parser.add_argument("--draw", nargs="+", default=None, metavar="KEY=VALUE",
                        help="draw adjudication: movenumber=N movecount=M score=S - a draw once N full moves are "
                             "played and both engines' scores stayed within S centipawns of 0 for M moves each")
    parser.add_argument("--resign", nargs="+", default=None, metavar="KEY=VALUE",
                        help="resign adjudication: movecount=M score=S [twosided=true] - a side whose own score "
                             "stayed S centipawns or more below 0 for M moves loses")
    parser.add_argument("--tb", default=None, metavar="DIR",
                        help="tablebase adjudication: a game that reaches a position the tables in DIR cover ends "
                             "with their verdict (tables from 'xqdesk egtb build')")


def endless(opening: Opening) -> Iterable[Opening]:
    """The same opening again and again."""
    return itertools.repeat(opening)


__all__ = ["OPENING_KEYS", "OpeningChoice", "UsageError", "openings_last", "add_start_and_adjudication_arguments", "endless", "key_values",
           "parse_adjudication", "parse_openings", "parse_sprt"]
