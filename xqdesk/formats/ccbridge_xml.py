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

import xml.etree.ElementTree as ElementTree
from pathlib import Path

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


def looks_like_cbf(text: str) -> bool:
    """Whether ``text`` is a XiangQi Bridge XML record."""
    return "<ChineseChessRecord" in text[:2000]


def parse_cbf(text: str, source: str = "<cbf>") -> GameFile:
    """The game of a ``.cbf`` text (see the module's docstring)."""
    try:
        root = ElementTree.fromstring(text.lstrip("\ufeff").encode("utf-8"))
    except ElementTree.ParseError as error:
        return GameFile(source, errors=[file_error(source, f"line {error.position[0]}",
                                                   f"not well-formed XML: {error}")])
    except (LookupError, ValueError) as error:  # an XML declaration naming an unknown encoding
        return GameFile(source, errors=[file_error(source, "line 1", f"unreadable XML: {error}")])
    head = root.find("Head")
    headers: dict[str, str] = {}
    fen = STARTING_FEN
    result = None
    if head is not None:
        for element in head:
            value = (element.text or "").strip()
            if element.tag in _HEADERS and value:
                headers[_HEADERS[element.tag]] = value
            elif element.tag == "FEN" and value:
                fen = value
            elif element.tag == "RecordResult":
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
    moves = root.find("MoveList")
    elements = list(moves.iter("Move")) if moves is not None else []
    node: GameNode = game
    for index, element in enumerate(elements):
        value = element.get("value", "")
        comment = (element.text or "").strip()
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
        if element.get("end") == "1":
            rest = len(elements) - index - 1
            if rest:
                record.errors.append(GameReadError(source, 1, f"<Move> {index + 1}", "",
                                                   f"{rest} moves after the end of the main line are not read"))
            break
    return record


def read_cbf(path: str | Path, encoding: str | None = None) -> GameFile:
    """Read a ``.cbf`` file."""
    return read_text_records(path, encoding, parse_cbf)
