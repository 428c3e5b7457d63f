"""PGN for Xiangqi, read and written.

Reading copes with what real files hold: several games per file, tags in any order or missing,
``{}`` and ``;`` comments, ``()`` variations, ``$n`` annotations, moves in ICCS, WXF or Chinese
(by the ``Format`` tag, or recognised move by move) or in the SAN of WinBoard, cutechess and
pychess.org (``[Variant "xiangqi"]``, ``Che3``; ranks 0..9 or 1..10, told apart by the site the
``Site`` tag names, a rank 0 or 10 in the game, or else by legality), full-width digits and signs, move numbers glued to moves
(``1.炮二平五``) and Chinese moves glued to each other (``1.兵七进一炮2平32.兵三进一``), tags read
leniently as python-chess does (``[Event ""Huangshan Cup" 2002"]`` keeps its inner quotes), Black to move first (``1... h9g7`` after a ``FEN`` tag), no
result token, text after the result (skipped up to the next game's tags or a ``1.``), and games
with no tags at all.

A bad move stops its game: the game keeps the moves before it and an error names the file, the
game, the line, the move number and the text. Reading goes on with the next game.

Written files carry the tags in the usual order (SAN files name Red ``White``, as chess-style PGN
does), ``Format`` (or ``Variant "xiangqi"`` for SAN, ranks 1..10), ``FEN`` (when the game does not start
from the start position), ``Ruleset`` (when it is not ``standard``), ``Termination`` (the outcome's
text when it says more than the result), and the moves wrapped at 80 columns.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Iterable

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError, XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.atomic_write import atomic_text_output
from xqdesk.formats.game_file import TAG_LINE_START, GameFile, GameReadError, read_text_records
from xqdesk.formats.outcome_text import outcome_from_result
from xqdesk.formats.record_file import MAX_RECORD_BYTES
from xqdesk.game import ChildNode, Game, GameNode, move_label
from xqdesk.game_visitor import GameVisitor
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move, parse_move
from xqdesk.notation.san import SAN_PATTERN, san_candidates, san_rank_numbers
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import RED
from xqdesk.ruleset import RULESETS, STANDARD, Ruleset

STRUCTURAL_TAGS = frozenset({"FEN", "Format", "Ruleset", "Termination", "Variant"})
"""Tags that set up the game rather than describe it; they are not kept in ``Game.headers``."""

_FORMAT_NAMES = {"iccs": Notation.ICCS, "wxf": Notation.WXF, "chinese": Notation.CHINESE}
_FORMAT_TAGS = {Notation.ICCS: "ICCS", Notation.WXF: "WXF", Notation.CHINESE: "Chinese"}
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}

# A Chinese move (four characters, or five for a tandem pawn with its file: ``前兵九平八``), so
# moves written with no space or number between them (``1.兵七进一炮2平32.兵三进一``) split into words.
_CHINESE_MOVE = ("(?:[前中后後一二三四五][兵卒][一二三四五六七八九1-9１-９][进進退平][一二三四五六七八九1-9１-９]"
                 "|[前中后後一二三四五帅帥将將仕士相象马馬傌车車俥炮砲包兵卒]"
                 "[前中后後一二三四五六七八九1-9１-９帅帥将將仕士相象马馬傌车車俥炮砲包兵卒]"
                 "[进進退平][一二三四五六七八九1-9１-９])")
_TOKEN_PATTERN = r"""
    (?P<tag>^[ \t]*\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>[^\n]*)"[ \t]*\][ \t\r]*$)
  | (?P<comment>\{[^}]*(?:\}|\Z))
  | (?P<line_comment>;[^\n]*)
  | (?P<open>[(（])
  | (?P<close>[)）])
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s)）]|\Z))
  | (?P<number>[0-9０-９]+[ \t]*(?:[.．。][ \t]*)+(?![0-9０-９]))
  | (?P<ellipsis>(?:[.．。…][ \t]*)+)
  | (?P<nag>\$[0-9]+)
  | (?P<chinese>{chinese}(?=[0-9０-９\s\u4e00-\u9fff]|\Z))
  | (?P<word>[^\s{}();（）\[]+)
  | (?P<stray>\S)
"""
_TOKENS = re.compile(_TOKEN_PATTERN.replace("{chinese}", _CHINESE_MOVE), re.MULTILINE | re.VERBOSE)

# A line holding a tag, as it begins a game: a '{' comment never reaches past one (the '}' is lost).
_TAG_LINE = re.compile(r"^[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*\"[^\n]*\"[ \t]*\][ \t\r]*$", re.MULTILINE)
GAME_START = TAG_LINE_START
"""A line that begins a game's tags (in the file's bytes): where a damaged file is cut in pieces."""
# What can end skipping after a result or an error: a tag line, a comment (it may hide a "1."), or
# a "1." standing on its own (a game with no tags).
_RESUME = re.compile(r'^[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"|\{|(?<![^\s)}）])[1１][ \t]*[.．。]', re.MULTILINE)
_MAX_NUMBER_DIGITS = 9
_LONGEST_MOVE = 40
"""No move in any notation is longer (the longest, Chinese with marks and a file, is under 10)."""
_ICCS = re.compile(r"[a-iA-I][0-9]-?[a-iA-I][0-9]")
_ICCS_CACHE: dict[str, Move] = {}


def read_pgn(path: str | Path, encoding: str | None = None, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Read every game of a PGN file (encoding detected unless given)."""
    return read_text_records(path, encoding, parse_pgn, GAME_START, max_bytes)


