"""Monte-Carlo tree search shared by the ``mcts`` and ``zero`` engines.

Each :class:`Node` holds its legal moves and, per move (edge), the prior ``P``, visit count ``N``
and summed value ``W`` from the view of the side to move at the node. A simulation descends by

- **UCT** (``mcts``): an unvisited move first, else the largest ``Q + c·sqrt(ln ΣN / N)``;
- **PUCT** (``zero``): the largest ``Q + c·P·sqrt(ΣN) / (1 + N)``, an unvisited move counting as
  ``Q`` = the node's own value estimate minus :data:`FIRST_PLAY_URGENCY_REDUCTION`;

expands the leaf it reaches (its legal moves from the kernel board), has a :class:`LeafEvaluator`
value it (a playout, or a network's value and priors) and backs the value up, negating it at
each ply. Leaves are collected in batches (``evaluator.batch_size``) under a virtual loss, so a
network evaluates many at once. In the tree a side with no legal move has lost, a position met
before in the line (with the same side to move) and the capture-free ply limit are draws. The
course's perpetual-check ban applies at the root through the root moves the caller gives and inside
the tree through the position's check trail (``perpetual_kernel``): a move the ban forbids is
scored as lost for the side making it, so it is never chosen while another move is open and a side
left with only forbidden moves has lost, as the rules say.

**Proven results** (MCTS-solver): wins and losses are exact and travel up the tree. A move to a
position where the opponent has lost (no legal move, or proven lost) proves its node won, in one
ply more than that position's proof; a node all of whose moves lead to proven wins for the
opponent is proven lost, in one ply more than the longest of them. A proven node is a terminal like
the end of the game: its exact value is backed up each time a simulation reaches it. Selection never
takes a move proven to lose while another is open, and :func:`proven_choice` gives the root's move
when its result is proven (the quickest win, else the slowest loss). Draws are not propagated: the
repetition and capture-free draws depend on the line that led to a position.

**The capture-free clock.** A leaf's value is scaled toward a draw over the last
:data:`CLOCK_FADE_PLIES` plies before the capture-free limit (× (limit − clock) / fade), since the
game is drawn there unless a capture comes first: a side that is winning is drawn to captures that
restart the clock instead of shuffling into the draw, and a losing side to the draw.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Protocol, Sequence

import numpy as np

from xqdesk.engines.builtin import board_kernel, perpetual_kernel
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.mcts.playout import repeated

FIRST_PLAY_URGENCY_REDUCTION = 0.25
CLOCK_FADE_PLIES = 40
_NO_MOVES = np.zeros(0, np.int64)


class Node:
    """A position in the tree; ``moves`` is None until it is expanded."""

    __slots__ = ("moves", "prior", "visits", "value_sum", "children", "terminal", "estimate", "waiting",
                 "proof_plies", "edge_proof")

    def __init__(self) -> None:
        self.moves: Optional[np.ndarray] = None
        self.prior = np.zeros(0)
        self.visits = np.zeros(0)
        self.value_sum = np.zeros(0)
        self.children: list[Optional[Node]] = []
        self.terminal: Optional[float] = None
        """The value for the side to move when the game is over here."""
        self.estimate = 0.0
        """The evaluator's value of this position (side to move's view)."""
        self.waiting = False
        """Selected in the batch being collected, not evaluated yet."""
        self.proof_plies = 0
        """When ``terminal`` is ±1: the plies to the end of the game with best play (0: it is over)."""
        self.edge_proof = np.zeros(0, np.int8)
        """Per move: 1 proven to win, -1 proven to lose (for the side to move here), 0 open."""

    def expand(self, moves: np.ndarray, prior: np.ndarray) -> None:
        self.moves = moves
        self.prior = prior.astype(np.float64)
        self.visits = np.zeros(len(moves))
        self.value_sum = np.zeros(len(moves))
        self.children = [None] * len(moves)
        self.edge_proof = np.zeros(len(moves), np.int8)

    @property
    def total_visits(self) -> float:
        return float(self.visits.sum())

    def q(self, index: int) -> float:
        """The mean value of move ``index`` for the side to move here (0 unvisited)."""
        n = self.visits[index]
        return float(self.value_sum[index] / n) if n > 0 else 0.0

    def index_of(self, move: int) -> int:
        """The edge of kernel move ``move``, -1 when it is not a move here."""
        if self.moves is None:
            return -1
        hits = np.flatnonzero(self.moves == move)
        return int(hits[0]) if len(hits) else -1

    def restricted(self, allowed: Sequence[int]) -> Node:
        """This expanded node with only the ``allowed`` kernel moves (stats and subtrees kept)."""
        assert self.moves is not None
        keep = [i for i, move in enumerate(self.moves.tolist()) if move in set(allowed)]
        node = Node()
        prior = self.prior[keep]
        total = prior.sum()
        node.expand(self.moves[keep], prior / total if total > 0 else np.full(len(keep), 1 / max(len(keep), 1)))
        node.visits = self.visits[keep].copy()
        node.value_sum = self.value_sum[keep].copy()
        node.children = [self.children[i] for i in keep]
        node.edge_proof = self.edge_proof[keep].copy()
        node.estimate = self.estimate
        return node


class LeafEvaluator(Protocol):
    """Values leaves. ``prepare`` sees the kernel position of a leaf with its legal moves and returns
    what ``evaluate`` needs later (the position is changed after ``prepare`` returns); ``evaluate``
    gives, per prepared leaf, the priors of its moves and its value for the side to move."""

    batch_size: int

    def prepare(self, position: Position, moves: np.ndarray) -> Any:
        ...

    def evaluate(self, items: list[Any]) -> list[tuple[np.ndarray, float]]:
        ...


@dataclass
class _Pending:
    path: list[tuple[Node, int]]
    leaf: Node
    moves: np.ndarray
    item: Any
    clock: int = 0
    """The leaf's capture-free plies."""


