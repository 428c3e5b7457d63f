"""The game record: a tree of moves (python-chess's ``GameNode``) under a start position, with
comments, NAGs and variations, headers and the outcome.

A :class:`Game` is the root node of its tree; any file format fills it in and writes it out.
Moves in it are not trusted: :meth:`Game.replay` re-checks every one (main line and variations) under the game's
ruleset and says which move of which line failed, in which position.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence, TypeVar

from xqdesk.board import Board
from xqdesk.errors import IllegalMoveError
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import side_name
from xqdesk.ruleset import COURSE, Ruleset

if TYPE_CHECKING:
    from xqdesk.game_visitor import GameVisitor

ResultT = TypeVar("ResultT")

HEADER_ORDER = ("Game", "Event", "Site", "Date", "Round", "RedTeam", "Red", "BlackTeam", "Black",
                "Result", "ECCO", "Opening", "Variation")
"""The usual order of PGN tags; other tags follow in the order they were given."""


class GameNode:
    """A node of a game tree (python-chess's ``GameNode``): a position, what was said of it
    (``comment``) and the moves recorded from here, ``variations``, the first of which is the main
    continuation. The root is the :class:`Game`; every other node is a :class:`ChildNode`, reached
    by a move. Moves are not checked when added: :meth:`Game.replay` checks the whole tree.

    Walks over the tree are iterative, so a record nested thousands of variations deep is safe.
    """

    __slots__ = ("parent", "comment", "variations", "__weakref__")  # a record holds many nodes: keep them small

    def __init__(self, parent: GameNode | None = None, comment: str = "") -> None:
        self.parent = parent
        self.comment = comment
        self.variations: list[ChildNode] = []

    # --- where a node stands ----------------------------------------------------------------------
    def game(self) -> Game:
        """The game (the root of the tree) this node belongs to."""
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise ValueError("this node is not part of a game")
        return node

    def path(self) -> list[ChildNode]:
        """The nodes from the root's first move down to this node (empty at the root)."""
        nodes = []
        node: GameNode = self
        while isinstance(node, ChildNode):
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def ply(self) -> int:
        """How many moves lead from the start position to this node."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def moves(self) -> list[Move]:
        """The moves that lead from the start position to this node."""
        return [node.move for node in self.path()]

    def board(self) -> Board:
        """The position at this node (moves pushed unchecked: replay an untrusted game first)."""
        board = self.game().start_board()
        for move in self.moves():
            board.push(move)
        return board

    def is_main_variation(self) -> bool:
        """Whether this node is on the game's main line (every node above it is a first choice)."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def starts_variation(self) -> bool:
        """Whether this node is an alternative to its parent's main continuation."""
        return self.parent is not None and self.parent.variations[0] is not self

    # --- the line from here -------------------------------------------------------------------------
    def next(self) -> ChildNode | None:
        """The main continuation (None at the end of a line)."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> list[ChildNode]:
        """The nodes of the main continuation from here, following each node's first variation."""
        nodes = []
        node = self.next()
        while node is not None:
            nodes.append(node)
            node = node.next()
        return nodes

    def mainline_moves(self) -> list[Move]:
        """The moves of :meth:`mainline`."""
        return [node.move for node in self.mainline()]

    def end(self) -> GameNode:
        """The last node of the main continuation from here (this node at the end of a line)."""
        line = self.mainline()
        return line[-1] if line else self

    def variation(self, move: Move) -> ChildNode | None:
        """The recorded continuation by ``move``, if any."""
        return next((node for node in self.variations if node.move == move), None)

    def walk(self) -> Iterator[GameNode]:
        """This node and every node below it, depth first, main continuations first."""
        stack: list[GameNode] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    # --- changing the tree --------------------------------------------------------------------------
    def add_variation(self, move: Move, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> ChildNode:
        """A new continuation by ``move`` after the existing ones (the main one when it is the first)."""
        node = ChildNode(move, self, comment, starting_comment, nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, comment: str = "") -> ChildNode:
        """A new continuation by ``move`` that becomes the main one."""
        node = ChildNode(move, self, comment)
        self.variations.insert(0, node)
        return node

    def remove_variation(self, node: ChildNode) -> None:
        """Remove the continuation ``node`` with everything after it."""
        self.variations.remove(node)

    def promote_to_main(self, node: ChildNode) -> None:
        """Make the continuation ``node`` the main one."""
        self.variations.remove(node)
        self.variations.insert(0, node)

    def promote(self, node: ChildNode) -> None:
        """Move the continuation ``node`` one place up among its alternatives."""
        index = self.variations.index(node)
        if index > 0:
            self.variations[index - 1], self.variations[index] = node, self.variations[index - 1]

    def demote(self, node: ChildNode) -> None:
        """Move the continuation ``node`` one place down among its alternatives."""
        index = self.variations.index(node)
        if index < len(self.variations) - 1:
            self.variations[index + 1], self.variations[index] = node, self.variations[index + 1]

    def cut(self) -> None:
        """Remove every move recorded after this node."""
        self.variations = []

    # --- comparing ----------------------------------------------------------------------------------
    def _own_fields(self) -> tuple[object, ...]:
        return (self.comment, len(self.variations))

    def __eq__(self, other: object) -> bool:
        """Two trees are equal when every node holds the same move, comments and NAGs."""
        if not isinstance(other, GameNode):
            return NotImplemented
        pairs: list[tuple[GameNode, GameNode]] = [(self, other)]
        while pairs:
            mine, theirs = pairs.pop()
            if mine._own_fields() != theirs._own_fields():
                return False
            pairs.extend(zip(mine.variations, theirs.variations))
        return True

    __hash__ = None  # type: ignore[assignment]  # nodes change: they cannot be dict keys



class ChildNode(GameNode):
    """A node reached by ``move`` from ``parent``; ``comment`` is said after the move,
    ``starting_comment`` before it (when it opens a variation), ``nags`` are PGN's numeric
    annotation glyphs (1 ``!``, 2 ``?``, 3 ``!!``, 4 ``??``, 5 ``!?``, 6 ``?!`` …). ``seconds`` is
    how long the move took where it was played under a referee (None in records read from files;
    not written to them, not part of a node's equality)."""

    __slots__ = ("move", "starting_comment", "_nags", "seconds")
    parent: GameNode

    def __init__(self, move: Move, parent: GameNode, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> None:
        super().__init__(parent, comment)
        self.move = move
        self.starting_comment = starting_comment
        self._nags: set[int] | None = set(nags) or None  # most moves have none: no set each
        self.seconds: float | None = None

    @property
    def nags(self) -> set[int]:
        """The move's NAGs, a set that may be changed in place (made on first use)."""
        if self._nags is None:
            self._nags = set()
        return self._nags

    @nags.setter
    def nags(self, numbers: Iterable[int]) -> None:
        self._nags = set(numbers) or None

    def has_nags(self) -> bool:
        """Whether the move has any NAG (without making its set)."""
        return bool(self._nags)

    def add_nag(self, number: int) -> None:
        """Add one NAG to the move."""
        self.nags.add(number)

    def _own_fields(self) -> tuple[object, ...]:
        return (self.move, self.comment, self.starting_comment, frozenset(self._nags or ()), len(self.variations))

    def __repr__(self) -> str:
        return f"<ChildNode {self.move.iccs()} at ply {self.ply()}, {len(self.variations)} continuations>"


def move_label(board: Board) -> str:
    """``'move 12 (Black)'``: how errors name the move about to be played on ``board``."""
    return f"move {board.fullmove_number} ({side_name(board.turn)})"


class Game(GameNode):
    """One game record: the root of its move tree.

    ``comment`` is the text before the first move; ``outcome`` how the game ended as the record
    says (None when it does not say); ``ruleset`` the rules it was played under, by which
    :meth:`replay` judges it.
    """

    def __init__(self, headers: dict[str, str] | None = None, start_fen: str = STARTING_FEN, comment: str = "",
                 outcome: Outcome | None = None, ruleset: Ruleset = COURSE) -> None:
        super().__init__(None, comment)
        self.headers: dict[str, str] = dict(headers or {})
        self.start_fen = start_fen
        self.outcome = outcome
        self.ruleset = ruleset

    @classmethod
    def from_moves(cls, moves: Sequence[Move], start_fen: str = STARTING_FEN,
                   headers: dict[str, str] | None = None, outcome: Outcome | None = None) -> Game:
        """A game with ``moves`` as its main line (not checked here; call :meth:`replay`)."""
        game = cls(headers=headers, start_fen=start_fen, outcome=outcome)
        node: GameNode = game
        for move in moves:
            node = node.add_variation(move)
        return game

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled flat, node by node in record order, so that a game thousands of moves long
        crosses a process boundary (a Ray task, a worker pool) without deep recursion."""
        nodes: list[tuple[int, Move, str, str, tuple[int, ...], float | None]] = []
        numbers: dict[int, int] = {id(self): -1}
        stack: list[ChildNode] = list(reversed(self.variations))
        while stack:
            node = stack.pop()
            numbers[id(node)] = len(nodes)
            nodes.append((numbers[id(node.parent)], node.move, node.comment, node.starting_comment,
                          tuple(sorted(node._nags or ())), node.seconds))
            stack.extend(reversed(node.variations))
        state = (dict(self.headers), self.start_fen, self.comment, self.outcome, self.ruleset)
        return (_rebuilt_game, (state, tuple(nodes)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        same_record = (self.headers, self.start_fen, self.outcome, self.ruleset) == (
            other.headers, other.start_fen, other.outcome, other.ruleset)
        return same_record and GameNode.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"<Game {self.headers.get('Red', '?')} vs {self.headers.get('Black', '?')}, {len(self)} plies>"

    def accept(self, visitor: GameVisitor[ResultT]) -> ResultT:
        """Walk the tree in record order through ``visitor`` (see :mod:`xqdesk.game_visitor`) and
        return what it made."""
        from xqdesk.game_visitor import walk

        return walk(self, visitor)

    def start_board(self) -> Board:
        """A fresh board at the start position."""
        return Board(self.start_fen, ruleset=self.ruleset)

    def __len__(self) -> int:
        """The number of plies in the main line."""
        return len(self.mainline())

    def board_at(self, ply: int) -> Board:
        """The position after the first ``ply`` moves of the main line (0 = the start position).
        Moves are pushed unchecked: call :meth:`replay` first on a record you do not trust."""
        moves = self.mainline_moves()
        if not 0 <= ply <= len(moves):
            raise IndexError(f"ply {ply!r} is outside the main line (0..{len(moves)})")
        board = self.start_board()
        for move in moves[:ply]:
            board.push(move)
        return board

    def boards(self) -> Iterator[Board]:
        """Every position of the main line, from the start to the end, each a separate board."""
        board = self.start_board()
        yield board.copy()
        for move in self.mainline_moves():
            board.push(move)
            yield board.copy()

    def end_board(self) -> Board:
        """The position after the whole main line (moves pushed unchecked)."""
        return self.board_at(len(self))

    def replay(self) -> Board:
        """Re-check every move, variations included, under the ruleset; return the final board of
        the main line. Raises IllegalMoveError naming the move number, the move and the FEN."""
        return _replay_tree(self)

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
        moves = self.mainline_moves()
        for ply, move in enumerate(moves[:-1], start=1):
            walk.push(move)
            if walk.halfmove_clock >= limit:
                drawn = Outcome.capture_free_draw()
                return OutcomeCheck(False, drawn, f"the rules ended the game after ply {ply} "
                                    f"({drawn.text}) but the record goes on to ply {len(moves)}")
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
        for move in self.mainline_moves():
            history.append(move.to_course() + (board.code_at(move.to_square),))
            board.push(move)
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


def _rebuilt_game(state: tuple[dict[str, str], str, str, Outcome | None, Ruleset],
                  nodes: Sequence[tuple[int, Move, str, str, tuple[int, ...], float | None]]) -> Game:
    """The game :meth:`Game.__reduce__` flattened."""
    headers, start_fen, comment, outcome, ruleset = state
    game = Game(headers, start_fen, comment, outcome, ruleset)
    made: list[ChildNode] = []
    for parent, move, after, before, nags, seconds in nodes:
        node = (made[parent] if parent >= 0 else game).add_variation(move, after, before, nags)
        node.seconds = seconds
        made.append(node)
    return game


def _replay_tree(game: Game) -> Board:
    """Check every move of ``game``'s tree under its ruleset (iteratively, however deep the
    variations nest); return the board at the end of the main line. IllegalMoveError names the
    line ("main line", "variation 2 at move 5 (Black) of the main line" …), the move and the FEN."""
    end = game.start_board()
    lines: list[tuple[Board, ChildNode | None, str]] = [(end, game.next(), "main line")]
    while lines:
        board, node, line_name = lines.pop()
        while node is not None:
            if not node.starts_variation():
                for number, alternative in reversed(list(enumerate(node.parent.variations[1:], start=1))):
                    lines.append((board.copy(), alternative,
                                  f"variation {number} at {move_label(board)} of the {line_name}"))
            if not board.is_legal(node.move):
                raise IllegalMoveError(f"{move_label(board)} of the {line_name}: {node.move.iccs()!r} "
                                       f"is not legal in {board.fen()!r} ({board.why_illegal(node.move)})")
            board.push(node.move)
            node = node.next()
    return end