def parse_pgn(text: str, source: str = "<pgn>", line_offset: int = 0) -> GameFile:
    """Every game in a PGN text (``line_offset`` is added to the line numbers errors give).

    Linear in the text's length. A ``{`` comment with no ``}`` before the next line of tags ends
    there, with an error for its game, so the games after it are still read."""
    result = GameFile(source)
    text = text.removeprefix("\ufeff")
    lines = _LineCounter(text, line_offset)
    builder: _GameBuilder | None = None
    games_begun = 0
    skipping = False  # after a result or an error: ignore everything up to the next tags
    position = 0
    while True:
        token = _TOKENS.search(text, position)
        if token is None:
            break
        position = token.end()
        kind = "word" if token.lastgroup == "chinese" else token.lastgroup
        if kind == "tag":
            name = token.group("name")
            if builder is not None and (builder.has_movetext or name in builder.tags):
                builder.finish(result)
                builder = None
            if builder is None:
                games_begun += 1
                builder = _GameBuilder(source, games_begun, lines)
            builder.tags[name] = _unescape(token.group("value"))
            skipping = False
            continue
        if kind == "comment":
            cut = _TAG_LINE.search(text, token.start(), token.end())
            if cut is not None or not token.group().endswith("}"):
                position = cut.start() if cut is not None else token.end()
                if not skipping:
                    if builder is None:
                        games_begun += 1
                        builder = _GameBuilder(source, games_begun, lines)
                    builder.unclosed_comment(token.start(), text[token.start() + 1:position])
                    builder.finish(result)
                    builder = None
                    skipping = True
                continue
        if skipping:
            if kind != "number" or _move_number(token.group()) != 1:
                resume = _RESUME.search(text, position)  # straight to what can end the skipping
                position = resume.start() if resume is not None else len(text)
                continue
            skipping = False  # "1." after a result: a game with no tags of its own
        if builder is None:
            games_begun += 1
            builder = _GameBuilder(source, games_begun, lines)
        if kind == "word" and builder.board is not None:
            move = _ICCS_CACHE.get(token.group()) if builder.fast_iccs else None
            if move is not None and builder.board.is_legal(move):  # the common case, kept short
                builder.play(builder.board, move)
                continue
        if kind == "result":
            builder.result_token = token.group()
            builder.finish(result)
            builder = None
            skipping = True
        elif not builder.feed(kind, token):
            builder.finish(result)
            builder = None
            skipping = True
    if builder is not None:
        builder.finish(result)
    return result


