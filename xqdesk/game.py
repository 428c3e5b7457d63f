"""The game record: start position, main line with comments and variations, headers, outcome.

A :class:`Game` is plain data that any file format fills in and writes out. Moves in it are not
trusted: :meth:`Game.replay` re-checks every one (main line and variations) under the game's
ruleset and says which move of which line failed, in which position.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from xqdesk.board import Board
from xqdesk.errors import IllegalMoveError
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import RED, Color
from xqdesk.ruleset import COURSE, Ruleset

HEADER_ORDER = ("Game", "Event", "Site", "Date", "Round", "RedTeam", "Red", "BlackTeam", "Black",
                "Result", "ECCO", "Opening", "Variation")
"""The usual order of PGN tags; other tags follow in the order they were given."""


@dataclass
class MoveNode:
    """A move of a line, the comment written after it, and the alternatives to it.

    Each variation is a line (list of nodes) that replaces this move: its first node is played
    from the position before this move.
    """

    move: Move
    comment: str = ""
    variations: list[list[MoveNode]] = field(default_factory=list)


def move_label(board: Board) -> str:
    """``'move 12 (Black)'``: how errors name the move about to be played on ``board``."""
    return f"move {board.fullmove_number} ({'Red' if board.turn == RED else 'Black'})"


@dataclass
class Game:
    """One game record.

    ``mainline`` is the game as played; ``comment`` the text before its first move; ``outcome``
    how the game ended as the record says (None when it does not say); ``ruleset`` the rules it
    was played under, by which :meth:`replay` judges it.
    """

    headers: dict[str, str] = field(default_factory=dict)
    start_fen: str = STARTING_FEN
    mainline: list[MoveNode] = field(default_factory=list)
    comment: str = ""
    outcome: Outcome | None = None
    ruleset: Ruleset = COURSE

    @classmethod
    def from_moves(cls, moves: Sequence[Move], start_fen: str = STARTING_FEN,
                   headers: dict[str, str] | None = None, outcome: Outcome | None = None) -> Game:
        """A game with ``moves`` as its main line (not checked here; call :meth:`replay`)."""
        return cls(headers=dict(headers or {}), start_fen=start_fen,
                   mainline=[MoveNode(move) for move in moves], outcome=outcome)

    def start_board(self) -> Board:
        """A fresh board at the start position."""
        return Board(self.start_fen, ruleset=self.ruleset)

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line, in order."""
        return [node.move for node in self.mainline]

    def __len__(self) -> int:
        """The number of plies in the main line."""
        return len(self.mainline)

    def board_at(self, ply: int) -> Board:
        """The position after the first ``ply`` moves of the main line (0 = the start position).
        Moves are pushed unchecked: call :meth:`replay` first on a record you do not trust."""
        if not 0 <= ply <= len(self.mainline):
            raise IndexError(f"ply {ply!r} is outside the main line (0..{len(self.mainline)})")
        board = self.start_board()
        for node in self.mainline[:ply]:
            board.push(node.move)
        return board

    def boards(self) -> Iterator[Board]:
        """Every position of the main line, from the start to the end, each a separate board."""
        board = self.start_board()
        yield board.copy()
        for node in self.mainline:
            board.push(node.move)
            yield board.copy()

    def end_board(self) -> Board:
        """The position after the whole main line (moves pushed unchecked)."""
        return self.board_at(len(self.mainline))

    def replay(self) -> Board:
        """Re-check every move, variations included, under the ruleset; return the final board of
        the main line. Raises IllegalMoveError naming the move number, the move and the FEN."""
        board = self.start_board()
        _replay_line(board, self.mainline, "main line")
        return board

    def judge(self) -> Outcome | None:
        """The outcome the ruleset gives at the end of the main line (None when the game is not
        over there). Raises IllegalMoveError like :meth:`replay`."""
        return self.replay().outcome()

    def check_outcome(self) -> OutcomeCheck:
        """Re-judge the game under its ruleset and compare with the recorded outcome.

        Every move is re-checked (IllegalMoveError as in :meth:`replay`). The game must not go on
        after the rules ended it (the capture-free limit), and its end must fit the record: an end
        on the board (no legal move, capture-free draw) must be the recorded one; an end off the
        board (illegal move, timeout) must be the side to move's, since the refused move is not in
        the record; a resignation or a bare result fits any position that is not over."""
        board = self.replay()
        limit = self.ruleset.capture_free_draw_plies
        walk = self.start_board()
        for ply, node in enumerate(self.mainline[:-1], start=1):
            walk.push(node.move)
            if walk.halfmove_clock >= limit:
                drawn = Outcome.capture_free_draw()
                return OutcomeCheck(False, drawn, f"the rules ended the game after ply {ply} "
                                    f"({drawn.text}) but the record goes on to ply {len(self.mainline)}")
        judged = board.outcome()
        recorded = self.outcome
        if recorded is None:
            said = judged.text if judged else "the game is not over on the board"
            return OutcomeCheck(True, judged, f"no result recorded; {said}")
        if judged is not None:
            if recorded.termination is Termination.ADJUDICATION:
                agrees = recorded.winner == judged.winner
            else:
                agrees = (recorded.termination, recorded.winner, recorded.text) == (
                    judged.termination, judged.winner, judged.text)
            return OutcomeCheck(agrees, judged, f"the board says {judged.text!r}, the record {recorded.text!r}")
        if recorded.termination in (Termination.ILLEGAL_MOVE, Termination.TIMEOUT):
            offender = not recorded.winner
            agrees = recorded.winner is not None and offender == board.turn
            detail = (f"{recorded.text!r} off the board, with {side_name(board.turn)} to move")
            return OutcomeCheck(agrees, None, detail)
        if recorded.termination in (Termination.NO_LEGAL_MOVES, Termination.CAPTURE_FREE_DRAW,
                                    Termination.GENERAL_CAPTURED):
            return OutcomeCheck(False, None, f"the record says {recorded.text!r} but the game is not over "
                                             f"on the board ({board.fen()!r})")
        return OutcomeCheck(True, None, f"{recorded.text!r}; the game is not over on the board")

    def course_history(self) -> list[tuple[int, int, int, int, int]]:
        """The main line as the course's history: ``(old_x, old_y, new_x, new_y, captured)``."""
        board = self.start_board()
        history = []
        for node in self.mainline:
            history.append(node.move.to_course() + (board.code_at(node.move.to_square),))
            board.push(node.move)
        return history

    def sorted_headers(self) -> list[tuple[str, str]]:
        """The headers in the usual PGN order, unknown ones last in their own order."""
        known = [(tag, self.headers[tag]) for tag in HEADER_ORDER if tag in self.headers]
        return known + [(tag, value) for tag, value in self.headers.items() if tag not in HEADER_ORDER]


@dataclass(frozen=True)
class OutcomeCheck:
    """What :meth:`Game.check_outcome` found: whether the record's outcome fits the rules, the
    outcome the rules give at the end of the main line (None when not over there) and a sentence."""

    agrees: bool
    judged: Outcome | None
    detail: str


def _replay_line(board: Board, line: list[MoveNode], line_name: str) -> None:
    """Push every move of ``line`` on ``board`` after checking it; variations are checked on
    copies. Leaves ``board`` at the end of the line."""
    for node in line:
        for number, variation in enumerate(node.variations, start=1):
            _replay_line(board.copy(), variation, f"variation {number} at {move_label(board)} of the {line_name}")
        if not board.is_legal(node.move):
            raise IllegalMoveError(f"{move_label(board)} of the {line_name}: {node.move.iccs()!r} "
                                   f"is not legal in {board.fen()!r} ({board.why_illegal(node.move)})")
        board.push(node.move)


def side_name(color: Color) -> str:
    """``'Red'`` or ``'Black'``."""
    return "Red" if color == RED else "Black"
