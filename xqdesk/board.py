"""The board: a position with its move history, under a ruleset.

``Board`` follows python-chess: ``legal_moves`` is a live view, ``push``/``pop`` make and unmake
(``push`` is unchecked and fast; ``push_iccs`` checks), ``outcome()`` says how the game ended.
The history matters: the course's perpetual-check rule looks back at the last moves.
"""
from __future__ import annotations

import enum
from typing import Iterator, Optional, Sequence

from xqdesk.errors import IllegalMoveError, InvalidFenError
from xqdesk.fen import STARTING_FEN, format_fen, parse_fen
from xqdesk.move import Move
from xqdesk.movegen import KING_LINES, KING_SENSITIVE, king_attacked, piece_attacks, pseudo_legal_moves, unchecked_moves
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, KING, RED, Color, Piece, parse_color
from xqdesk.position_check import ProblemKind, find_position_problems
from xqdesk.ruleset import COURSE, Ruleset
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT, from_course, to_course
from xqdesk.zobrist import BLACK_TO_MOVE_KEY, PIECE_KEYS


class IllegalReason(enum.StrEnum):
    """Why a move is refused (:meth:`Board.why_illegal`): a value whose text is the English
    sentence (so it reads as one in messages); a window translates the member, never the text.
    ``LEGAL`` is empty, hence false: nothing stands against the move."""

    LEGAL = ""
    NO_PIECE = "no piece on the from-square"
    NOT_TO_MOVE = "that piece belongs to the side not to move"
    OWN_PIECE_ON_TARGET = "the target square holds a piece of the same side"
    CANNOT_MOVE_THAT_WAY = "the piece cannot move that way"
    PERPETUAL_CHECK = "the piece has given check three times running (perpetual check)"
    LEAVES_KING_ATTACKED = "it would leave the king in check or facing the other king"


_MOVE_CACHE: list[Optional[Move]] = [None] * (SQUARE_COUNT << 7)


def _move(code: int) -> Move:
    """The (cached) Move for an encoded move ``from << 7 | to``."""
    move = _MOVE_CACHE[code]
    if move is None:
        move = _MOVE_CACHE[code] = Move(code >> 7, code & 127)
    return move


def _is_piece_code(value: object) -> bool:
    try:
        return -7 <= int(value) <= 7  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return False


class LegalMoves:
    """Live view of a board's legal moves: iterate, ``len``, ``in``, ``bool``."""

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return (_move(code) for code in self._board._legal_codes())

    def __len__(self) -> int:
        return len(self._board._legal_codes())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __bool__(self) -> bool:
        return bool(self._board._legal_codes())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.iccs() for m in self)})>"


