"""The UCI protocol as pure functions over lines of text.

Two dialects of Xiangqi UCI exist in the wild and differ only in how ranks are numbered in moves:
Pikafish (and xqdesk's own host) write ICCS squares with ranks 0–9 (``h2e2``), Fairy-Stockfish with
``UCI_Variant xiangqi`` writes ranks 1–10 (``h3e3``, ``a10a9``). FEN is the same for both.
Everything an engine writes is untrusted: parsers raise :class:`EngineProtocolError` with the line.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from xqdesk.engines.errors import EnginePositionError, EngineProtocolError
from xqdesk.engines.options import OptionValue, UciOption, find_option, format_option_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.fen import parse_fen
from xqdesk.move import Move
from xqdesk.pieces import Color
from xqdesk.score import Cp, Mate, MateGiven, PovScore
from xqdesk.squares import FILE_NAMES, RANKS, square, square_file, square_rank


class UciDialect(enum.Enum):
    """How an engine numbers ranks in its move text."""

    PIKAFISH = "pikafish"  # ranks 0..9 (ICCS), as xqdesk itself
    FAIRY = "fairy"  # ranks 1..10, Fairy-Stockfish with UCI_Variant xiangqi

    @property
    def rank_offset(self) -> int:
        return 1 if self is UciDialect.FAIRY else 0


NULL_MOVES = ("0000", "(none)", "none", "null")
"""Texts engines use for "no move" after ``bestmove``."""

_MOVE_PATTERN = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")


def format_move(move: Move, dialect: UciDialect) -> str:
    """The move as ``dialect`` writes it (``h2e2`` for Pikafish, ``h3e3`` for Fairy-Stockfish)."""
    offset = dialect.rank_offset
    return "".join(FILE_NAMES[square_file(sq)] + str(square_rank(sq) + offset)
                   for sq in (move.from_square, move.to_square))


def parse_move(text: str, dialect: UciDialect) -> Move:
    """The move an engine wrote in ``dialect``; raises EngineProtocolError on anything else."""
    match = _MOVE_PATTERN.match(text.strip().lower())
    if match is None:
        raise EngineProtocolError(f"not a move: {text!r} (expected like 'h2e2')")
    offset = dialect.rank_offset
    from_rank, to_rank = int(match.group(2)) - offset, int(match.group(4)) - offset
    if not (0 <= from_rank < RANKS and 0 <= to_rank < RANKS):
        raise EngineProtocolError(
            f"move {text!r} has a rank outside {offset}..{RANKS - 1 + offset} ({dialect.value} dialect)")
    return Move(square(FILE_NAMES.index(match.group(1)), from_rank),
                square(FILE_NAMES.index(match.group(3)), to_rank))


def format_position(fen: str, moves: Sequence[Move], dialect: UciDialect) -> str:
    """``position fen <fen> [moves …]``: the game's start position and every move since."""
    line = f"position fen {fen}"
    if moves:
        line += " moves " + " ".join(format_move(move, dialect) for move in moves)
    return line


def format_go(limits: SearchLimits, dialect: UciDialect) -> str:
    """The ``go`` command for ``limits`` (``searchmoves`` last, as it takes the rest of the line).

    ``multipv`` is not part of ``go``; set the engine's ``MultiPV`` option instead.
    """
    parts = ["go"]
    if limits.infinite:
        parts.append("infinite")
    if limits.movetime is not None:
        parts.append(f"movetime {_milliseconds(limits.movetime)}")
    for word, seconds in (("wtime", limits.red_time), ("btime", limits.black_time),
                          ("winc", limits.red_increment), ("binc", limits.black_increment)):
        if seconds is not None:
            parts.append(f"{word} {_milliseconds(seconds)}")
    if limits.depth is not None:
        parts.append(f"depth {limits.depth}")
    if limits.nodes is not None:
        parts.append(f"nodes {limits.nodes}")
    if limits.searchmoves:
        parts.append("searchmoves " + " ".join(format_move(move, dialect) for move in limits.searchmoves))
    return " ".join(parts)


def _milliseconds(seconds: float) -> int:
    """Whole milliseconds, at least 1 (engines read 0 as "no time")."""
    return max(1, round(seconds * 1000))


