"""Walking a game tree in record order, for writers (python-chess's ``BaseVisitor``).

:meth:`xqdesk.game.Game.accept` calls a :class:`GameVisitor`'s methods in the order a PGN movetext
says things: the game's opening comment, then each move (with the position it is played from),
its NAGs and its comment, the alternatives to a move between ``begin_variation`` and
``end_variation`` right after it, and the main line going on after them. A writer is a visitor
that turns those calls into text; it never walks the tree itself, so every format writes
variations, comments and NAGs in the same order. The walk is iterative: a record nested thousands
of variations deep is safe.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar, Union

from xqdesk.board import Board
from xqdesk.move import Move

if TYPE_CHECKING:
    from xqdesk.game import ChildNode, Game, GameNode

ResultT = TypeVar("ResultT")


class GameVisitor(Generic[ResultT]):
    """Receives one game in record order; :meth:`result` gives what it made. Every method does
    nothing by default: override the ones you need."""

    def begin_game(self, game: Game) -> None:
        """The walk starts (headers, start position and outcome are on ``game``)."""

    def visit_comment(self, text: str) -> None:
        """A comment: before the first move (the game's), before a variation's first move (its
        starting comment), or after the move just visited."""

    def visit_move(self, board: Board, move: Move) -> None:
        """``move`` is played from ``board`` (the position before it; do not change it)."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph of the move just visited (in increasing order)."""

    def begin_variation(self) -> None:
        """An alternative to the move just visited begins (from the position before that move)."""

    def end_variation(self) -> None:
        """The alternative ends; the walk goes on where it began."""

    def end_game(self, game: Game) -> None:
        """The walk is over."""

    def result(self) -> ResultT:
        """What the visitor made of the game."""
        raise NotImplementedError


_Step = Union[str, tuple[str, Board, "ChildNode"], tuple[str, Board, "GameNode"]]
_BEGIN, _END, _CHILD, _LINE = "begin", "end", "child", "line"


def walk(game: Game, visitor: GameVisitor[ResultT]) -> ResultT:
    """Call ``visitor``'s methods for ``game`` in record order and return its result. Moves are
    pushed unchecked: call ``game.replay()`` first on a record you do not trust."""
    visitor.begin_game(game)
    if game.comment:
        visitor.visit_comment(game.comment)
    # What is still to visit, last first: a variation's brackets, a move (child) and the line that
    # goes on from a node (its main move, the alternatives to it, then the rest).
    stack: list[_Step] = [(_LINE, game.start_board(), game)]
    while stack:
        step = stack.pop()
        if step == _BEGIN:
            visitor.begin_variation()
            continue
        if step == _END:
            visitor.end_variation()
            continue
        assert isinstance(step, tuple)
        kind, board, node = step
        if kind == _CHILD:
            _visit_child(visitor, board, node)  # type: ignore[arg-type]
            continue
        main = node.next()
        if main is None:
            continue
        after = board.copy()
        after.push(main.move)
        stack.append((_LINE, after, main))
        for alternative in reversed(node.variations[1:]):
            alternative_after = board.copy()
            alternative_after.push(alternative.move)
            stack.extend((_END, (_LINE, alternative_after, alternative), (_CHILD, board, alternative), _BEGIN))
        stack.append((_CHILD, board, main))
    visitor.end_game(game)
    return visitor.result()


def _visit_child(visitor: GameVisitor[ResultT], board: Board, node: ChildNode) -> None:
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(board, node.move)
    if node.has_nags():
        for nag in sorted(node.nags):
            visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)
