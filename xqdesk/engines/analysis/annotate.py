"""Annotating many games: which games of which files go where, what is done already (so a run can
resume), reviewing them locally (``concurrency`` engine processes) or as Ray tasks, and a summary
per player.

A game travels as PGN text (a review job is :class:`AnnotateJob`), so a Ray worker needs nothing
but the text, the engine spec and the limits. Annotated games are appended to their output file
one at a time as they finish, each in a single write, so an interrupted run loses at most the games
in progress; on the next run a cut-off last game is dropped and the games already there are skipped.
"""
from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from xqdesk.engines.analysis.reviewer import GameReviewer
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.errors import XqdeskError
from xqdesk.formats import READ_EXTENSIONS, open_games, read_games
from xqdesk.formats.pgn import format_pgn, parse_pgn, write_pgn
from xqdesk.game import Game
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.review import GameReview, MoveClass, is_reviewed, read_review, write_review

KEY_TAGS = ("Event", "Site", "Date", "Round", "Red", "Black")
"""The tags that, with the start position and the main line, tell a game from another."""


def game_key(game: Game) -> tuple[str, ...]:
    """What identifies a game between its input and its annotated output."""
    return (tuple(game.headers.get(tag, "") for tag in KEY_TAGS)
            + (game.start_fen, " ".join(move.iccs() for move in game.mainline_moves())))


@dataclass(frozen=True)
class AnnotateJob:
    """One game to review (as PGN text), where it goes, and how to review it; ``index`` is its place
    among the jobs of a run (outputs are written in that order)."""

    index: int
    out: Path
    source: str
    """``file.pgn game 3``: where the game came from, for messages."""
    pgn: str
    spec: EngineSpec
    limits: SearchLimits
    sides: tuple[Color, ...] = (RED, BLACK)


@dataclass(frozen=True)
class AnnotateResult:
    """An annotated game as PGN text, or why it could not be annotated."""

    job: AnnotateJob
    pgn: str = ""
    error: str = ""