def format_setoption(name: str, value: Optional[str] = None) -> str:
    """``setoption name <name> [value <value>]`` (no value for buttons)."""
    if "\n" in name or (value is not None and "\n" in value):
        raise ValueError(f"an option name or value cannot hold a newline: {name!r}={value!r}")
    return f"setoption name {name}" + ("" if value is None else f" value {value}")


def parse_id(line: str) -> tuple[str, str]:
    """``id name Pikafish 2024`` -> ``("name", "Pikafish 2024")``."""
    tokens = line.split(None, 2)
    if len(tokens) < 3 or tokens[0] != "id":
        raise EngineProtocolError(f"not an id line: {line!r}")
    return tokens[1], tokens[2].strip()


def format_option(option: UciOption) -> str:
    """The ``option name … type …`` line that declares ``option`` (the inverse of
    :func:`parse_option`)."""
    parts = [f"option name {option.name} type {option.type}"]
    if option.default is not None:
        parts.append(f"default {option.default if option.default != '' else '<empty>'}")
    if option.min is not None:
        parts.append(f"min {option.min}")
    if option.max is not None:
        parts.append(f"max {option.max}")
    parts.extend(f"var {choice}" for choice in option.choices)
    return " ".join(parts)


_OPTION_KEYWORDS = ("name", "type", "default", "min", "max", "var")


def parse_option(line: str) -> UciOption:
    """Parse ``option name Hash type spin default 16 min 1 max 33554432`` (names may hold spaces)."""
    tokens = line.split()
    if not tokens or tokens[0] != "option":
        raise EngineProtocolError(f"not an option line: {line!r}")
    fields: dict[str, list[str]] = {}
    choices: list[str] = []
    current: Optional[str] = None
    words: list[str] = []

    def close() -> None:
        if current == "var":
            choices.append(" ".join(words))
        elif current is not None:
            fields[current] = list(words)

    for token in tokens[1:]:
        # A keyword inside the name (e.g. "Clear Hash type button" is fine) only ends the name
        # when it is the next field's keyword; "name" itself never reappears.
        if token in _OPTION_KEYWORDS and not (current == "name" and token == "name"):
            close()
            current, words = token, []
        else:
            words.append(token)
    close()
    if "name" not in fields or not fields["name"] or "type" not in fields or not fields["type"]:
        raise EngineProtocolError(f"option line without a name or a type: {line!r}")

    def number(key: str) -> Optional[int]:
        if key not in fields:
            return None
        try:
            return int(" ".join(fields[key]))
        except ValueError:
            raise EngineProtocolError(f"option {key} is not an integer in {line!r}") from None

    default = " ".join(fields["default"]) if "default" in fields else None
    if default == "<empty>":
        default = ""
    return UciOption(name=" ".join(fields["name"]), type=fields["type"][0].lower(), default=default,
                     min=number("min"), max=number("max"), choices=tuple(choices))


_INFO_INT_FIELDS = {"depth": "depth", "seldepth": "seldepth", "nodes": "nodes", "nps": "nps",
                    "time": "time_ms", "multipv": "multipv"}


