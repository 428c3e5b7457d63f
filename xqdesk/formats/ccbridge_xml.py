"""象棋桥 XiangQi Bridge's XML records (``.cbf``), read.

::

    <ChineseChessRecord Version="1.0">
     <Head><Name>…</Name><Contest>…</Contest><Red>…</Red> … <RecordResult>0</RecordResult>
      <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN></Head>
     <MoveList>
      <Move value="00-00"><![CDATA[the opening comment]]></Move>
      <Move value="77-47" />            (file 0..8 from the left, rank 0..9 from the top: h2e2)
      <Move value="23-29" end="1"><![CDATA[a comment]]></Move>
     </MoveList>
    </ChineseChessRecord>

``RecordResult`` is 1 Red won, 2 Black won, 3 or 4 drawn. The main line ends at the move marked
``end="1"``; moves listed after it (variations, whose attachment the format does not spell out in
any file seen) are reported as not read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, read_text_records
from xqdesk.formats.outcome_text import outcome_from_result
from xqdesk.game import Game, GameNode, move_label
from xqdesk.move import Move
from xqdesk.ruleset import STANDARD
from xqdesk.squares import square

_HEADERS = {"Name": "Title", "Contest": "Event", "Round": "Round", "Date": "Date", "Site": "Site",
            "Red": "Red", "RedTeam": "RedTeam", "Black": "Black", "BlackTeam": "BlackTeam",
            "Commentator": "Annotator", "ECCO": "ECCO"}
_RESULTS = {"1": "1-0", "2": "0-1", "3": "1/2-1/2", "4": "1/2-1/2"}
MAX_NESTING = 32
"""The deepest nesting of elements read (a record nests three deep: record, ``MoveList``, ``Move``)."""


def looks_like_cbf(text: str) -> bool:
    """Whether ``text`` is a XiangQi Bridge XML record."""
    return "<ChineseChessRecord" in text[:2000]


class _Refused(Exception):
    """Raised from inside the XML parser to stop it: what is wrong, and on which line."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


@dataclass
class _Collected:
    """What the XML says, gathered in one pass: the fields of the first ``Head``, in order, each
    with its text (as ``Element.text`` gives it: the text before any child), and each ``Move``
    below the first ``MoveList``: its ``value``, whether ``end="1"`` and its text."""

    head: list[tuple[str, str]] = field(default_factory=list)
    moves: list[tuple[str, bool, str]] = field(default_factory=list)


class _CbfScanner:
    """Reads a record with expat's event parser, keeping only what a game needs: linear in the
    text, memory in proportion to the moves, nesting refused beyond :data:`MAX_NESTING` and entity
    declarations (the "billion laughs") refused outright, as defusedxml does."""

    def __init__(self) -> None:
        self.found = _Collected()
        self.path: list[str] = []
        self.head_done = self.moves_done = False
        self.in_head = self.in_moves = False
        self.text: list[str] | None = None  # the text of the element being read, until its first child
        self.move: tuple[str, bool] | None = None
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._characters
        self.parser.EntityDeclHandler = self._entity

    def scan(self, text: str) -> _Collected:
        """Parse ``text``; raises expat.ExpatError (not well-formed) or _Refused."""
        self.parser.Parse(text, True)
        return self.found

    def _start(self, name: str, attributes: dict[str, str]) -> None:
        self._text_done()
        self.path.append(name)
        depth = len(self.path)
        if depth > MAX_NESTING:
            raise _Refused(f"elements nested more than {MAX_NESTING} deep: not a XiangQi Bridge record",
                           self.parser.CurrentLineNumber)
        if depth == 2 and name == "Head" and not self.head_done:
            self.in_head = True
        elif depth == 2 and name == "MoveList" and not self.moves_done:
            self.in_moves = True
        elif depth == 3 and self.in_head:
            self.text = []
        elif self.in_moves and name == "Move":
            self.move = (attributes.get("value", ""), attributes.get("end") == "1")
            self.text = []

    def _characters(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)

    def _text_done(self) -> None:
        """The element being read has its text: keep it (at its first child or its end)."""
        if self.text is None:
            return
        text = "".join(self.text).strip()
        self.text = None
        if self.move is not None:
            self.found.moves.append((*self.move, text))
            self.move = None
        else:
            self.found.head.append((self.path[-1], text))

    def _end(self, name: str) -> None:
        self._text_done()
        depth = len(self.path)
        self.path.pop()
        if depth == 2 and name == "Head" and self.in_head:
            self.in_head, self.head_done = False, True
        elif depth == 2 and name == "MoveList" and self.in_moves:
            self.in_moves, self.moves_done = False, True

    def _entity(self, name: str, *_rest: object) -> None:
        raise _Refused(f"the XML declares an entity ({name!r}); a record has none", self.parser.CurrentLineNumber)