@dataclass
class AnnotatePlan:
    """The jobs still to do, the games already annotated per output file, and reading problems."""

    jobs: list[AnnotateJob] = field(default_factory=list)
    done: dict[Path, list[Game]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return sum(len(games) for games in self.done.values())


def input_files(source: Path, target: Path) -> list[tuple[Path, Path]]:
    """(input file, output PGN) pairs: a file goes to ``target``; the record files of a folder (at
    any depth) to the same relative paths under ``target``, with a ``.pgn`` suffix."""
    if source.is_dir():
        pairs = []
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix.lower() in READ_EXTENSIONS:
                pairs.append((path, (target / path.relative_to(source)).with_suffix(".pgn")))
        return pairs
    return [(source, target)]


def plan(source: Path, target: Path, spec: EngineSpec, limits: SearchLimits,
         sides: Sequence[Color] = (RED, BLACK)) -> AnnotatePlan:
    """What to annotate: every game of ``source`` not yet annotated in its output. An output file
    keeps only the annotated games of its input (it is rewritten so, dropping a cut-off tail)."""
    result = AnnotatePlan()
    if not source.exists():
        result.problems.append(f"{source}: no such file or folder")
        return result
    for path, out in input_files(source, target):
        stream = open_games(path)  # a game at a time: only each game's key and text are kept
        entries = [(read.number, game_key(read.game), format_pgn(read.game)) for read in stream]
        result.problems.extend(str(error) for error in stream.errors)
        wanted = Counter(key for _number, key, _text in entries)
        done = _annotated_games(out, wanted)
        result.done[out] = done
        remaining = Counter(game_key(game) for game in done)
        for number, key, text in entries:
            if remaining[key] > 0:
                remaining[key] -= 1
                continue
            result.jobs.append(AnnotateJob(len(result.jobs), out, f"{path.name} game {number}", text,
                                           spec, limits, tuple(sides)))
    return result


def _annotated_games(out: Path, wanted: Counter[tuple[str, ...]]) -> list[Game]:
    """The reviewed games of the input (``wanted``: their keys) already in ``out``; the file is
    rewritten with only them (a game cut off while being written has a shorter main line, so it
    matches no input game and goes)."""
    if not out.is_file():
        return []
    games = []
    for game in read_games(out).games:
        key = game_key(game)
        if wanted[key] > 0 and is_reviewed(game) and read_review(game) is not None:
            wanted[key] -= 1
            games.append(game)
    temporary = out.with_name(out.name + ".part")
    write_pgn(temporary, games)
    os.replace(temporary, out)
    return games


def annotate_job(job: AnnotateJob, reviewer: Optional[GameReviewer] = None) -> AnnotateResult:
    """Review one game (with ``reviewer``, else a fresh engine process) and return it annotated.
    Never raises for a bad game or engine: the result says what went wrong."""
    games = parse_pgn(job.pgn, job.source).games
    if len(games) != 1:
        return AnnotateResult(job, error=f"{job.source}: cannot read the game back")
    game = games[0]
    own = reviewer is None
    active = reviewer or GameReviewer(job.spec, job.limits)
    try:
        review = active.review(game, job.sides)
        write_review(game, review, active.annotator)
        return AnnotateResult(job, pgn=format_pgn(game))
    except XqdeskError as error:  # engine failures and bad moves
        return AnnotateResult(job, error=f"{job.source}: {error}")
    finally:
        if own:
            active.close()


class OutputFiles:
    """Appends annotated games to their output files in job order (``AnnotateJob.index``) whatever
    order they finish in (a game waits for those before it), one write per game; thread-safe."""

    def __init__(self) -> None:
        self._waiting: dict[int, AnnotateResult] = {}
        self._next = 0
        self._lock = threading.Lock()

    def append(self, result: AnnotateResult) -> None:
        with self._lock:
            self._waiting[result.job.index] = result
            while self._next in self._waiting:
                self._write(self._waiting.pop(self._next))
                self._next += 1

    @staticmethod
    def _write(result: AnnotateResult) -> None:
        if not result.pgn:
            return
        result.job.out.parent.mkdir(parents=True, exist_ok=True)
        with open(result.job.out, "a", encoding="utf-8") as stream:
            stream.write(result.pgn)
            stream.flush()
            os.fsync(stream.fileno())


def annotate_local(jobs: Sequence[AnnotateJob], concurrency: int,
                   on_result: Callable[[AnnotateResult], None]) -> None:
    """Review ``jobs`` on ``concurrency`` threads, each with its own engine process;
    ``on_result`` is called (one at a time) as each game finishes."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency!r}")
    local = threading.local()
    reviewers: list[GameReviewer] = []
    report_lock = threading.Lock()

    def work(job: AnnotateJob) -> None:
        reviewer = getattr(local, "reviewer", None)
        if reviewer is None:
            reviewer = local.reviewer = GameReviewer(job.spec, job.limits)
            with report_lock:
                reviewers.append(reviewer)
        result = annotate_job(job, reviewer)
        with report_lock:
            on_result(result)

    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="annotate")
    try:
        for future in [pool.submit(work, job) for job in jobs]:
            future.result()
    except BaseException:  # an interrupt: drop the games not started, stop those in progress
        with report_lock:
            for reviewer in reviewers:
                reviewer.cancel()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        for reviewer in reviewers:
            reviewer.close()


def annotate_on_cluster(jobs: Sequence[AnnotateJob], address: str,
                        on_result: Callable[[AnnotateResult], None]) -> None:
    """Review ``jobs`` as Ray tasks (see :mod:`xqdesk.engines.contests.cluster`); ``on_result`` is called
    here as each finishes."""
    from xqdesk.engines.contests.cluster import connect, run_tasks

    ray = connect(address)
    run_tasks(ray, annotate_job, list(jobs), lambda _index, result: on_result(result))


@dataclass
class PlayerSummary:
    """One player's reviewed games: how many, their accuracies, and errors of each kind."""

    games: int = 0
    accuracies: list[float] = field(default_factory=list)
    counts: Counter[MoveClass] = field(default_factory=Counter)

    @property
    def accuracy(self) -> Optional[float]:
        return sum(self.accuracies) / len(self.accuracies) if self.accuracies else None


def summarise(games: Sequence[Game]) -> dict[str, PlayerSummary]:
    """Per player (the Red/Black tags): games, accuracy per game, class counts of reviewed games."""
    table: dict[str, PlayerSummary] = {}
    for game in games:
        review: Optional[GameReview] = read_review(game)
        if review is None:
            continue
        for color, tag in ((RED, "Red"), (BLACK, "Black")):
            summary = review.summary(color)
            if summary.accuracy is None:
                continue
            player = table.setdefault(game.headers.get(tag) or "?", PlayerSummary())
            player.games += 1
            player.accuracies.append(summary.accuracy)
            player.counts.update(summary.counts)
    return table


__all__ = ["AnnotateJob", "AnnotateResult", "AnnotatePlan", "plan", "annotate_job", "annotate_local",
           "annotate_on_cluster", "OutputFiles", "summarise", "PlayerSummary", "game_key", "input_files"]