class _LineCounter:
    """Line numbers of positions in a text, counted on from the last position asked about, so
    reporting every error of a file takes time linear in its length (positions come in order)."""

    def __init__(self, text: str, line_offset: int) -> None:
        self.text = text
        self.offset = line_offset
        self._position = 0
        self._line = 1

    def line(self, position: int) -> int:
        """The 1-based line (plus the offset) ``position`` is on."""
        if position < self._position:
            self._position, self._line = 0, 1
        self._line += self.text.count("\n", self._position, position)
        self._position = position
        return self._line + self.offset


class _GameBuilder:
    """Collects one game's tags and movetext tokens and builds the game as it goes."""

    def __init__(self, source: str, number: int, lines: _LineCounter) -> None:
        self.source = source
        self.number = number
        self.lines = lines
        self.tags: dict[str, str] = {}
        self.result_token: str | None = None
        self.has_movetext = False
        self.error: GameReadError | None = None
        self.game: Game | None = None
        self.board: Board | None = None
        self.notation: Notation | None = None
        self.fast_iccs = False
        self.san_rank_base: int | None = None  # 0 (WinBoard) or 1 (pychess.org), once known
        self.san_text_read = False  # the rest of the game was searched for a rank 0 or 10 (once)
        self.node: GameNode | None = None  # the node the next move is added after
        self.starting_comment = ""  # a comment before a variation's first move, kept for that move
        # One entry per open variation: (the node it is an alternative to, how many moves the board
        # had before that node's move). Closing pops the variation's moves and replays the node's:
        # no board is copied, so nesting costs no memory per level beyond the entry.
        self.stack: list[tuple[ChildNode, int]] = []

    def _begin(self) -> bool:
        """Set up the game from the tags at the first movetext token."""
        ruleset = RULESETS.get(self.tags.get("Ruleset", "").strip().lower(), STANDARD)
        fen = self.tags.get("FEN", "").strip() or STARTING_FEN
        headers = {tag: value for tag, value in self.tags.items() if tag not in STRUCTURAL_TAGS}
        self.game = Game(headers=headers, ruleset=ruleset)
        self.notation = _FORMAT_NAMES.get(self.tags.get("Format", "").strip().lower())
        self.fast_iccs = self.notation in (None, Notation.ICCS)
        try:
            self.board = _start_board(fen, ruleset)
        except InvalidFenError as error:
            self._fail("FEN tag", fen, str(error))
            return False
        self.game.start_fen = self.board.fen() if fen != STARTING_FEN else STARTING_FEN
        self.node = self.game
        return True

    def feed(self, kind: str | None, token: re.Match[str]) -> bool:
        """Take one movetext token; False when the game cannot go on (an error was recorded)."""
        if not self.has_movetext:
            self.has_movetext = True
            if not self._begin():
                return False
        if kind == "word":
            return self._move(token.group(), token.start())
        if kind == "comment" or kind == "line_comment":
            body = token.group()[1:]
            if kind == "comment" and body.endswith("}"):
                body = body[:-1]
            self._comment(body.strip())
            return True
        if kind == "open":
            return self._open(token)
        if kind == "close":
            return self._close(token)
        if kind == "stray":
            self._fail(self._where(token.start()), token.group(), "unexpected character in the moves")
            return False
        if kind == "nag":
            digits = token.group()[1:]
            if len(digits) <= 3:  # NAGs are 0..255; a longer number is no annotation
                self._nag(int(digits))
        return True  # move numbers, '...'

    def play(self, board: Board, move: Move) -> None:
        """Add the legal ``move`` after the current node and play it on ``board``."""
        if self.node is None:
            raise RuntimeError("PGN movetext was fed before the game was set up")
        board.push(move)
        self.node = self.node.add_variation(move, starting_comment=self.starting_comment)
        self.starting_comment = ""

    def _at_line_start(self) -> bool:
        """No move yet in the line being read (the game's start, or a variation just opened)."""
        return self.node is None or self.node.parent is None or bool(self.stack) and self.node is self.stack[-1][0].parent

    def _nag(self, number: int) -> None:
        if isinstance(self.node, ChildNode) and not self._at_line_start():
            self.node.add_nag(number)

    def _playing(self) -> tuple[Game, Board]:
        """The game and board being built (:meth:`_begin` sets them up before any movetext)."""
        if self.game is None or self.board is None:
            raise RuntimeError("PGN movetext was fed before the game was set up")
        return self.game, self.board

    def _move(self, text: str, position: int) -> bool:
        _game, board = self._playing()
        if len(text) > _LONGEST_MOVE:
            self._fail(self._where(position), text, f"not a move: {len(text):,} characters long")
            return False
        move = None
        if self.fast_iccs and _ICCS.fullmatch(text):
            move = _ICCS_CACHE.get(text)
            if move is None:
                move = _ICCS_CACHE[text] = Move.from_iccs(text)
            if not board.is_legal(move):
                if self.notation is Notation.ICCS:
                    self._fail(self._where(position), text,
                               f"not legal in {board.fen()!r}: {board.why_illegal(move)}")
                    return False
                move = None  # may still be Fairy-Stockfish squares (ranks 1..10)
        san_shaped = self.notation is None and SAN_PATTERN.fullmatch(text) is not None
        if move is None and san_shaped:
            move = self._san_move(board, text, position)
        if move is None:
            try:
                move = parse_move(board, text, self.notation)
            except XqdeskError as error:
                reason = str(error)
                if san_shaped:
                    dialect = {None: "0-9 or 1-10", 0: "0-9", 1: "1-10"}[self.san_rank_base]
                    reason = f"no legal move fits this SAN move (ranks {dialect}) in {board.fen()!r}"
                self._fail(self._where(position), text, reason)
                return False
        self.play(board, move)
        return True

    def _san_move(self, board: Board, text: str, position: int) -> Move | None:
        """The legal move a SAN word names, telling WinBoard's ranks 0..9 from pychess.org's 1..10:
        by the site the tags name, by a rank 10 or 0 written anywhere in the game (the game's text
        is searched once, so a game whose dialect stays open is still read in linear time), else by
        which reading is legal here (both legal: 1..10, the dialect of pychess.org and
        Fairy-Stockfish, until the game says more). None when no reading fits (the caller then
        reports the move)."""
        if self.san_rank_base is None:
            self.san_rank_base = _san_dialect_of(self.tags) if self.tags else None
        if self.san_rank_base is None and not self.san_text_read:
            # Once: when the rest of the game writes neither rank, no later part of it does either.
            self.san_rank_base = _san_dialect_in(self.lines.text, position)
            self.san_text_read = True
        if self.san_rank_base is not None:
            found = san_candidates(board, text, self.san_rank_base)
            return found[0] if len(found) == 1 else None
        readings = {base: san_candidates(board, text, base) for base in (1, 0)}
        fitting = [base for base, found in readings.items() if len(found) == 1]
        if not fitting:
            return None
        if len(fitting) == 1 or readings[0] == readings[1]:
            if len(fitting) == 1 and readings[1 - fitting[0]] == []:
                self.san_rank_base = fitting[0]
            return readings[fitting[0]][0]
        return readings[1][0]

    def _comment(self, body: str) -> None:
        if not body:
            return
        game, _board = self._playing()
        if not self._at_line_start():
            node = self.node or game
            node.comment = f"{node.comment}\n{body}" if node.comment else body
        elif not self.stack:
            game.comment = f"{game.comment}\n{body}" if game.comment else body
        else:  # before a variation's first move: it goes with that move
            self.starting_comment = f"{self.starting_comment}\n{body}" if self.starting_comment else body

    def _open(self, token: re.Match[str]) -> bool:
        _game, board = self._playing()
        if self._at_line_start() or not isinstance(self.node, ChildNode):
            self._fail(self._where(token.start()), token.group(), "a variation before any move")
            return False
        board.pop()
        self.stack.append((self.node, board.ply()))
        self.node = self.node.parent
        return True

    def _close(self, token: re.Match[str]) -> bool:
        if not self.stack:
            self._fail(self._where(token.start()), token.group(), "')' closes no variation")
            return False
        _game, board = self._playing()
        self.node, branch_ply = self.stack.pop()
        while board.ply() > branch_ply:
            board.pop()
        board.push(self.node.move)
        if self.starting_comment:  # a variation with a comment and no move: keep the comment
            self.node.comment = f"{self.node.comment}\n{self.starting_comment}" if self.node.comment else self.starting_comment
            self.starting_comment = ""
        return True

    def unclosed_comment(self, position: int, body: str) -> None:
        """A ``{`` whose ``}`` is missing (or comes only after the next game's tags): keep what it
        says as a comment and end the game with an error."""
        if not self.has_movetext:
            self.has_movetext = True
            if not self._begin():
                return
        self._comment(body.strip())
        self._fail(self._where(position), "{", "this comment is never closed: no '}' before the next game's tags "
                                               "or the end of the file")

    def _where(self, position: int) -> str:
        line_number = self.lines.line(position)
        line_kind = f", variation depth {len(self.stack)}" if self.stack else ""
        return f"line {line_number}, {move_label(self.board)}{line_kind}" if self.board else f"line {line_number}"

    def _fail(self, where: str, text: str, reason: str) -> None:
        self.error = GameReadError(self.source, self.number, where, text, reason)

    def finish(self, result: GameFile) -> None:
        """Add the game (complete or cut at its error) and its error to ``result``."""
        if self.game is None and self.error is None:
            self._begin()
        if self.game is not None:
            self.game.outcome = _outcome(self.tags, self.result_token)
            headers = self.game.headers
            if "White" in headers and "Red" not in headers:  # chess-style PGN: White is Red
                self.game.headers = headers = {("Red" if tag == "White" else tag): value
                                               for tag, value in headers.items()}
            if "Result" not in headers and self.result_token:
                headers["Result"] = self.result_token
            if headers.get("Result", "").strip() in ("*", ""):
                headers.pop("Result", None)  # "no result" is the absence of one
            result.games.append(self.game)
        if self.error is not None:
            result.errors.append(self.error)


