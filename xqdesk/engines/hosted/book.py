"""An opening book read from a position index (see :mod:`xqdesk.position_index`) or from a compact
book file (see :mod:`xqdesk.opening_book`; xqdesk ships one of master games).

A move is taken from the book only when it was played in at least ``min_games`` games from the
position (or its mirror image). Among those moves one is drawn at random with weight

    games × (score + 0.5)

where ``score`` is the side to move's Laplace-smoothed average result over the games with a known result, ``(wins + draws/2 + 1) / (decided + 2)``: a move
played often and won with is preferred, one that lost every time keeps a little weight, and with no
result known every move weighs by its games alone.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Optional

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.opening_book import CompactBook, looks_like_book
from xqdesk.position_index import MoveStats, open_index

DEFAULT_MIN_GAMES = 3


@dataclass(frozen=True)
class BookMove:
    """The move a book chose, with its games, the mover's smoothed score and its share of the
    weight among the moves it was drawn from."""

    move: Move
    games: int
    score: float
    share: float

    def centipawns(self) -> int:
        """The mover's score as centipawns by the logistic that turns 400 points into 10:1 odds
        (the score an engine's book move reports: the masters' results, not a search)."""
        return round(400 * math.log10(self.score / (1 - self.score)))

    def describe(self) -> str:
        """The ``info string`` text an engine sends for it."""
        return (f"book move {self.move.iccs()}: {self.games} games, score {self.score:.2f}, "
                f"chosen with probability {self.share:.2f}")


def mover_score(stats: MoveStats, red_to_move: bool) -> float:
    """The side to move's Laplace-smoothed average result for a book move (½ with no result known)."""
    wins = stats.red_wins if red_to_move else stats.black_wins
    return (wins + 0.5 * stats.draws + 1) / (stats.decided + 2)


def book_weight(stats: MoveStats, red_to_move: bool) -> float:
    """A book move's weight: its games times (score + ½)."""
    return stats.games * (mover_score(stats, red_to_move) + 0.5)


class OpeningBook:
    """Book moves from ``source``: a :class:`~xqdesk.opening_book.CompactBook`, the path of a book
    file, or the path of a position index (BookFileError or PositionIndexError at once when the
    file is neither).

    Each look-up of an index opens it for its own duration, so a book may be made in one thread
    and asked in another (an engine host searches in a thread of its own)."""

    def __init__(self, source: str | Path | CompactBook, min_games: int = DEFAULT_MIN_GAMES,
                 rng: Optional[random.Random] = None) -> None:
        self.min_games = min_games
        self._rng = rng or random.Random()
        self._compact: Optional[CompactBook] = None
        if isinstance(source, CompactBook):
            self.path = Path(source.name)
            self._compact = source
            return
        self.path = Path(source)
        if looks_like_book(self.path):
            self._compact = CompactBook.load(self.path)
        else:
            open_index(self.path).close()

    def seed(self, seed: int) -> None:
        """Draw the same moves again: restart the random draws from ``seed``."""
        self._rng.seed(seed)

    def _played(self, board: Board) -> list[MoveStats]:
        if self._compact is not None:
            return self._compact.moves(board)
        with open_index(self.path) as index:
            return index.moves(board)

    def candidates(self, board: Board, allowed: Optional[Collection[Move]] = None) -> list[tuple[MoveStats, float]]:
        """The moves of the book for ``board`` with their weights: played in at least
        ``min_games`` games, legal here and in ``allowed`` when given."""
        found = []
        for stats in self._played(board):
            if stats.games < self.min_games or not board.is_legal(stats.move):
                continue
            if allowed is not None and stats.move not in allowed:
                continue
            found.append((stats, book_weight(stats, board.turn)))
        return found

    def choose(self, board: Board, allowed: Optional[Collection[Move]] = None) -> Optional[BookMove]:
        """A weighted random book move for ``board`` (None when the book has none)."""
        candidates = self.candidates(board, allowed)
        if not candidates:
            return None
        total = sum(weight for _stats, weight in candidates)
        stats, weight = self._rng.choices(candidates, weights=[w for _s, w in candidates])[0]
        return BookMove(stats.move, stats.games, mover_score(stats, board.turn), weight / total)