class TreeSearch:
    """Runs simulations from ``root`` on ``position`` (the root's kernel position, left unchanged)."""

    def __init__(self, evaluator: LeafEvaluator, exploration: float, puct: bool, draw_plies: int,
                 rng: Optional[np.random.Generator] = None, check_limit: int = 0, check_min_history: int = 0) -> None:
        """``check_limit`` and ``check_min_history``: the ruleset's perpetual-check ban (0: none)."""
        self.evaluator = evaluator
        self.exploration = exploration
        self.puct = puct
        self.draw_plies = draw_plies
        self.rng = rng or np.random.default_rng()
        self.check_limit = check_limit
        self.check_min_history = check_min_history
        self.history_offset = 0
        """The game's moves before the position's first (the ban applies only to long enough games)."""
        self.max_depth = 0

    def expand_root(self, root: Node, position: Position) -> None:
        """Expand an unexpanded root (value and priors from the evaluator)."""
        if root.moves is not None:
            return
        moves = self._legal(position)
        item = self.evaluator.prepare(position, moves)
        prior, value = self.evaluator.evaluate([item])[0]
        clock = int(position.clocks[position.pos[board_kernel.POS_HEIGHT]])
        self._expand(root, moves, prior, value * self.clock_fade(clock))

    def clock_fade(self, clock: int) -> float:
        """The factor on a leaf value at ``clock`` capture-free plies (module doc)."""
        return min(1.0, max(0.0, (self.draw_plies - clock) / CLOCK_FADE_PLIES))

    def _expand(self, node: Node, moves: np.ndarray, prior: np.ndarray, value: float) -> None:
        if not self.puct and len(moves) > 1:  # UCT tries unvisited moves in random order
            order = self.rng.permutation(len(moves))
            moves, prior = moves[order], prior[order]
        node.expand(moves, prior)
        node.estimate = value

    @staticmethod
    def _legal(position: Position) -> np.ndarray:
        out = np.empty(board_kernel.MAX_MOVES, np.int64)
        n = board_kernel.legal_moves(position.board, position.pos, position.keys, position.clocks, position.psq,
                                     position.params, out)
        return out[:n].copy()

    def _select(self, node: Node) -> int:
        proven = proven_choice(node)
        if proven is not None:  # only at the root: a proven inner node is a terminal
            return proven
        visits = node.visits
        total = visits.sum()
        lost = node.edge_proof < 0
        if self.puct:
            q = np.where(visits > 0, node.value_sum / np.maximum(visits, 1),
                         node.estimate - FIRST_PLAY_URGENCY_REDUCTION)
            u = q + self.exploration * node.prior * math.sqrt(total + 1) / (1 + visits)
            return int(np.argmax(np.where(lost, -np.inf, u)))
        unvisited = np.flatnonzero((visits == 0) & ~lost)
        if len(unvisited):
            return int(unvisited[0])
        u = node.value_sum / np.maximum(visits, 1) + self.exploration * np.sqrt(math.log(max(total, 1))
                                                                                / np.maximum(visits, 1))
        return int(np.argmax(np.where(lost, -np.inf, u)))

    def run(self, root: Node, position: Position, simulations: int, history_offset: int = 0) -> int:
        """Run up to ``simulations`` simulations (in evaluator batches); returns how many ran
        (0 when the root's result is proven or it has no move). ``history_offset``: the game's
        moves before ``position``'s first."""
        self.history_offset = history_offset
        self.expand_root(root, position)
        if root.moves is None or len(root.moves) == 0 or proven_choice(root) is not None:
            return 0
        done = 0
        while done < simulations:
            batch: list[_Pending] = []
            wanted = min(self.evaluator.batch_size, simulations - done)
            for _ in range(wanted):
                pending = self._descend(root, position)
                if pending is None:  # a leaf already waiting in this batch: evaluate what we have
                    break
                if pending.item is None:  # terminal: backed up at once
                    done += 1
                    continue
                batch.append(pending)
            if batch:
                results = self.evaluator.evaluate([p.item for p in batch])
                for pending, (prior, value) in zip(batch, results):
                    pending.leaf.waiting = False
                    value *= self.clock_fade(pending.clock)
                    self._expand(pending.leaf, pending.moves, prior, value)
                    self._backup(pending.path, value, virtual=True)
                done += len(batch)
        return done

    def _descend(self, root: Node, position: Position) -> Optional[_Pending]:
        """One selection from the root; the leaf is made ready for evaluation (or, at the end of
        the game, backed up at once and returned with ``item`` None). None on a collision."""
        node = root
        path: list[tuple[Node, int]] = []
        made: list[tuple[int, int]] = []
        try:
            while True:
                index = self._select(node)
                assert node.moves is not None
                move = int(node.moves[index])
                captured = board_kernel.make_move(position.board, position.pos, position.keys, position.clocks,
                                                  position.psq, position.params, move)
                made.append((move, int(captured)))
                path.append((node, index))
                node.visits[index] += 1  # virtual loss, undone in the backup
                node.value_sum[index] -= 1
                banned = self._trail(position, move)
                child = node.children[index]
                if child is None:
                    child = node.children[index] = Node()
                    if banned:  # the mover may not play it: as good as lost
                        child.terminal, child.proof_plies = 1.0, 0
                elif child.waiting:  # selected earlier in this batch
                    self._undo_virtual(path)
                    return None
                if child.terminal is not None:
                    self._backup(path, child.terminal, virtual=True)
                    propagate_proof(path)
                    return _Pending(path, child, _NO_MOVES, None)
                if child.moves is not None and len(child.moves) > 0:
                    node = child
                    continue
                self.max_depth = max(self.max_depth, len(path))
                height = int(position.pos[board_kernel.POS_HEIGHT])
                if position.clocks[height] >= self.draw_plies or repeated(position.keys, position.clocks, height):
                    child.terminal = 0.0
                else:
                    moves = self._legal(position)
                    if len(moves) == 0:
                        child.terminal, child.proof_plies = -1.0, 0
                    else:
                        child.waiting = True
                        return _Pending(path, child, moves, self.evaluator.prepare(position, moves),
                                        int(position.clocks[height]))
                self._backup(path, child.terminal, virtual=True)
                propagate_proof(path)
                return _Pending(path, child, _NO_MOVES, None)
        finally:
            for move, captured in reversed(made):
                board_kernel.unmake_move(position.board, position.pos, move, captured)

    def _trail(self, position: Position, move: int) -> bool:
        """Record the move just made on the position's check trail; whether the ban forbids it."""
        if self.check_limit <= 0:
            return False
        height = int(position.pos[board_kernel.POS_HEIGHT])
        side = int(position.pos[board_kernel.POS_SIDE])
        position.trail_moves[height] = move
        position.trail_checkers[height] = perpetual_kernel.checking_pieces(
            position.board, side, board_kernel.king_square(position.pos, side))
        return bool(perpetual_kernel.is_banned(position.trail_moves, position.trail_checkers, height,
                                               self.check_limit, self.check_min_history, self.history_offset))

    @staticmethod
    def _undo_virtual(path: list[tuple[Node, int]]) -> None:
        for node, index in path:
            node.visits[index] -= 1
            node.value_sum[index] += 1

    @staticmethod
    def _backup(path: list[tuple[Node, int]], value: float, virtual: bool) -> None:
        """``value`` is for the side to move at the leaf; each edge gets its mover's view."""
        for node, index in reversed(path):
            value = -value
            if virtual:
                node.value_sum[index] += 1 + value
            else:
                node.visits[index] += 1
                node.value_sum[index] += value