_START_BOARDS: dict[tuple[str, Ruleset], Board] = {}


def _start_board(fen: str, ruleset: Ruleset) -> Board:
    """A fresh board for ``fen``; boards for FENs seen before are copied, not parsed again."""
    key = (fen, ruleset)
    board = _START_BOARDS.get(key)
    if board is None:
        board = Board(fen, ruleset=ruleset)
        if len(_START_BOARDS) < 64:
            _START_BOARDS[key] = board
    return board.copy()


def _outcome(tags: dict[str, str], result_token: str | None) -> Outcome | None:
    result = tags.get("Result", "").strip() or (result_token or "*")
    return outcome_from_result(result, tags.get("Termination", "").strip() or None)


_NEXT_TAGS = re.compile(r"^[ \t]*\[[ \t]*[A-Za-z]", re.MULTILINE)
_ONE_BASED_SITES = ("pychess", "elephantchess", "lichess", "fairy-stockfish")
_ZERO_BASED_SITES = ("winboard", "xboard")


def _san_dialect_of(tags: dict[str, str]) -> int | None:
    """1 or 0 when the ``Site`` or ``Event`` tag names a program or site of one rank dialect."""
    said = f"{tags.get('Site', '')} {tags.get('Event', '')}".lower()
    if any(name in said for name in _ONE_BASED_SITES):
        return 1
    if any(name in said for name in _ZERO_BASED_SITES):
        return 0
    return None


