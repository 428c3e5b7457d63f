"""ECCO, the Chinese opening classification: which of the codes A00–E99 a game's opening is, with
its Chinese and English names.

The codes and the moves that define them are data (``xqdesk/data/ecco.txt``, whose header
explains the rule syntax); this module reads them once and matches a record's moves against
them. A rule constrains each side's own sequence of moves (a Red and a Black pattern), so the
classification does not depend on how the two sides' moves interleave, and moves that may come
in any order are written as blocks. A record is first mirrored when Red's first move off the
centre file starts on Red's left, as the definitions are all written from Red's right.

    >>> from xqdesk.move import Move
    >>> classify_moves([Move.from_iccs(text) for text in ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7")]).code
    'C00'

Qt-free core code: the game list, the explorer and the command line all ask it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from xqdesk.board import Board
from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.notation.chinese import chinese_selector
from xqdesk.notation.descriptive import describe_move
from xqdesk.pieces import RED
from xqdesk.position_key import mirror_move
from xqdesk.squares import square_file

DATA_FILE = "ecco.txt"
MAX_PLIES = 40
"""Only the first moves of a record are classified (every definition is shorter)."""
CENTRE_FILE = 4

MoveKey = tuple[int, int, str, int]
"""A move as the notations describe it: piece type, file number, direction, amount."""


class EccoDataError(XqdeskError):
    """The ECCO data file cannot be read; the message names the line."""


@dataclass(frozen=True)
class Opening:
    """One ECCO code with its names (``name`` in Chinese, ``english``); a name's part after
    ``——`` is the variation."""

    code: str
    name: str
    english: str

    @property
    def opening(self) -> str:
        """The Chinese name without the variation."""
        return self.name.split("——", 1)[0]

    @property
    def variation(self) -> str:
        """The Chinese variation (after ``——``), or ``""``."""
        return self.name.split("——", 1)[1] if "——" in self.name else ""

    def label(self, chinese: bool = True) -> str:
        """``C23 中炮过河车…`` or ``C23 Central Cannon…``."""
        return f"{self.code} {self.name if chinese else self.english}"


# --- patterns ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """The next move is one of ``moves`` (empty: any move, or the record's end)."""

    moves: frozenset[MoveKey]


@dataclass(frozen=True)
class Block:
    """Moves from ``optional`` (``any_optional``: any move) until every ``required`` alternative
    set has been played, in order when ``ordered``."""

    optional: frozenset[MoveKey]
    any_optional: bool
    required: tuple[frozenset[MoveKey], ...]
    ordered: bool


Phase = Step | Block
SidePattern = tuple[Phase, ...]


def side_matches(pattern: SidePattern, moves: Sequence[MoveKey]) -> bool:
    """Whether one side's ``moves`` begin as ``pattern`` says."""
    position = 0
    for phase in pattern:
        if isinstance(phase, Step):
            if position >= len(moves):
                if phase.moves:
                    return False
                continue
            if phase.moves and moves[position] not in phase.moves:
                return False
            position += 1
            continue
        remaining = list(phase.required)
        while remaining:
            if position >= len(moves):
                return False
            move = moves[position]
            position += 1
            candidates = remaining[:1] if phase.ordered else remaining
            found = next((alternatives for alternatives in candidates if move in alternatives), None)
            if found is not None:
                remaining.remove(found)
            elif not (phase.any_optional or move in phase.optional):
                return False
    return True


@dataclass(frozen=True)
class Rule:
    """An ECCO code's definition: patterns for each side (any one alternative must hold; none
    given: anything) and the codes that take precedence over it."""

    opening: Opening
    red: tuple[SidePattern, ...]
    black: tuple[SidePattern, ...]
    excluded: tuple[tuple[str, str], ...]

    def excludes(self, code: str) -> bool:
        return any(low <= code <= high for low, high in self.excluded)

    def matches(self, red: Sequence[MoveKey], black: Sequence[MoveKey],
                known: dict[tuple[SidePattern, bool], bool]) -> bool:
        """Whether both sides' moves satisfy this rule (``known``: the patterns already tried
        on these moves, shared between rules)."""
        return _any_matches(self.red, red, True, known) and _any_matches(self.black, black, False, known)

    def first_red_moves(self) -> frozenset[MoveKey] | None:
        """The moves Red's record must begin with for this rule (None: not one move in particular)."""
        firsts: set[MoveKey] = set()
        for pattern in self.red or ((),):
            first = pattern[0] if pattern else None
            if not isinstance(first, Step) or not first.moves:
                return None
            firsts |= first.moves
        return frozenset(firsts)


def _any_matches(patterns: tuple[SidePattern, ...], moves: Sequence[MoveKey], red: bool,
                 known: dict[tuple[SidePattern, bool], bool]) -> bool:
    if not patterns:
        return True
    for pattern in patterns:
        key = (pattern, red)
        if key not in known:
            known[key] = side_matches(pattern, moves)
        if known[key]:
            return True
    return False


# --- reading the data ------------------------------------------------------------------------------
_TOKEN = re.compile(r"\[|\]|\{|\}|:|\*\*|\*|\||@\w+|[^\s\[\]{}:|]+")


def _move_keys(text: str, where: str) -> frozenset[MoveKey]:
    keys = set()
    for part in text.split("/"):
        selector = chinese_selector(part)
        if selector is None or selector.file_number is None:
            raise EccoDataError(f"{where}: {part!r} is not a move in Chinese notation")
        keys.add((int(selector.piece_type), selector.file_number, selector.direction.value, selector.amount))
    return frozenset(keys)


def _side_patterns(text: str, named: dict[str, str], where: str) -> tuple[SidePattern, ...]:
    """The alternatives of a ``red:``/``black:`` line (named patterns expanded)."""
    tokens = _TOKEN.findall(text)
    finished: list[SidePattern] = []
    alternatives: list[list[Phase]] = [[]]
    index = 0

    def extend(phases: Sequence[Phase]) -> None:
        for alternative in alternatives:
            alternative.extend(phases)

    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token == "|":
            finished.extend(tuple(alternative) for alternative in alternatives)
            alternatives[:] = [[]]
        elif token.startswith("@"):
            if token[1:] not in named:
                raise EccoDataError(f"{where}: unknown pattern {token!r}")
            expansions = _side_patterns(named[token[1:]], named, where)
            alternatives[:] = [alternative + list(expansion) for alternative in alternatives for expansion in expansions]
        elif token == "*":
            extend([Step(frozenset())])
        elif token in "[{":
            closing = "]" if token == "[" else "}"
            try:
                end = tokens.index(closing, index)
                colon = tokens.index(":", index, end)
            except ValueError:
                raise EccoDataError(f"{where}: a block needs ':' and {closing!r}") from None
            optional_tokens = tokens[index:colon]
            optional = frozenset().union(*(_move_keys(t, where) for t in optional_tokens if t != "**"))
            required = tuple(_move_keys(t, where) for t in tokens[colon + 1:end])
            if not required:
                raise EccoDataError(f"{where}: a block needs at least one required move")
            extend([Block(optional, "**" in optional_tokens, required, token == "[")])
            index = end + 1
        else:
            extend([Step(_move_keys(token, where))])
    return tuple(finished) + tuple(tuple(alternative) for alternative in alternatives)


def parse_rules(text: str) -> tuple[Rule, ...]:
    """The rules of an ECCO data text (EccoDataError names the line of a mistake)."""
    named: dict[str, str] = {}
    entries: list[tuple[Opening, dict[str, tuple[str, int]]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@"):
            name, _tab, pattern = line.partition("\t")
            named[name[1:]] = pattern
        elif not line[0].isspace():
            columns = line.split("\t")
            if len(columns) != 3 or not re.fullmatch(r"[A-E]\d\d", columns[0]):
                raise EccoDataError(f"{DATA_FILE} line {number}: expected 'CODE<TAB>name<TAB>English name'")
            entries.append((Opening(*columns), {}))
        else:
            key, _colon, value = line.strip().partition(":")
            if not entries or key not in ("red", "black", "except"):
                raise EccoDataError(f"{DATA_FILE} line {number}: unexpected {line.strip()!r}")
            entries[-1][1][key] = (value.strip(), number)
    rules = []
    for opening, fields in entries:
        sides = []
        for side in ("red", "black"):
            value, number = fields.get(side, ("", 0))
            sides.append(_side_patterns(value, named, f"{DATA_FILE} line {number} ({opening.code})") if value else ())
        excluded = []
        for part in fields.get("except", ("", 0))[0].split():
            low, _dash, high = part.partition("-")
            excluded.append((low, high or low))
        rules.append(Rule(opening, sides[0], sides[1], tuple(excluded)))
    return tuple(rules)


@lru_cache(maxsize=1)
def ecco_rules() -> tuple[Rule, ...]:
    """Every ECCO code's rule, read once from the data file."""
    text = resources.files("xqdesk").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    return parse_rules(text)


@lru_cache(maxsize=1)
def _rules_by_first_red_move() -> dict[MoveKey | None, tuple[Rule, ...]]:
    """The rules by the move Red must start with (None: rules that do not need one move)."""
    index: dict[MoveKey | None, list[Rule]] = {}
    for rule in ecco_rules():
        firsts = rule.first_red_moves()
        for first in firsts if firsts is not None else (None,):
            index.setdefault(first, []).append(rule)
    return {first: tuple(rules) for first, rules in index.items()}


@lru_cache(maxsize=1)
def _openings_by_code() -> dict[str, Opening]:
    return {rule.opening.code: rule.opening for rule in ecco_rules()}


def opening_named(code: str) -> Opening:
    """The opening with ECCO ``code`` (KeyError for a code that is not defined)."""
    return _openings_by_code()[code.strip().upper()]


def openings() -> tuple[Opening, ...]:
    """Every defined ECCO opening, by code."""
    return tuple(rule.opening for rule in ecco_rules())


# --- classifying -----------------------------------------------------------------------------------
def _oriented(moves: Sequence[Move]) -> list[Move]:
    """``moves`` mirrored when Red's first move off the centre file starts on Red's left."""
    for move in moves[::2]:
        file = square_file(move.from_square)
        if file != CENTRE_FILE:
            return [mirror_move(m) for m in moves] if file < CENTRE_FILE else list(moves)
    return list(moves)


@lru_cache(maxsize=1)
def _start_board() -> Board:
    return Board(STARTING_FEN)


def _side_keys(moves: Sequence[Move]) -> tuple[list[MoveKey], list[MoveKey]]:
    board = _start_board().copy()
    sides: dict[bool, list[MoveKey]] = {True: [], False: []}
    for move in moves:
        description = describe_move(board, move)
        sides[description.color == RED].append((int(description.piece_type), description.file_number,
                                                description.direction.value, description.amount))
        board.push(move)
    return sides[True], sides[False]


def classify_moves(moves: Sequence[Move]) -> Opening:
    """The ECCO opening of a game from the start position that begins with ``moves`` (legal
    moves; only the first :data:`MAX_PLIES` count). A00 when no other code applies."""
    red, black = _side_keys(_oriented(list(moves[:MAX_PLIES])))
    index = _rules_by_first_red_move()
    candidates = index.get(None, ()) + (index.get(red[0], ()) if red else ())
    known: dict[tuple[SidePattern, bool], bool] = {}
    matched = [rule for rule in candidates if rule.matches(red, black, known)]
    kept = [rule for rule in matched if not any(rule.excludes(other.opening.code) for other in matched)]
    return max((rule.opening for rule in kept), key=lambda opening: opening.code, default=opening_named("A00"))


def classify_game(game: Game) -> Opening | None:
    """The ECCO opening of ``game``'s main line; None when it starts from another position than
    the standard one (ECCO classifies openings only)."""
    if game.start_fen.split()[:2] != STARTING_FEN.split()[:2]:
        return None
    return classify_moves(game.mainline_moves())