def propagate_proof(path: list[tuple[Node, int]]) -> None:
    """Carry a proven result at the end of ``path`` up the tree as far as it proves nodes (the
    root, ``path[0][0]``, gets its edges marked but never becomes a terminal)."""
    for depth in range(len(path) - 1, -1, -1):
        node, index = path[depth]
        child = node.children[index]
        if child is None or child.terminal is None or child.terminal == 0:
            return
        node.edge_proof[index] = 1 if child.terminal < 0 else -1
        if depth == 0:
            return
        if child.terminal < 0:
            node.terminal, node.proof_plies = 1.0, child.proof_plies + 1
        elif (node.edge_proof < 0).all():
            node.terminal = -1.0
            node.proof_plies = 1 + max(c.proof_plies for c in node.children if c is not None)
        else:
            return


def proven_choice(node: Node) -> Optional[int]:
    """The move to play at an expanded ``node`` whose result is proven: the quickest proven win,
    else, when every move is proven to lose, the slowest loss; None while the result is open."""
    if node.moves is None or len(node.moves) == 0:
        return None
    wins = np.flatnonzero(node.edge_proof > 0)
    if len(wins):
        return int(min(wins.tolist(), key=lambda i: _proof_plies(node, i)))
    if (node.edge_proof < 0).all():
        return int(max(range(len(node.moves)), key=lambda i: _proof_plies(node, i)))
    return None


def _proof_plies(node: Node, index: int) -> int:
    child = node.children[index]
    return child.proof_plies if child is not None else 0


def principal_variation(root: Node, index: int, limit: int = 32) -> list[int]:
    """Kernel moves: the root's move ``index`` and then the most visited replies."""
    assert root.moves is not None
    line = [int(root.moves[index])]
    node = root.children[index]
    while node is not None and node.moves is not None and len(node.moves) and node.visits.sum() > 0 and len(line) < limit:
        best = int(np.argmax(node.visits))
        line.append(int(node.moves[best]))
        node = node.children[best]
    return line