def _san_dialect_in(text: str, position: int) -> int | None:
    """1 when a SAN move of the game from ``position`` on writes rank 10, 0 when one writes rank 0,
    None when none does (the game's text ends at the next tag line)."""
    end_match = _NEXT_TAGS.search(text, position)
    body = text[position:end_match.start() if end_match else len(text)]
    ranks = {number for word in body.split() for number in san_rank_numbers(word.strip("()"))}
    if 10 in ranks:
        return 1
    if 0 in ranks:
        return 0
    return None


def _move_number(token: str) -> int:
    """The number of a ``12.`` token (full-width digits too); -1 for one too long to be a move number."""
    digits = unicodedata.normalize("NFKC", "".join(ch for ch in token if ch in _DIGITS))
    if len(digits) > _MAX_NUMBER_DIGITS:
        return -1
    return int(digits) if digits else 0


_DIGITS = frozenset("0123456789０１２３４５６７８９")


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


# --- writing ------------------------------------------------------------------------------------

def format_pgn(game: Game, notation: Notation = Notation.ICCS) -> str:
    """One game as PGN text (ending with a blank line). Moves are written from the position, so
    they must be legal: call ``game.replay()`` first on an untrusted game."""
    if notation not in _FORMAT_TAGS and notation is not Notation.SAN:
        raise ValueError(f"PGN is written in ICCS, WXF, Chinese or SAN, not {notation!r}")
    result = game.outcome.result() if game.outcome else game.headers.get("Result", "*").strip() or "*"
    lines = []
    for tag, value in game.sorted_headers():
        if tag != "Result" and tag not in STRUCTURAL_TAGS:
            if tag == "Red" and notation is Notation.SAN:
                tag = "White"  # chess-style PGN, as cutechess and pychess.org write it (read back as Red)
            lines.append(f'[{tag} "{_escape(value)}"]')
        elif tag == "Result":
            lines.append(f'[Result "{result}"]')
    if "Result" not in game.headers:
        lines.append(f'[Result "{result}"]')
    if notation is Notation.SAN:  # the WinBoard / cutechess / pychess.org dialect: SAN, ranks 1..10
        lines.append('[Variant "xiangqi"]')
    else:
        lines.append(f'[Format "{_FORMAT_TAGS[notation]}"]')
    board = game.start_board()
    if board.fen() != Board().fen():
        lines.append(f'[FEN "{board.fen()}"]')
    if game.ruleset != STANDARD:
        lines.append(f'[Ruleset "{game.ruleset.name}"]')
    if game.outcome is not None and game.outcome.text != _default_text(game.outcome):
        lines.append(f'[Termination "{_escape(game.outcome.text)}"]')
    tokens = game.accept(_Movetext(notation))
    tokens.append(result)
    lines.append("")
    lines.extend(_wrap(tokens))
    return "\n".join(lines) + "\n\n"