def parse_cbf(text: str, source: str = "<cbf>") -> GameFile:
    """The game of a ``.cbf`` text (see the module's docstring). Linear in the text's length, with
    memory in proportion to its moves; nesting beyond :data:`MAX_NESTING` and entity declarations
    are refused with an error naming the line."""
    try:
        found = _CbfScanner().scan(text.lstrip("\ufeff"))
    except expat.ExpatError as error:
        return GameFile(source, errors=[file_error(source, f"line {error.lineno}", f"not well-formed XML: {error}")])
    except _Refused as refused:
        return GameFile(source, errors=[file_error(source, f"line {refused.line}", refused.reason)])
    except (LookupError, ValueError) as error:  # an XML declaration naming an unknown encoding
        return GameFile(source, errors=[file_error(source, "line 1", f"unreadable XML: {error}")])
    headers: dict[str, str] = {}
    fen = STARTING_FEN
    result = None
    for tag, value in found.head:
        if tag in _HEADERS and value:
            headers[_HEADERS[tag]] = value
        elif tag == "FEN" and value:
            fen = value
        elif tag == "RecordResult":
            result = _RESULTS.get(value)
    if result:
        headers["Result"] = result
    try:
        board = Board(fen, ruleset=STANDARD)
    except InvalidFenError as error:
        return GameFile(source, errors=[GameReadError(source, 1, "<FEN>", fen, str(error))])
    game = Game(headers=headers, start_fen=STARTING_FEN if board.fen() == STARTING_FEN else board.fen(),
                outcome=outcome_from_result(result) if result else None, ruleset=STANDARD)
    record = GameFile(source, [game])
    elements = found.moves
    node: GameNode = game
    for index, (value, ends_line, comment) in enumerate(elements):
        if index == 0 and value == "00-00":
            game.comment = comment
            continue
        digits = value.replace("-", "")
        if len(digits) != 4 or not (digits.isascii() and digits.isdigit()):
            record.errors.append(GameReadError(source, 1, f"<Move> {index} ({move_label(board)})", value,
                                               "a move is written 'XY-XY' (file 0-8, rank 0-9 from the top)"))
            break
        move = Move(square(int(digits[0]), 9 - int(digits[1])), square(int(digits[2]), 9 - int(digits[3])))
        if not board.is_legal(move):
            record.errors.append(GameReadError(source, 1, f"<Move> {index} ({move_label(board)})", value,
                                               f"{move.iccs()} is not legal in {board.fen()!r}: "
                                               f"{board.why_illegal(move)}"))
            break
        board.push(move)
        node = node.add_variation(move, comment=comment)
        if ends_line:
            rest = len(elements) - index - 1
            if rest:
                record.errors.append(GameReadError(source, 1, f"<Move> {index + 1}", "",
                                                   f"{rest} moves after the end of the main line are not read"))
            break
    return record


def read_cbf(path: str | Path, encoding: str | None = None) -> GameFile:
    """Read a ``.cbf`` file."""
    return read_text_records(path, encoding, parse_cbf)
