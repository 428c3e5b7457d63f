"""DhtmlXQ, the UBB code of 东萍象棋网 (dpxq.com), read and written — also found inside web pages.

A game is a block ``[DhtmlXQ] … [/DhtmlXQ]`` of fields ``[DhtmlXQ_name]value[/DhtmlXQ_name]``:

- ``binit``: the start position, 64 digits, two per piece (file 0..8 from the left, rank 0..9 from
  the top) in the order 车马相仕帅仕相马车炮炮兵兵兵兵兵, Red's 16 then Black's; ``99`` is a piece off
  the board. Missing: the start position. The side to move is the first move's.
- ``movelist``: the main line, four digits a move (from file, from rank, to file, to rank).
- ``move_<parent>_<ply>_<id>``: variation ``id`` (the main line is 0), an alternative to ply ``ply``
  (1-based, counted from the start) of line ``parent``, continuing from there.
- ``comment<ply>`` (main line) and ``comment<id>_<ply>`` (variation ``id``): the comment after that
  ply (``comment0``: before the first move); ``||`` is a line break.
- headers: ``title``, ``event``, ``date``, ``place``, ``round``, ``red``, ``black``, ``redteam``,
  ``blackteam``, ``open`` (the opening), ``remark`` (the commentator), ``author`` and ``result``
  (红胜 / 黑胜 / 和棋, in simplified or traditional characters, also 红方胜, 先胜 …).

A text may hold several blocks (a web page: tags and entities are taken out first). Every move is
checked; an illegal one ends its line with an error naming the line, the ply and the digits.
Written: the fields above (``binit`` always, ``ver`` ``www_dpxq_com``); a comment before a
variation's first move, which DhtmlXQ has no place for, is put at the start of that move's comment.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.atomic_write import atomic_text_output
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, read_text_records
from xqdesk.formats.outcome_text import outcome_from_result
from xqdesk.formats.piece_slots import SLOT_ORDER, slot_squares
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED, Piece
from xqdesk.ruleset import STANDARD
from xqdesk.squares import square, square_file, square_rank

BINIT_ORDER = SLOT_ORDER
"""The piece of each two-digit slot of ``binit``, for each side."""
START_BINIT = "8979695949392919097717866646260600102030405060708012720323436383"

_BLOCK = re.compile(r"\[DhtmlXQ\](.*?)(?:\[/DhtmlXQ\]|\Z)", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"\[(/?)DhtmlXQ_([A-Za-z0-9_]+)\]", re.IGNORECASE)
_BRANCH = re.compile(r"move_([0-9]{1,9})_([0-9]{1,9})_([0-9]{1,9})", re.IGNORECASE)  # ASCII, few digits
_COMMENT = re.compile(r"comment(?:([0-9]{1,9})_)?([0-9]{1,9})", re.IGNORECASE)
_HTML_TAG = re.compile(r"<[^<>]*>")
_HTML_MARK = re.compile(r"<\s*/?\s*(?:html|head|body|div|br|p|td|tr|table|textarea|script|span|pre)\b", re.IGNORECASE)
_HEADERS = {"title": "Title", "event": "Event", "date": "Date", "place": "Site", "round": "Round",
            "red": "Red", "black": "Black", "redteam": "RedTeam", "blackteam": "BlackTeam",
            "open": "Opening", "remark": "Annotator", "author": "Author"}
_FIELD_OF_HEADER = {header: name for name, header in _HEADERS.items()}
_RED_WINS = ("红胜", "紅勝", "红方胜", "紅方勝", "先胜", "先勝", "红先胜", "紅先勝", "1-0")
_BLACK_WINS = ("黑胜", "黑勝", "黑方胜", "黑方勝", "先负", "先負", "红先负", "紅先負", "0-1")
_DRAWS = ("和棋", "和局", "和", "先和", "红先和", "紅先和", "1/2-1/2")
_RESULT_TEXT = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋"}


def looks_like_dhtmlxq(text: str) -> bool:
    """Whether ``text`` holds DhtmlXQ fields (alone or inside a web page)."""
    return re.search(r"\[DhtmlXQ_(?:movelist|binit|move_\d)", text, re.IGNORECASE) is not None


def read_dhtmlxq(path: str | Path, encoding: str | None = None) -> GameFile:
    """Every DhtmlXQ game in a file (UBB text or a web page; encoding detected unless given)."""
    return read_text_records(path, encoding, parse_dhtmlxq)


def parse_dhtmlxq(text: str, source: str = "<dhtmlxq>") -> GameFile:
    """Every DhtmlXQ game in ``text``; a text with fields but no ``[DhtmlXQ]`` around them is one game."""
    if _HTML_MARK.search(text):
        text = html.unescape(_HTML_TAG.sub("\n", text))
    blocks = [match.group(1) for match in _BLOCK.finditer(text)] or [text]
    result = GameFile(source)
    for block in blocks:
        fields = _field_values(block)
        if not any(name == "movelist" or name == "binit" or _BRANCH.fullmatch(name) for name in fields):
            continue
        game, errors = _game_from_fields(fields, source, len(result.games) + 1)
        if game is not None:
            result.games.append(game)
        result.errors.extend(errors)
    if not result.games and not result.errors:
        result.errors.append(file_error(source, "whole file", "no DhtmlXQ game (no [DhtmlXQ_movelist] or "
                                                              "[DhtmlXQ_binit]) in the text"))
    return result


def _result(text: str) -> str | None:
    text = text.strip().replace(" ", "")
    if text in _RED_WINS:
        return "1-0"
    if text in _BLACK_WINS:
        return "0-1"
    if text in _DRAWS:
        return "1/2-1/2"
    return None


def _square(x: str, y: str) -> int:
    return square(int(x), 9 - int(y))


def _board_from_binit(binit: str) -> Board:
    """The position ``binit`` describes (side to move: Red; see :func:`_game_from_fields`)."""
    digits = re.sub(r"[^0-9]", "9", binit)
    if len(digits) != 64:
        raise InvalidFenError(f"binit {binit!r} has {len(digits)} digits, not 64")
    rows = [["."] * 9 for _ in range(10)]
    for index in range(32):
        x, y = digits[2 * index], digits[2 * index + 1]
        if x == "9":  # off the board
            continue
        top_row = int(y)
        if rows[top_row][int(x)] != ".":
            raise InvalidFenError(f"binit {binit!r}: two pieces on file {x}, rank {y} (from the top)")
        rows[top_row][int(x)] = Piece(BINIT_ORDER[index % 16], RED if index < 16 else BLACK).symbol()
    fen_rows = []
    for row in rows:
        text, empty = "", 0
        for cell in row:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        fen_rows.append(text + (str(empty) if empty else ""))
    return Board("/".join(fen_rows) + " w - - 0 1", ruleset=STANDARD)


@dataclass(eq=False)
class _Branch:
    """One line of the record: ``moves`` from ply ``start`` (1-based), an alternative in ``parent``.

    ``holder`` is the line that holds the node this one hangs from (its ply ``start - 1``: the
    parent, or further up when the line branches before its parent begins; None for the line that
    stands for the game's start), found along ``holder`` links; ``jump`` skips ahead along them
    (:func:`_holder_of`). ``nodes`` are the moves read; ``hanging`` counts, by ply, the lines that
    hang from this one there and ``boards`` keeps those positions until the last of them is read."""

    number: int
    parent: int
    start: int
    moves: str
    nodes: list[GameNode] = field(default_factory=list)
    hanging: dict[int, int] = field(default_factory=dict)
    boards: dict[int, Board] = field(default_factory=dict)
    holder: _Branch | None = None
    jump: _Branch | None = None
    links: int = 0


def _field_values(block: str) -> dict[str, str]:
    """The fields ``[DhtmlXQ_name]value[/DhtmlXQ_name]`` of a block, by lower-case name, each
    value stripped; a field that never closes is skipped. One pass over the block's tags: linear
    in its length (a tag with no close is not searched for again and again)."""
    tags = list(_TAG.finditer(block))
    closes: dict[str, list[int]] = {}
    for index, tag in enumerate(tags):
        if tag.group(1):
            closes.setdefault(tag.group(2).lower(), []).append(index)
    seen: dict[str, int] = {}  # per name: how many of its closing tags lie behind the scan
    fields: dict[str, str] = {}
    index = 0
    while index < len(tags):
        tag = tags[index]
        index += 1
        if tag.group(1):
            continue
        name = tag.group(2).lower()
        ends = closes.get(name, [])
        done = seen.get(name, 0)
        while done < len(ends) and ends[done] < index:
            done += 1
        seen[name] = done
        if done == len(ends):
            continue  # never closed: the text after it is read as fields of its own
        close = tags[ends[done]]
        fields[name] = block[tag.end():close.start()].strip()
        index = ends[done] + 1
    return fields


def _game_from_fields(fields: dict[str, str], source: str, number: int) -> tuple[Game | None, list[GameReadError]]:
    """The game of one block's fields. Linear in the number of moves and fields, but for lines
    that branch before their parent line begins: finding the line that holds their branching
    point takes a number of steps logarithmic in how many lines they hang below."""
    errors: list[GameReadError] = []
    headers = {header: fields[name] for name, header in _HEADERS.items()
               if fields.get(name, "").strip() and fields[name].strip() != "0000-00-00"}
    result = _result(fields.get("result", ""))
    if result:
        headers["Result"] = result
    try:
        board = _board_from_binit(fields["binit"]) if fields.get("binit") else Board(ruleset=STANDARD)
    except (InvalidFenError, ValueError) as error:
        return None, [GameReadError(source, number, "[DhtmlXQ_binit]", fields.get("binit", ""), str(error))]
    branches = {0: _Branch(0, -1, 1, re.sub(r"\s", "", fields.get("movelist", "")))}
    for name, value in fields.items():
        if (match := _BRANCH.fullmatch(name)) is not None:
            parent, start, branch = (int(group) for group in match.groups())
            if branch == 0:
                branches[0].moves = branches[0].moves or re.sub(r"\s", "", value)
                continue
            branches[branch] = _Branch(branch, parent, start, re.sub(r"\s", "", value))
    first = branches[0].moves[:2]
    if len(first) == 2 and first.isascii() and first.isdigit():
        piece = board.piece_at(_square(first[0], first[1]))
        if piece is not None and piece.color == BLACK:
            board = Board(board.fen().replace(" w ", " b "), ruleset=STANDARD)
    game = Game(headers=headers, start_fen=board.fen() if board.fen() != STARTING_FEN else STARTING_FEN,
                comment=_comment_text(fields.get("comment0", "") or fields.get("comment0_0", "")),
                outcome=outcome_from_result(result) if result else None, ruleset=STANDARD)
    root = _Branch(-1, -1, 0, "", nodes=[game], boards={0: board})  # the start: ply 0
    root.jump = root
    order, unreachable = _lines_in_order(branches)
    for line in order:
        above = branches[line.parent] if line.number else root
        line.holder = root if line.start == 1 else _holder_of(above, line.start - 1)
        _link(line)
        line.holder.hanging[line.start - 1] = line.holder.hanging.get(line.start - 1, 0) + 1
    for line in order:
        _read_line(game, line, source, number, errors)
    for line in unreachable:
        errors.append(GameReadError(source, number, f"[DhtmlXQ_move_{line.parent}_{line.start}_{line.number}]",
                                    "", f"variation {line.number} hangs from line {line.parent}, "
                                        "which the record does not hold"))
    for name, value in fields.items():
        if (match := _COMMENT.fullmatch(name)) is None:
            continue
        line_number, ply = int(match.group(1) or 0), int(match.group(2))
        if ply == 0:
            continue
        node = _node_at(branches[line_number], ply) if line_number in branches else None
        if node is None:
            errors.append(GameReadError(source, number, f"[DhtmlXQ_{name}]", value[:40],
                                        f"a comment on ply {ply} of line {line_number}, which the record does not reach"))
            continue
        node.comment = _comment_text(value)
    return game, errors


def _comment_text(value: str) -> str:
    return value.replace("||", "\n").strip()


def _lines_in_order(branches: dict[int, _Branch]) -> tuple[list[_Branch], list[_Branch]]:
    """The lines reachable from the main line, by depth below it and then by number (the order
    they are read in, so alternatives at one node keep their numbers' order), and the others (their
    parent is missing, or they hang from each other in a loop), by number."""
    children: dict[int, list[_Branch]] = {}
    for number in sorted(branches):
        if number:
            children.setdefault(branches[number].parent, []).append(branches[number])
    order: list[_Branch] = []
    level = [branches[0]]
    while level:
        order.extend(level)
        level = sorted((child for line in level for child in children.get(line.number, [])),
                       key=lambda line: line.number)
    reached = {id(line) for line in order}
    return order, [branches[number] for number in sorted(branches) if id(branches[number]) not in reached]


def _link(line: _Branch) -> None:
    """Set ``line.jump`` once ``line.holder`` is known: the skew-binary jump pointers of Myers'
    "An applicative random-access stack", so that :func:`_holder_of` skips along holders in
    logarithmically many steps."""
    holder = line.holder
    if holder is None or holder.jump is None:
        raise RuntimeError("a DhtmlXQ line was linked before the line it hangs from")
    line.links = holder.links + 1
    beyond = holder.jump
    if beyond.jump is not None and holder.links - beyond.links == beyond.links - beyond.jump.links:
        line.jump = beyond.jump
    else:
        line.jump = holder


def _holder_of(line: _Branch, ply: int) -> _Branch:
    """The line that holds ply ``ply`` as seen from ``line``: ``line`` itself when it starts at or
    before that ply, else the first line up its holders that does (starts only fall along holders,
    so whole runs of them are skipped by ``jump``)."""
    while line.start > ply:
        jump = line.jump
        if jump is not None and jump is not line and jump.start > ply:
            line = jump
        elif line.holder is not None:
            line = line.holder
        else:
            break
    return line


def _node_at(line: _Branch, ply: int) -> GameNode | None:
    """The node reached after ``ply`` plies along ``line`` (its ancestors' moves before it starts)."""
    if line.jump is None:  # a line that hangs from nothing the record holds
        return None
    holder = _holder_of(line, ply)
    index = ply - holder.start
    return holder.nodes[index] if 0 <= index < len(holder.nodes) else None


def _read_line(game: Game, branch: _Branch, source: str, number: int, errors: list[GameReadError]) -> None:
    """Read the moves of ``branch`` from the node it hangs from, checking each; keep the positions
    other lines hang from (without their history: the standard rules do not look back, so copying
    one costs the same at any depth)."""
    label = "main line" if branch.number == 0 else f"variation {branch.number}"
    tag = "[DhtmlXQ_movelist]" if branch.number == 0 else (
        f"[DhtmlXQ_move_{branch.parent}_{branch.start}_{branch.number}]")
    holder = branch.holder
    if holder is None:
        raise RuntimeError("a DhtmlXQ line was read before it was linked")
    at = branch.start - 1
    index = at - holder.start
    kept = holder.boards.get(at)
    holder.hanging[at] -= 1
    if not holder.hanging[at]:  # the last line hanging there: the position is not needed again
        holder.boards.pop(at, None)
    if kept is None or not 0 <= index < len(holder.nodes):
        errors.append(GameReadError(source, number, tag, "", f"{label} starts at ply {branch.start}, "
                                                             f"which line {branch.parent} does not reach"))
        return
    parent = holder.nodes[index]
    board = _position_of(kept)
    wanted = branch.hanging
    for index in range(0, len(branch.moves), 4):
        digits = branch.moves[index:index + 4]
        ply = branch.start + index // 4
        where = f"{tag}, ply {ply} of the {label}"
        if len(digits) != 4 or not (digits.isascii() and digits.isdigit()) or "9" in (digits[0], digits[2]):
            errors.append(GameReadError(source, number, where, digits, "a move is four digits: from file, "
                                                                       "from rank, to file, to rank"))
            break
        move = Move(_square(digits[0], digits[1]), _square(digits[2], digits[3]))
        if not board.is_legal(move):
            errors.append(GameReadError(source, number, where, digits,
                                        f"{move.iccs()} is not legal in {board.fen()!r}: {board.why_illegal(move)}"))
            break
        board.push(move)
        parent = parent.add_variation(move)
        branch.nodes.append(parent)
        if ply in wanted:
            branch.boards[ply] = _position_of(board)


def _position_of(board: Board) -> Board:
    """A board at ``board``'s position with no history."""
    return board.copy(stack=False)


# --- writing ------------------------------------------------------------------------------------

def binit_of(board: Board) -> str:
    """``binit`` digits for the position on ``board``. Raises RecordFormatError when a side has
    more pieces of a kind than DhtmlXQ has slots for."""
    return "".join("99" if sq is None else f"{square_file(sq)}{9 - square_rank(sq)}"
                   for sq in slot_squares(board, "DhtmlXQ"))


def _digits(move: Move) -> str:
    return (f"{square_file(move.from_square)}{9 - square_rank(move.from_square)}"
            f"{square_file(move.to_square)}{9 - square_rank(move.to_square)}")


def format_dhtmlxq(game: Game) -> str:
    """One game as a DhtmlXQ block (moves not re-checked: replay an untrusted game first)."""
    lines = ["[DhtmlXQ]", "[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]"]
    for header, value in game.headers.items():
        name = _FIELD_OF_HEADER.get(header)
        if name and value.strip():
            lines.append(f"[DhtmlXQ_{name}]{_clean(value)}[/DhtmlXQ_{name}]")
    result = game.outcome.result() if game.outcome else game.headers.get("Result", "")
    if result in _RESULT_TEXT:
        lines.append(f"[DhtmlXQ_result]{_RESULT_TEXT[result]}[/DhtmlXQ_result]")
    lines.append(f"[DhtmlXQ_binit]{binit_of(game.start_board())}[/DhtmlXQ_binit]")
    moves: list[str] = []
    comments: list[str] = []
    if game.comment:
        comments.append(f"[DhtmlXQ_comment0]{_comment_field(game.comment)}[/DhtmlXQ_comment0]")
    # Lines to write: (line number, parent line, first ply, first node); line 0 is the main line.
    todo: list[tuple[int, int, int, ChildNode]] = []
    if game.variations:
        todo.append((0, -1, 1, game.variations[0]))
    next_number = 1
    while todo:
        number, parent_line, start, node = todo.pop(0)
        digits = []
        ply = start
        current: ChildNode | None = node
        while current is not None:
            digits.append(_digits(current.move))
            text = "\n".join(part for part in (current.starting_comment, current.comment) if part)
            if text:
                name = f"comment{ply}" if number == 0 else f"comment{number}_{ply}"
                comments.append(f"[DhtmlXQ_{name}]{_comment_field(text)}[/DhtmlXQ_{name}]")
            for alternative in current.parent.variations[1:] if current.parent.variations[0] is current else []:
                todo.append((next_number, number, ply, alternative))
                next_number += 1
            current = current.next()
            ply += 1
        name = "movelist" if number == 0 else f"move_{parent_line}_{start}_{number}"
        moves.append(f"[DhtmlXQ_{name}]{''.join(digits)}[/DhtmlXQ_{name}]")
    lines.extend(moves)
    lines.extend(comments)
    lines.append("[/DhtmlXQ]")
    return "\n".join(lines) + "\n"


def _clean(value: str) -> str:
    return value.replace("[", "(").replace("]", ")").replace("\n", " ")


def _comment_field(text: str) -> str:
    return _clean(text.replace("\r", "").replace("\n", "||"))


def write_dhtmlxq(path: str | Path, games: Iterable[Game]) -> None:
    """Write games as DhtmlXQ blocks, one after the other (UTF-8), replacing ``path`` whole or not
    at all (see :mod:`~xqdesk.formats.atomic_write`)."""
    with atomic_text_output(path) as output:
        for number, game in enumerate(games):
            output.write(("\n" if number else "") + format_dhtmlxq(game))