def write_pgn(path: str | Path, games: Iterable[Game], notation: Notation = Notation.ICCS,
              encoding: str = "utf-8") -> None:
    """Write games to a PGN file (UTF-8 unless another encoding is asked for), game by game, to a
    temporary file that replaces ``path`` only when all are written (see
    :mod:`~xqdesk.formats.atomic_write`: on a failure ``path`` is unchanged and FileWriteError says why)."""
    with atomic_text_output(path, encoding) as output:
        for game in games:
            output.write(format_pgn(game, notation))


def _default_text(outcome: Outcome) -> str:
    again = outcome_from_result(outcome.result())
    return again.text if again is not None and outcome.termination is Termination.ADJUDICATION else ""


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")") + "}"


class _Movetext(GameVisitor[list[str]]):
    """The movetext tokens of a game: each move with its number where one is due, its NAGs and
    comments, alternatives in parentheses right after the move they replace."""

    def __init__(self, notation: Notation) -> None:
        self.notation = notation
        self.tokens: list[str] = []
        self.need_number = True

    def visit_comment(self, text: str) -> None:
        self.tokens.append(_comment(text))
        self.need_number = True

    def visit_move(self, board: Board, move: Move) -> None:
        text = format_move(board, move, self.notation)
        if board.turn == RED:
            text = f"{board.fullmove_number}. {text}"
        elif self.need_number:
            text = f"{board.fullmove_number}... {text}"
        self.tokens.append(text)
        self.need_number = False

    def visit_nag(self, nag: int) -> None:
        self.tokens.append(f"${nag}")

    def begin_variation(self) -> None:
        self.tokens.append("(")
        self.need_number = True

    def end_variation(self) -> None:
        self.tokens.append(")")
        self.need_number = True

    def result(self) -> list[str]:
        return self.tokens


def _wrap(tokens: list[str], width: int = 80) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in tokens:
        glue = "" if not current or current.endswith("(") or token == ")" else " "
        if current and len(current) + len(glue) + len(token) > width:
            lines.append(current)
            current, glue = "", ""
        current += glue + token
    if current:
        lines.append(current)
    return lines
