"""A cursor over a game record: the line being viewed and the position on it (no Qt).

The record is the game tree (:class:`~xqdesk.game.Game`). The cursor keeps the *viewed line*, the
path from the root to the end of the main line or of a variation, and the *ply* on it; stepping,
jumping and the ply all refer to the viewed line, and every change it makes to the record is a
tree operation (add a move or a variation, promote, remove a variation, cut). A window shows what
the cursor says; :class:`~xqdesk.ui.game.game_controller.GameController` tells widgets when it moved.
"""
from __future__ import annotations

from xqdesk.board import Board
from xqdesk.game import ChildNode, Game, GameNode
from xqdesk.move import Move


class GameCursor:
    """The viewed line of ``game`` and the position on it (at the start of the main line)."""

    def __init__(self, game: Game | None = None) -> None:
        self.game = game if game is not None else Game()
        self._line: list[ChildNode] = []
        self._ply = 0
        self._board = self.game.start_board()

    # --- where the cursor stands -------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The viewed position (the cursor's own board: copy it to keep or change it)."""
        return self._board

    @property
    def ply(self) -> int:
        """How many moves of the viewed line lead to the viewed position."""
        return self._ply

    def length(self) -> int:
        """The number of moves in the viewed line."""
        return len(self._line)

    def at_end(self) -> bool:
        return self._ply == len(self._line)

    def node(self) -> GameNode:
        """The node of the viewed position (the game itself at the start)."""
        return self._line[self._ply - 1] if self._ply > 0 else self.game

    def last_move(self) -> Move | None:
        """The move that led to the viewed position."""
        return self._line[self._ply - 1].move if self._ply > 0 else None

    def line(self) -> list[ChildNode]:
        """The viewed line from the start (a new list; its nodes are the game's)."""
        return list(self._line)

    def line_moves(self) -> list[Move]:
        """The moves of the viewed line."""
        return [node.move for node in self._line]

    def variation_depth(self) -> int:
        """How many variations deep the viewed line is (0: the main line)."""
        return sum(1 for node in self._line if node.starts_variation())

    def alternative_nodes(self) -> list[ChildNode]:
        """The recorded continuations of the viewed position, the viewed line's own first."""
        if self._ply >= len(self._line):
            return []
        ahead = self._line[self._ply]
        return [ahead] + [node for node in self.node().variations if node is not ahead]

    def alternatives(self) -> list[Move]:
        """The moves the record has from the viewed position: the viewed line's next move first,
        then the other recorded moves ([] at the end of the line)."""
        return [node.move for node in self.alternative_nodes()]

    def board_at(self, ply: int) -> Board:
        """The position after the first ``ply`` moves of the viewed line."""
        board = self.game.start_board()
        for node in self._line[:ply]:
            board.push(node.move)
        return board

    # --- moving the cursor ---------------------------------------------------------------------------
    def reset(self, game: Game, end: Board | None = None) -> None:
        """View ``game``'s main line, standing at its end (``end``: that position, when known)."""
        self.game = game
        self._line = game.mainline()
        self._ply = len(self._line)
        self._board = end if end is not None else self.board_at(self._ply)

    def go_to(self, ply: int) -> bool:
        """Stand after ``ply`` moves of the viewed line (clamped to it); whether the ply changed."""
        ply = max(0, min(ply, len(self._line)))
        if ply == self._ply:
            return False
        if ply == self._ply + 1:
            self._board.push(self._line[self._ply].move)
        elif ply == self._ply - 1 and self._board.move_stack:
            self._board.pop()
        else:
            self._board = self.board_at(ply)
        self._ply = ply
        return True

    def view(self, node: GameNode) -> None:
        """Stand at ``node``, viewing the line through it to the end of its main continuation."""
        self._line = node.end().path()
        self._ply = node.ply()
        self._board = self.board_at(self._ply)

    def extend(self, node: ChildNode) -> None:
        """Take ``node``, a continuation of the viewed line's last position already in the record,
        as the line's next move; the cursor stays where it is."""
        if node.parent is not (self._line[-1] if self._line else self.game):
            raise ValueError(f"{node!r} does not continue the viewed line (of {len(self._line)} moves)")
        self._line.append(node)

    def step_onto(self, node: ChildNode) -> None:
        """At the end of the viewed line, take ``node`` as the line's next move (see
        :meth:`extend`) and stand on it."""
        if not self.at_end():
            raise ValueError(f"the cursor is not at the end of its line (ply {self._ply} of {len(self._line)})")
        self.extend(node)
        self.go_to(self._ply + 1)

    # --- changing the record -------------------------------------------------------------------------
    def add_move(self, move: Move) -> ChildNode:
        """Record ``move`` after the viewed position: at the end of the line it extends the line;
        before the end it starts a variation, which becomes the viewed line. The cursor stands on
        the new move."""
        node = self.node().add_variation(move)
        if self.at_end():
            self.step_onto(node)
        else:
            self.view(node)
        return node

    def choose_alternative(self, index: int) -> None:
        """Play the recorded move ``alternatives()[index]``: 0 steps on along the viewed line, a
        higher index enters that variation (its first move played). IndexError for another index."""
        nodes = self.alternative_nodes()
        if not 0 <= index < len(nodes):
            raise IndexError(f"alternative {index!r} is not among the {len(nodes)} recorded at ply {self._ply}")
        if index == 0:
            self.go_to(self._ply + 1)
        else:
            self.view(nodes[index])

    def branch(self) -> ChildNode | None:
        """The first node of the innermost variation the viewed line goes through (None: main line)."""
        return next((node for node in reversed(self._line) if node.starts_variation()), None)

    def leave_variation(self) -> bool:
        """Go back to the line the viewed variation branches from, at the branch point; whether
        there was one."""
        branch = self.branch()
        if branch is None:
            return False
        self.view(branch.parent)
        return True

    def delete_variation(self) -> bool:
        """Remove the innermost variation the viewed line goes through, and stand where it began."""
        branch = self.branch()
        if branch is None:
            return False
        parent = branch.parent
        parent.remove_variation(branch)
        self.view(parent)
        return True

    def promote_variation(self) -> bool:
        """Make the innermost variation the viewed line goes through the main continuation there
        (the cursor stays where it is; the old main continuation becomes a variation)."""
        branch = self.branch()
        if branch is None:
            return False
        branch.parent.promote_to_main(branch)
        return True

    def cut_from_here(self) -> bool:
        """Remove every move recorded after the viewed position; whether there was any."""
        node = self.node()
        if not node.variations:
            return False
        node.cut()
        self.view(node)
        return True

    def take_back_move(self) -> bool:
        """Remove the move that led to the viewed position, with every move after it (its whole
        variation when it is a variation's first move), and stand before it."""
        if self._ply == 0:
            return False
        node = self._line[self._ply - 1]
        parent = node.parent
        if node.starts_variation():
            parent.remove_variation(node)
        else:
            parent.cut()
        self.view(parent)
        return True

    def cut_line(self, keep: int) -> None:
        """Keep the first ``keep`` moves of the viewed line, cut the rest from the record, and stand
        at the new end."""
        (self._line[keep - 1] if keep > 0 else self.game).cut()
        del self._line[keep:]
        self._ply = keep
        self._board = self.board_at(keep)