def parse_info(line: str, dialect: UciDialect, turn: Color) -> SearchInfo:
    """Parse an ``info`` line of a search in a position where ``turn`` is to move (its score is
    from that side's view). Unknown fields are skipped; a PV is cut at its first bad move. A line
    with nodes and time but no nps gets the nps they give."""
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise EngineProtocolError(f"not an info line: {line!r}")
    values: dict[str, object] = {}
    index = 1
    try:
        while index < len(tokens):
            key = tokens[index]
            if key == "string":
                values["string"] = line.split("string", 1)[1].strip()
                break
            if key in _INFO_INT_FIELDS:
                values[_INFO_INT_FIELDS[key]] = int(tokens[index + 1])
                index += 2
            elif key == "score":
                kind, amount = tokens[index + 1], int(tokens[index + 2])
                if kind == "cp":
                    values["score"] = PovScore(Cp(amount), turn)
                elif kind == "mate":
                    values["score"] = PovScore(Mate(amount), turn)
                else:
                    raise EngineProtocolError(f"unknown score kind {kind!r} in {line!r}")
                index += 3
                while index < len(tokens) and tokens[index] in ("lowerbound", "upperbound"):
                    index += 1
            elif key == "pv":
                pv = []
                for text in tokens[index + 1:]:
                    try:
                        pv.append(parse_move(text, dialect))
                    except EngineProtocolError:
                        break
                values["pv"] = tuple(pv)
                break
            else:
                index += 1
    except (IndexError, ValueError) as error:
        if isinstance(error, EngineProtocolError):
            raise
        raise EngineProtocolError(f"malformed info line {line!r}: {error}") from None
    nodes, time_ms = values.get("nodes"), values.get("time_ms")
    if "nps" not in values and isinstance(nodes, int) and isinstance(time_ms, int) and time_ms > 0:
        values["nps"] = nodes * 1000 // time_ms  # engines such as ElephantEye give nodes and time, no nps
    return SearchInfo(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class BestMove:
    """A ``bestmove`` reply: ``move`` is None for a null move (``0000``, ``(none)``) or UCCI's
    ``nobestmove``.

    ``text`` is what the engine wrote after ``bestmove``, for error messages.
    """

    move: Optional[Move]
    text: str
    ponder: Optional[Move] = None
    offer: Optional[str] = None
    """``"draw"`` or ``"resign"`` when the engine offered it with its move (UCCI)."""


def parse_bestmove(line: str, dialect: UciDialect) -> BestMove:
    """Parse ``bestmove h2e2 [ponder h9g7]``; raises EngineProtocolError on a malformed move."""
    tokens = line.split()
    if not tokens or tokens[0] != "bestmove":
        raise EngineProtocolError(f"not a bestmove line: {line!r}")
    if len(tokens) < 2:
        return BestMove(None, "")
    text = tokens[1]
    if text.lower() in NULL_MOVES:
        return BestMove(None, text)
    move = parse_move(text, dialect)
    ponder = None
    if len(tokens) >= 4 and tokens[2] == "ponder":
        try:
            ponder = parse_move(tokens[3], dialect)
        except EngineProtocolError:
            ponder = None
    return BestMove(move, text, ponder)


def parse_position(line: str, dialect: UciDialect) -> tuple[Optional[str], list[Move]]:
    """``position startpos|fen <fen> [moves …]`` -> (FEN or None for startpos, moves)."""
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "position" or tokens[1] not in ("startpos", "fen"):
        raise EngineProtocolError(f"not a position command: {line!r}")
    rest = tokens[2:]
    moves_at = rest.index("moves") if "moves" in rest else len(rest)
    fen = " ".join(rest[:moves_at]) if tokens[1] == "fen" else None
    if tokens[1] == "fen" and not fen:
        raise EngineProtocolError(f"position fen without a FEN: {line!r}")
    return fen, [parse_move(text, dialect) for text in rest[moves_at + 1:]]


_GO_SECONDS = {"movetime": "movetime", "wtime": "red_time", "btime": "black_time",
               "winc": "red_increment", "binc": "black_increment"}
"""``go`` fields given in milliseconds, and the SearchLimits field each fills (in seconds)."""


def parse_go(line: str, dialect: UciDialect) -> SearchLimits:
    """The limits of a ``go`` command (``movestogo`` and other fields it does not know are skipped)."""
    tokens = line.split()
    if not tokens or tokens[0] != "go":
        raise EngineProtocolError(f"not a go command: {line!r}")
    values: dict[str, object] = {}
    index = 1
    try:
        while index < len(tokens):
            key = tokens[index]
            if key == "infinite":
                values["infinite"] = True
                index += 1
            elif key in _GO_SECONDS:
                values[_GO_SECONDS[key]] = int(tokens[index + 1]) / 1000
                index += 2
            elif key in ("depth", "nodes"):
                values[key] = int(tokens[index + 1])
                index += 2
            elif key == "searchmoves":
                values["searchmoves"] = tuple(parse_move(text, dialect) for text in tokens[index + 1:])
                break
            else:
                index += 1
    except (IndexError, ValueError) as error:
        if isinstance(error, EngineProtocolError):
            raise
        raise EngineProtocolError(f"malformed go command {line!r}: {error}") from None
    return SearchLimits(**values)  # type: ignore[arg-type]


def format_info(info: SearchInfo, dialect: UciDialect) -> str:
    """An ``info`` line for ``info`` (``string`` last, as it takes the rest of the line)."""
    parts = ["info"]
    for key, field_name in _INFO_INT_FIELDS.items():
        value = getattr(info, field_name)
        if value is not None and not (key == "multipv" and value == 1):
            parts.append(f"{key} {value}")
    if info.score is not None:
        parts.append(format_score(info.score))
    if info.pv:
        parts.append("pv " + " ".join(format_move(move, dialect) for move in info.pv))
    if info.string is not None:
        parts.append("string " + " ".join(info.string.split()))
    return " ".join(parts)


def format_score(score: PovScore) -> str:
    """``score cp 35`` or ``score mate -2``: the score from the side to move's view (UCI cannot
    say "the side to move has mated", so :data:`~xqdesk.score.MATE_GIVEN` raises ValueError)."""
    relative = score.relative
    if isinstance(relative, MateGiven):
        raise ValueError(f"a UCI score is from the side to move's view and cannot be {relative!r}")
    mate = relative.mate()
    return f"score mate {mate}" if mate is not None else f"score cp {relative.score()}"


PIKAFISH_MAX_RULE60 = 119
"""The largest capture-free ply counter Pikafish accepts in a FEN (its 60-move rule draws at 120)."""


def pikafish_fen(start_fen: str, moves: Sequence[Move]) -> str:
    """``start_fen`` as a Pikafish-style engine accepts it: the letters RNBAKCP, and a capture-free
    counter low enough that it stays at most 119 through ``moves`` up to their first capture.

    Raises EnginePositionError with every reason when the position cannot occur (such engines
    refuse, or crash on, impossible positions).
    """
    from xqdesk.board import Board
    from xqdesk.fen import format_fen
    from xqdesk.position_check import position_problems

    fields = parse_fen(start_fen, check_position=False)
    problems = position_problems(fields.codes, fields.turn)
    if problems:
        raise EnginePositionError(f"Pikafish-style engines refuse impossible positions: {start_fen!r}: "
                                  + "; ".join(problems))
    board = Board(start_fen)
    quiet = 0
    for move in moves:
        if board.is_capture(move):
            break
        board.push(move)
        quiet += 1
    clock = min(fields.halfmove_clock, max(0, PIKAFISH_MAX_RULE60 - quiet))
    return format_fen(fields.codes, fields.turn, clock, fields.fullmove_number)


_NETWORK_WORDS = re.compile(r"\.nnue\b|network", re.IGNORECASE)


def network_file_problem(lines: Iterable[str], options: Iterable[str] = ("EvalFile",)) -> Optional[str]:
    """The engine's own complaint that its neural network file could not be loaded (Pikafish and
    other NNUE engines write ``info string ERROR: … network …`` and exit), or None. The advice
    names the option the engine declares for its network (``options``: its option names):
    ``EvalFile`` and a ``.nnue`` file next to it (Pikafish), or ``Network`` (xqdesk's ``zero``)."""
    found = [line for line in lines if "error" in line.lower() and _NETWORK_WORDS.search(line)]
    if not found:
        return None
    line = next((line for line in found if ".nnue" in line.lower()), found[0])  # the one naming the file
    text = line.split("string", 1)[1].strip() if line.startswith("info string") else line.strip()
    declared = {name.lower(): name for name in options}
    if "evalfile" not in declared and "network" in declared:
        return (f"its network file is missing or unreadable ({text}); name a good one with the "
                f"{declared['network']} option")
    return (f"its network file is missing or unreadable ({text}); put the engine's .nnue file "
            "next to the engine (or name it with the EvalFile option)")


def detect_dialect(options: Sequence[UciOption]) -> Optional[UciDialect]:
    """FAIRY when the engine offers ``UCI_Variant`` with ``xiangqi``, PIKAFISH when it has no
    variant option, None when it has variants but not Xiangqi (so it cannot play Xiangqi)."""
    for option in options:
        if option.name.lower() == "uci_variant":
            if any(choice.lower() == "xiangqi" for choice in option.choices):
                return UciDialect.FAIRY
            return None
    return UciDialect.PIKAFISH


__all__ = ["UciDialect", "UciOption", "OptionValue", "BestMove", "NULL_MOVES", "format_move", "parse_move",
           "format_option", "format_option_value", "find_option",
           "format_position", "format_go", "format_setoption", "parse_id", "parse_option",
           "parse_info", "parse_bestmove", "detect_dialect", "parse_position", "parse_go",
           "format_info", "format_score", "pikafish_fen", "network_file_problem", "PIKAFISH_MAX_RULE60"]