class Board:
    """A Xiangqi position plus the moves that led to it.

    Squares, moves and pieces are described in :mod:`xqdesk.squares`, :mod:`xqdesk.move` and
    :mod:`xqdesk.pieces`. The board only ever holds positions with one king per side unless built
    from a course board (where a student's search may hand over anything).
    """

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, ruleset: Ruleset = COURSE) -> None:
        self.ruleset = ruleset
        self._codes: list[int] = [0] * SQUARE_COUNT
        self._squares_of: dict[Color, set[int]] = {RED: set(), BLACK: set()}
        self._kings: dict[Color, Optional[int]] = {RED: None, BLACK: None}
        self._stack: list[tuple[int, int, int, int]] = []  # (move code, captured, halfmove clock, key)
        self._key = 0
        self.turn: Color = RED
        self.halfmove_clock = 0
        """Plies since the last capture (the course draws at 120)."""
        self.fullmove_number = 1
        self._start_fen: Optional[str] = STARTING_FEN
        if fen is not None:
            self.set_fen(fen)

    # --- construction -------------------------------------------------------------------------

    def _set_codes(self, codes: Sequence[int], turn: Color, halfmove_clock: int, fullmove_number: int) -> None:
        self._codes = list(codes)
        self._squares_of = {RED: {sq for sq, c in enumerate(self._codes) if c > 0},
                            BLACK: {sq for sq, c in enumerate(self._codes) if c < 0}}
        self._kings = {RED: None, BLACK: None}
        key = 0
        for sq, code in enumerate(self._codes):
            if code:
                key ^= PIECE_KEYS[code][sq]
                if code == KING or code == -KING:
                    self._kings[code > 0] = sq
        self._key = key
        self._stack = []
        self.turn = turn
        self.halfmove_clock = halfmove_clock
        self.fullmove_number = fullmove_number
        self._start_fen = None  # computed on demand from the first history entry's position

    def set_fen(self, fen: str) -> None:
        """Set up the position of a FEN and clear the history; raises InvalidFenError. Under a
        ruleset without check (``general_capture``) a general may stand attacked or face the
        other: the side to move may then capture it."""
        if self.ruleset.general_capture:
            fields = parse_fen(fen, check_position=False)
            problems = [problem.text for problem in find_position_problems(fields.codes, fields.turn)
                        if problem.kind not in (ProblemKind.KINGS_FACING, ProblemKind.WAITING_SIDE_IN_CHECK)]
            if problems:
                raise InvalidFenError(f"FEN {fen!r}: " + "; ".join(problems))
        else:
            fields = parse_fen(fen)
        self._set_codes(fields.codes, fields.turn, fields.halfmove_clock, fields.fullmove_number)

    @classmethod
    def from_course(cls, board: Sequence[Sequence[int]], side: str | Color = RED,
                    history: Sequence[Sequence[int]] = (), *, ruleset: Ruleset = COURSE) -> Board:
        """A board from the course's encoding: ``board[x][y]`` rows, ``side`` to move, and the
        history of 5-tuples ``(old_x, old_y, new_x, new_y, captured)`` that led to it.

        The history is undone from ``board`` to find where it started, then replayed, so ``pop``
        and the perpetual-check rule see it. Raises InvalidFenError for a malformed board and
        IllegalMoveError for a history that does not fit the board.
        """
        turn = parse_color(side) if isinstance(side, str) else bool(side)
        if len(board) != RANKS or any(len(row) != FILES for row in board):
            raise InvalidFenError(f"a course board needs 10 rows of 9 ints, got {board!r}")
        try:
            codes = [int(value) for row in reversed(board) for value in row]  # row 9 is rank 0
        except (TypeError, ValueError):
            codes = [99]  # reported below, with where
        if min(codes) < -7 or max(codes) > 7:
            bad = next((x, y) for x, row in enumerate(board) for y, v in enumerate(row) if not _is_piece_code(v))
            raise InvalidFenError(f"course board holds {board[bad[0]][bad[1]]!r} at {bad}; pieces are ints -7..7")
        moves = []
        for index in range(len(history) - 1, -1, -1):
            entry = history[index]
            try:
                x0, y0, x1, y1, captured = (int(v) for v in entry)
                origin, target = from_course(x0, y0), from_course(x1, y1)
            except (TypeError, ValueError):
                raise IllegalMoveError(f"history entry {index + 1} {entry!r} is not five ints "
                                       "(old_x, old_y, new_x, new_y, captured)") from None
            if codes[target] == 0 or codes[origin] != 0 or not -7 <= captured <= 7:
                raise IllegalMoveError(f"history entry {index + 1} {tuple(entry)!r} does not fit the board "
                                       "reached by the entries after it")
            codes[origin], codes[target] = codes[target], captured
            moves.append(origin << 7 | target)
        result = cls(None, ruleset=ruleset)
        result._set_codes(codes, turn if len(moves) % 2 == 0 else not turn, 0, 1)
        for code in reversed(moves):
            result._make(code)
        result.turn = turn
        return result

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy with the same position, history and ruleset; with ``stack=False``
        (as python-chess has it) the copy has no history: it starts at this position, and costs the
        same however many moves led here."""
        other = Board(None, ruleset=self.ruleset)
        other._codes = self._codes[:]
        other._squares_of = {RED: set(self._squares_of[RED]), BLACK: set(self._squares_of[BLACK])}
        other._kings = dict(self._kings)
        other._stack = self._stack[:] if stack else []
        other._key = self._key
        other.turn = self.turn
        other.halfmove_clock = self.halfmove_clock
        other.fullmove_number = self.fullmove_number
        other._start_fen = self._start_fen if stack else None
        return other

    def root(self) -> Board:
        """A board at the position before the first move of the history."""
        board = self.copy()
        while board._stack:
            board.pop()
        return board

    # --- reading the position -----------------------------------------------------------------

    def code_at(self, square: int) -> int:
        """The course's signed piece code on ``square`` (0 if empty)."""
        return self._codes[square]

    def piece_at(self, square: int) -> Optional[Piece]:
        code = self._codes[square]
        return Piece.from_code(code) if code else None

    def pieces(self, color: Color) -> frozenset[int]:
        """The squares holding ``color``'s pieces."""
        return frozenset(self._squares_of[color])

    def king_square(self, color: Color) -> Optional[int]:
        return self._kings[color]

    def fen(self) -> str:
        return format_fen(self._codes, self.turn, self.halfmove_clock, self.fullmove_number)

    @property
    def start_fen(self) -> str:
        """FEN of the position before the first move of the history."""
        if self._start_fen is None:
            self._start_fen = self.root().fen()
        return self._start_fen

    def zobrist_hash(self) -> int:
        return self._key ^ (0 if self.turn == RED else BLACK_TO_MOVE_KEY)

    def to_course_board(self) -> tuple[list[int], ...]:
        """The course's ``board[x][y]``: a tuple of 10 fresh lists of 9 ints."""
        codes = self._codes
        return tuple([codes[(9 - x) * FILES + y] for y in range(FILES)] for x in range(RANKS))

    def course_history(self) -> list[tuple[int, int, int, int, int]]:
        """The history as the course's 5-tuples ``(old_x, old_y, new_x, new_y, captured)``."""
        return [to_course(code >> 7) + to_course(code & 127) + (captured,)
                for code, captured, _, _ in self._stack]

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from :attr:`start_fen` (a fresh list)."""
        return [_move(entry[0]) for entry in self._stack]

    def ply(self) -> int:
        """How many moves have been played from :attr:`start_fen` (``len(move_stack)``, without the list)."""
        return len(self._stack)

    def peek(self) -> Move:
        """The last move; raises IndexError when there is none."""
        return _move(self._stack[-1][0])

    def captured_piece(self, ply: int = -1) -> int:
        """The code of the piece the move at ``ply`` (default: the last) captured, 0 if none."""
        return self._stack[ply][1]

    def is_check(self) -> bool:
        """Whether the side to move is in check (facing kings count)."""
        king = self._kings[self.turn]
        return king is not None and king_attacked(self._codes, king, self.turn)

    def is_capture(self, move: Move) -> bool:
        return self._codes[move.to_square] != 0

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (assumed legal) puts the opponent in check."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # --- legal moves --------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def _king_safe_codes(self) -> list[int]:
        """Encoded moves of the side to move that leave its king safe."""
        red = self.turn
        codes = self._codes
        pseudo = pseudo_legal_moves(codes, self._squares_of[red], red)
        king = self._kings[red]
        if king is None:
            return pseudo
        in_check = king_attacked(codes, king, red)
        sensitive = KING_SENSITIVE[king]
        lines = KING_LINES[king]
        legal = []
        for code in pseudo:
            origin = code >> 7
            target = code & 127
            if origin == king or in_check or origin in sensitive or target in lines:
                captured = codes[target]
                codes[target] = codes[origin]
                codes[origin] = 0
                safe = not king_attacked(codes, target if origin == king else king, red)
                codes[origin] = codes[target]
                codes[target] = captured
            else:
                safe = True  # the move changes nothing that bears on our king
            if safe:
                legal.append(code)
        return legal

    def _legal_codes(self) -> list[int]:
        if self.ruleset.general_capture:
            return unchecked_moves(self._codes, self._squares_of[self.turn], self.turn)
        legal = self._king_safe_codes()
        banned = self._perpetual_check_banned(legal)
        return [code for code in legal if code not in banned] if banned else legal

    def _perpetual_check_banned(self, candidates: list[int]) -> set[int]:
        """The candidates the course's perpetual-check rule forbids (see RULES.md, rule 2).

        A piece that has given check ``limit`` times running — each time right after moving —
        may not give another direct check.
        """
        limit = self.ruleset.perpetual_check_limit
        stack = self._stack
        if limit <= 0 or len(stack) <= self.ruleset.perpetual_check_min_history:
            return set()
        origin = stack[-2][0] & 127  # P's square: where it moved two plies ago
        sources = [origin]
        for k in range(1, limit):  # P's earlier moves must chain into each other
            previous = stack[-2 * k][0]
            if (previous & 127) != sources[-1]:
                return set()
            sources.append(previous >> 7)
        moves_of_p = [code for code in candidates if code >> 7 == origin]
        if not moves_of_p:
            return set()
        checking = [code for code in moves_of_p if self._piece_checks_after(code)]
        if not checking or not self._piece_checked_before_each(sources, limit):
            return set()
        return set(checking)

    def _piece_checks_after(self, code: int) -> bool:
        """Whether the moving piece itself attacks the enemy king after the move ``code``."""
        mover = self._codes[code >> 7] > 0
        self._make(code)
        try:
            enemy_king = self._kings[not mover]
            return enemy_king is not None and piece_attacks(self._codes, code & 127, enemy_king)
        finally:
            self.pop()

    def _piece_checked_before_each(self, sources: list[int], limit: int) -> bool:
        """With 1, 3, 5 … plies undone, the piece stood on ``sources[k]`` and attacked the enemy king."""
        undone: list[int] = []
        try:
            for k in range(limit):
                while len(undone) < 2 * k + 1:
                    undone.append(self._stack[-1][0])
                    self.pop()
                source = sources[k]
                code = self._codes[source]
                if code == 0:
                    return False
                enemy_king = self._kings[code < 0]
                if enemy_king is None or not piece_attacks(self._codes, source, enemy_king):
                    return False
            return True
        finally:
            for code in reversed(undone):
                self._make(code)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the side to move (without generating every move)."""
        origin, target = move.from_square, move.to_square
        code = self._codes[origin]
        if code == 0 or (code > 0) != self.turn:
            return False
        encoded = origin << 7 | target
        if self.ruleset.general_capture:
            return encoded in unchecked_moves(self._codes, (origin,), self.turn)
        if encoded not in pseudo_legal_moves(self._codes, (origin,), self.turn):
            return False
        king = self._kings[self.turn]
        if king is not None:
            captured = self._codes[target]
            self._codes[target] = code
            self._codes[origin] = 0
            safe = not king_attacked(self._codes, target if origin == king else king, self.turn)
            self._codes[origin] = code
            self._codes[target] = captured
            if not safe:
                return False
        return encoded not in self._perpetual_check_banned([encoded])

    def banned_moves(self) -> list[Move]:
        """Moves that keep the king safe but that the course's perpetual-check rule forbids."""
        return [_move(code) for code in sorted(self._perpetual_check_banned(self._king_safe_codes()))]

    # --- making and unmaking moves ------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` without checking it (use ``is_legal`` or ``push_iccs`` for input)."""
        self._make(move.from_square << 7 | move.to_square)

    def _make(self, code: int) -> None:
        origin = code >> 7
        target = code & 127
        codes = self._codes
        piece = codes[origin]
        captured = codes[target]
        mover = piece > 0
        self._stack.append((code, captured, self.halfmove_clock, self._key))
        own = self._squares_of[mover]
        own.discard(origin)
        own.add(target)
        keys = PIECE_KEYS[piece]
        key = self._key ^ keys[origin] ^ keys[target]
        if captured:
            self._squares_of[not mover].discard(target)
            key ^= PIECE_KEYS[captured][target]
            if captured == KING or captured == -KING:
                self._kings[not mover] = None
            self.halfmove_clock = 0
        else:
            self.halfmove_clock += 1
        if piece == KING or piece == -KING:
            self._kings[mover] = target
        codes[target] = piece
        codes[origin] = 0
        if not mover:
            self.fullmove_number += 1
        self.turn = not mover
        self._key = key

    def pop(self) -> Move:
        """Take back the last move and return it; raises IndexError when there is none."""
        code, captured, halfmove_clock, key = self._stack.pop()
        origin = code >> 7
        target = code & 127
        codes = self._codes
        piece = codes[target]
        mover = piece > 0
        own = self._squares_of[mover]
        own.discard(target)
        own.add(origin)
        if captured:
            self._squares_of[not mover].add(target)
            if captured == KING or captured == -KING:
                self._kings[not mover] = target
        if piece == KING or piece == -KING:
            self._kings[mover] = origin
        codes[origin] = piece
        codes[target] = captured
        if not mover:
            self.fullmove_number -= 1
        self.turn = mover
        self.halfmove_clock = halfmove_clock
        self._key = key
        return _move(code)

    def push_iccs(self, text: str) -> Move:
        """Parse an ICCS move (``'h2e2'``/``'H2-E2'``), check it and play it."""
        try:
            move = Move.from_iccs(text)
        except ValueError as error:
            raise IllegalMoveError(f"{error} in {self.fen()!r}") from None
        self.push_legal(move)
        return move

    def push_legal(self, move: Move) -> None:
        """Play ``move`` after checking it; raises IllegalMoveError saying why it is refused."""
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.iccs()!r} in {self.fen()!r}: {self.why_illegal(move)}")
        self.push(move)

    def why_illegal(self, move: Move) -> IllegalReason:
        """Why ``move`` is refused (:attr:`IllegalReason.LEGAL`, which is false, when it is legal)."""
        code = self._codes[move.from_square]
        if code == 0:
            return IllegalReason.NO_PIECE
        if (code > 0) != self.turn:
            return IllegalReason.NOT_TO_MOVE
        encoded = move.from_square << 7 | move.to_square
        movable = unchecked_moves if self.ruleset.general_capture else pseudo_legal_moves
        if encoded not in movable(self._codes, (move.from_square,), self.turn):
            own = self._codes[move.to_square]
            if own and (own > 0) == self.turn:
                return IllegalReason.OWN_PIECE_ON_TARGET
            return IllegalReason.CANNOT_MOVE_THAT_WAY
        if encoded in self._perpetual_check_banned([encoded]):
            return IllegalReason.PERPETUAL_CHECK
        if not self.is_legal(move):
            return IllegalReason.LEAVES_KING_ATTACKED
        return IllegalReason.LEGAL

    # --- game end -----------------------------------------------------------------------------

    def outcome(self) -> Optional[Outcome]:
        """How the game has ended by the rules (None while it goes on): the capture-free draw
        is judged first (it happens after a move), then whether the side to move has a move.
        Under a ruleset with ``general_capture`` a captured general ends the game before that."""
        if self.ruleset.general_capture:
            for color in (RED, BLACK):
                if self._kings[color] is None:
                    return Outcome.general_captured(color)
        if self.halfmove_clock >= self.ruleset.capture_free_draw_plies:
            return Outcome.capture_free_draw()
        if not self._legal_codes():
            return Outcome.no_legal_moves(self.turn)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    # --- perft --------------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree to ``depth`` (bulk-counted at the last ply)."""
        if depth <= 0:
            return 1
        legal = self._legal_codes()
        if depth == 1:
            return len(legal)
        total = 0
        for code in legal:
            self._make(code)
            total += self.perft(depth - 1)
            self.pop()
        return total

    # --- dunder -------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Board) and self._codes == other._codes and self.turn == other.turn
                and self._stack == other._stack)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __str__(self) -> str:
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            cells = (Piece.from_code(c).symbol() if (c := self._codes[rank * FILES + f]) else "."
                     for f in range(FILES))
            rows.append(f"{rank} " + " ".join(cells))
        rows.append("  a b c d e f g h i")
        return "\n".join(rows)
