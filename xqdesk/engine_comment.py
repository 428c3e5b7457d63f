"""The comment a match writes after each engine move, as cutechess-cli writes it: the engine's
score from the **mover's** view, the depth it reached and the time it took, ``{+0.35/12 0.98s}``.

- the score is in pawns with its sign (``+0.35``, ``-1.20``), or a mate ``+M5`` (the mover mates
  in 5 moves) / ``-M3`` (it is mated in 3); a move whose engine gave no score has only its time
  (``{0.98s}``);
- ``/D`` is the depth (left out when the engine reported none);
- a move of the opening the game started from is ``{book}``.

:func:`parse_engine_comment` reads such a comment back (anywhere at the start of a comment, so a
remark written after it is kept apart); :func:`engine_scores` gives a game's scores from Red's
view ply by ply, for a graph.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from xqdesk.game import Game
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.score import MATE_GIVEN, Cp, Mate, PovScore, Score

BOOK_COMMENT = "book"
"""The comment of a move played from the opening, not by an engine."""

_COMMENT = re.compile(
    r"^\s*(?:(?P<score>[+-]?(?:M\d+|\d+(?:\.\d+)?))(?:/(?P<depth>\d+))?\s+)?(?P<seconds>\d+(?:\.\d+)?)s(?=\s|$)")


@dataclass(frozen=True)
class EngineComment:
    """What an engine's move comment says: ``score`` from the mover's view (None: not given),
    ``depth`` (None: not given) and ``seconds`` the move took."""

    score: Optional[Score]
    depth: Optional[int]
    seconds: float


def format_score(score: Score) -> str:
    """``+0.35``, ``-1.20``, ``+M5``, ``-M3`` (a score from the mover's view; a mate given is ``+M0``)."""
    mate = score.mate()
    if score == MATE_GIVEN:
        return "+M0"
    if mate is not None:
        return f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    return f"{(score.score() or 0) / 100:+.2f}"


def format_engine_comment(score: Optional[Score], depth: Optional[int], seconds: float) -> str:
    """The comment of one engine move (see the module docstring); ``score`` from the mover's view."""
    time_text = f"{round(max(seconds, 0.0), 3):g}s"
    if score is None:
        return time_text
    return format_score(score) + (f"/{depth}" if depth is not None else "") + " " + time_text


def parse_score(text: str) -> Score:
    """The score of ``+0.35``, ``-1.20``, ``+M5``, ``-M3`` (ValueError for anything else)."""
    body = text.lstrip("+-")
    negative = text.startswith("-")
    if body.startswith("M"):
        moves = int(body[1:])
        if moves == 0:
            return Mate(0) if negative else MATE_GIVEN
        return Mate(-moves if negative else moves)
    pawns = float(body)
    return Cp(round(-pawns * 100 if negative else pawns * 100))


def parse_engine_comment(comment: str) -> Optional[EngineComment]:
    """The score, depth and time at the start of ``comment``, or None when it does not start with
    an engine comment (a ``book`` move, a person's words …)."""
    found = _COMMENT.match(comment)
    if found is None:
        return None
    text = found.group("score")
    depth = found.group("depth")
    return EngineComment(parse_score(text) if text is not None else None, int(depth) if depth is not None else None,
                         float(found.group("seconds")))


def engine_scores(game: Game) -> dict[int, PovScore]:
    """The scores a match's comments give along ``game``'s main line: ``{ply: score}``, ``ply``
    counting the moves played from the start position (1 after the first move), each score as
    the mover's engine gave it (a :class:`PovScore` knows it; ``.red()`` for a graph)."""
    scores: dict[int, PovScore] = {}
    mover: Color = game.start_board().turn
    for ply, node in enumerate(game.mainline(), start=1):
        found = parse_engine_comment(node.comment)
        if found is not None and found.score is not None:
            scores[ply] = PovScore(found.score, mover)
        mover = BLACK if mover == RED else RED
    return scores


__all__ = ["BOOK_COMMENT", "EngineComment", "engine_scores", "format_engine_comment", "format_score",
           "parse_engine_comment", "parse_score"]
