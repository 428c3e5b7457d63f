"""The teacher: an engine whose fixed-depth MultiPV search labels a position.

Any engine spec can teach (:func:`default_teacher` prefers Fairy-Stockfish and falls back to the
built-in engine). One search gives a :class:`Label`: the score of the position and the first move
and score of each of the ``multipv`` best lines, all from the side to move's view in centipawns, a
mate in ``n`` plies being ``±(MATE_SCORE − n)``.
"""
from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.spec import parse_spec
from xqdesk.engines.training.shards import MATE_SCORE
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.move import Move
from xqdesk.score import Score

FAIRY_STOCKFISH_PLACES = ("fairy-stockfish", "/usr/games/fairy-stockfish")
NO_TEACHER = "none"
"""The teacher spec of a set labelled by its records alone: the move played and the game's result."""
"""Where :func:`default_teacher` looks for Fairy-Stockfish (a command on PATH, then Debian's place)."""


def default_teacher() -> str:
    """``uci:PATH`` of Fairy-Stockfish when it is installed, else ``builtin``."""
    for place in FAIRY_STOCKFISH_PLACES:
        found = shutil.which(place)
        if found:
            return f"uci:{Path(found).resolve()}"
    return "builtin"


@dataclass(frozen=True)
class Label:
    """What the teacher says of one position (side to move's view, centipawns)."""

    score: int
    moves: tuple[Move, ...]
    """The first move of each MultiPV line, best first."""
    move_scores: tuple[int, ...]


def centipawns(score: Score) -> int:
    """A score as centipawns, a mate in ``n`` moves as ``±(MATE_SCORE − plies)``."""
    mate = score.mate()
    if mate is None:
        return max(-MATE_SCORE + 1000, min(MATE_SCORE - 1000, score.score() or 0))
    if mate > 0:
        return MATE_SCORE - (2 * mate - 1)
    if mate < 0:
        return -(MATE_SCORE + 2 * mate)
    return MATE_SCORE if (score.score(mate_score=MATE_SCORE) or 0) > 0 else -MATE_SCORE  # mate given / mated now


def label_from_infos(infos: Sequence[SearchInfo], turn: bool, best: Optional[Move]) -> Optional[Label]:
    """The label of a finished search from its ``info`` reports: for each MultiPV line the last
    report of the deepest depth reached; None when no report had a score and a line."""
    deepest: dict[int, SearchInfo] = {}
    for info in infos:
        if info.score is None or not info.pv or info.depth is None:
            continue
        known = deepest.get(info.multipv)
        if known is None or (known.depth or 0) <= info.depth:
            deepest[info.multipv] = info
    if not deepest:
        return None
    top_depth = max(info.depth or 0 for info in deepest.values())
    lines = [deepest[k] for k in sorted(deepest) if (deepest[k].depth or 0) >= top_depth - 1]
    moves = [line.pv[0] for line in lines]
    scores = [centipawns(line.score.pov(turn)) for line in lines if line.score is not None]
    if best is not None and best in moves and moves[0] != best:
        at = moves.index(best)
        moves.insert(0, moves.pop(at))
        scores.insert(0, scores.pop(at))
    return Label(scores[0], tuple(moves), tuple(scores))


class Teacher:
    """One teaching engine process (a context manager). Not thread-safe."""

    searches = True
    """Whether :meth:`label` searches (a :class:`NoTeacher` does not)."""

    def __init__(self, spec_text: str, depth: int, multipv: int, memory_limit_mb: int = 2048) -> None:
        spec = parse_spec(spec_text)
        self.spec = dataclasses.replace(spec, options={**spec.options, "MultiPV": str(multipv)})
        self.depth = depth
        self.multipv = multipv
        self.memory_limit_mb = memory_limit_mb
        self._engine: Optional[UciEngine] = None

    def __enter__(self) -> Teacher:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the engine (EngineStartError says why it cannot)."""
        self._engine = self.spec.open(memory_limit_mb=self.memory_limit_mb)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.quit()
            self._engine = None

    def kill(self) -> None:
        """End the engine at once; safe from another thread while a search runs (the search then
        fails with EngineError)."""
        engine = self._engine
        if engine is not None:
            engine.kill()

    def new_game(self) -> None:
        if self._engine is not None:
            self._engine.new_game()

    def label(self, board: Board, searchmoves: Optional[Sequence[Move]] = None) -> Optional[Label]:
        """Search ``board`` (its whole game: start position and moves) to the fixed depth; None
        when the engine reported no scored line."""
        if self._engine is None:
            self.start()
        assert self._engine is not None
        limits = SearchLimits(depth=self.depth, searchmoves=tuple(searchmoves) if searchmoves else None)
        result = self._engine.search(board.start_fen, board.move_stack, limits)
        return label_from_infos(result.infos, board.turn, result.move)


class NoTeacher:
    """The teacher of a set made from records alone (:data:`NO_TEACHER`): no engine, no search;
    every label is empty (score 0, no lines), so the positions keep only the move played and the
    game's result. Labelling costs nothing."""

    searches = False
    depth = 0
    multipv = 1

    def __enter__(self) -> NoTeacher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass

    def kill(self) -> None:
        pass

    def new_game(self) -> None:
        pass

    def label(self, board: Board, searchmoves: Optional[Sequence[Move]] = None) -> Optional[Label]:
        return EMPTY_LABEL


EMPTY_LABEL = Label(0, (), ())


def open_teacher(spec_text: str, depth: int, multipv: int) -> Teacher | NoTeacher:
    """The teacher of a spec (not started): :class:`NoTeacher` for :data:`NO_TEACHER`."""
    if spec_text == NO_TEACHER:
        return NoTeacher()
    return Teacher(spec_text, depth, multipv)


__all__ = ["EMPTY_LABEL", "FAIRY_STOCKFISH_PLACES", "Label", "NO_TEACHER", "NoTeacher", "Teacher", "centipawns",
           "default_teacher", "label_from_infos", "open_teacher"]
