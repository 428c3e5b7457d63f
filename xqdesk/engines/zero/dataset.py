"""The result of a recorded game (no torch needed): its ``Result`` header when present, else the
end position judged — checkmate or no move as the rules say, else a depth-4 search of the built-in
engine on the final position, where a score of at least :data:`DECISIVE_CP` centipawns for one side
counts as that side's win (master games mostly end in resignation) and anything smaller as a draw.
"""
from __future__ import annotations

import threading
from typing import Optional

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.game import Game
from xqdesk.pieces import RED

DECISIVE_CP = 250
HEADER_RESULTS = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}
"""Red's result by the ``Result`` header values that give one (``*`` and others do not)."""
JUDGE_DEPTH = 4


class _Judge:
    """Scores an end position with a short search of the built-in engine."""

    def __init__(self) -> None:
        from xqdesk.engines.builtin import BuiltinEngine
        self.engine = BuiltinEngine()

    def red_result(self, board: Board) -> float:
        scores: list[SearchInfo] = []
        self.engine.search(board, SearchLimits(depth=JUDGE_DEPTH), threading.Event(), scores.append)
        score = next((info.score for info in reversed(scores) if info.score is not None), None)
        if score is None:
            return 0.0
        red = score.red()
        mate = red.mate()
        if mate is not None:
            return 1.0 if mate > 0 else -1.0
        cp = red.score() or 0
        return 1.0 if cp >= DECISIVE_CP else -1.0 if cp <= -DECISIVE_CP else 0.0


def red_result(game: Game, judge: Optional[_Judge] = None) -> float:
    """1 (Red won), -1 (Black won) or 0, from the header or the end position (module docstring)."""
    header = game.headers.get("Result", "").strip()
    if header in HEADER_RESULTS:
        return HEADER_RESULTS[header]
    board = game.end_board()
    outcome = game.outcome or board.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == RED else -1.0)
    if not board.legal_moves:
        return -1.0 if board.turn == RED else 1.0
    return (judge or _Judge()).red_result(board)
