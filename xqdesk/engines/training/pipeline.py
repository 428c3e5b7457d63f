"""``xqdesk train data``: make a data set of labelled positions, with parallel teachers or on Ray.

The run reads the record files once, cuts the master games and the teacher games into tasks
(:mod:`xqdesk.engines.training.tasks`), skips the tasks the folder's manifest lists as done, and
writes each finished task's positions through one :class:`~xqdesk.engines.training.shards.ShardWriter`
(deduplicated by position key). Interrupting it loses at most the tasks in flight: running the
same command again resumes.
"""
from __future__ import annotations

import concurrent.futures
import os
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from xqdesk.engines.errors import EngineError
from xqdesk.engines.training.shards import DataSetError, ShardWriter
from xqdesk.engines.training.tasks import (
    TEACHER_GAME_BASE,
    LabelSettings,
    RecordedGame,
    RecordTask,
    Task,
    TaskResult,
    TeacherGamesTask,
    is_held_out,
    run_task,
)
from xqdesk.engines.training.teacher import NO_TEACHER, NoTeacher, Teacher, open_teacher
from xqdesk.formats import open_games
from xqdesk.opening_book import read_xz_pgn
from xqdesk.position_index import game_result, record_paths


@dataclass(frozen=True)
class DataPlan:
    """What one ``train data`` run makes."""

    settings: LabelSettings
    records: tuple[str, ...] = ()
    teacher_games: int = 0
    games_per_task: int = 10
    teacher_games_per_task: int = 4
    holdout: int = 10
    seed: int = 0
    shard_size: int = 50_000
    teacher_options: dict[str, int | float] = field(default_factory=dict)
    """Overrides of :class:`TeacherGamesTask`'s fields (``random_plies``, ``max_plies`` …)."""

    def manifest_settings(self) -> dict[str, object]:
        """What must agree for two runs to add to the same folder."""
        return {**self.settings.as_dict(), "holdout": self.holdout, "seed": self.seed}


def recorded_games(paths: Sequence[str], holdout: int, report: Callable[[str], None]) -> Iterator[tuple[str, RecordedGame]]:
    """Every readable main line of the record files (folders: every record file below them; a
    ``.xz`` file is xz-compressed UTF-8 PGN, streamed), numbered from 0 in file order; damaged
    games are reported and skipped."""
    number = 0
    for path in (str(found) for given in paths for found in record_paths(Path(given))):
        if path.lower().endswith(".xz"):  # a collection such as the CCPD master games: xz-compressed PGN
            problems: list[str] = []
            for game in read_xz_pgn(Path(path), problems, keep_damaged=False):
                for problem in problems:
                    report(f"warning: {problem}")
                problems.clear()
                moves = tuple(move.iccs() for move in game.mainline_moves())
                if moves:
                    yield path, RecordedGame(number, game.start_fen, moves, game_result(game),
                                             is_held_out(moves, holdout))
                    number += 1
            for problem in problems:
                report(f"warning: {problem}")
            continue
        stream = open_games(path)  # a game at a time: a collection of any size in bounded memory
        reported = 0
        for read in stream:
            for error in stream.errors[reported:]:
                report(f"warning: {error}")
            reported = len(stream.errors)
            moves = tuple(move.iccs() for move in read.game.mainline_moves())
            if read.damaged or not moves:
                continue
            yield path, RecordedGame(number, read.game.start_fen, moves, game_result(read.game),
                                     is_held_out(moves, holdout))
            number += 1
        for error in stream.errors[reported:]:
            report(f"warning: {error}")


def plan_tasks(plan: DataPlan, report: Callable[[str], None]) -> list[Task]:
    """Every task of the plan, master games first."""
    tasks: list[Task] = []
    batch: list[RecordedGame] = []
    source = ""
    for path, game in recorded_games(plan.records, plan.holdout, report):
        if batch and (path != source or len(batch) >= plan.games_per_task):
            tasks.append(RecordTask(tuple(batch), Path(source).name))
            batch = []
        source = path
        batch.append(game)
    if batch:
        tasks.append(RecordTask(tuple(batch), Path(source).name))
    for first in range(0, plan.teacher_games, plan.teacher_games_per_task):
        count = min(plan.teacher_games_per_task, plan.teacher_games - first)
        tasks.append(TeacherGamesTask(TEACHER_GAME_BASE + first, count, plan.seed, **plan.teacher_options))  # type: ignore[arg-type]
    return tasks


def run_standalone(job: tuple[Task, LabelSettings]) -> TaskResult:
    """Do one task with a teacher of its own (a Ray task: engines start on the worker)."""
    task, settings = job
    with open_teacher(settings.teacher, settings.depth, settings.multipv) as teacher:
        return run_task(task, teacher)


@dataclass
class RunSummary:
    tasks_done: int
    tasks_skipped: int
    positions_added: int
    positions: int
    holdout_positions: int


def make_data(plan: DataPlan, out: str | Path, jobs: int = 1, cluster: Optional[str] = None,
              report: Callable[[str], None] = print,
              on_progress: Optional[Callable[[int, int, int], None]] = None) -> RunSummary:
    """Run the plan into folder ``out`` (resuming it); ``on_progress(done, total, positions)``
    after each task. DataSetError for a folder made with other settings."""
    if plan.settings.teacher == NO_TEACHER and plan.teacher_games:
        raise DataSetError("teacher games need a teacher: --teacher-games with --teacher none")
    # A set labelled by a teacher keeps a position once (its label is the same each time); a set
    # of records alone keeps every occurrence, so a common position's moves keep the masters'
    # frequencies (deduplicated, the opening positions would each keep one game's move).
    writer = ShardWriter(out, plan.manifest_settings(), plan.shard_size,
                         deduplicate=plan.settings.teacher != NO_TEACHER)
    try:
        return _make_data(plan, writer, jobs, cluster, report, on_progress)
    finally:
        writer.close()


def _make_data(plan: DataPlan, writer: ShardWriter, jobs: int, cluster: Optional[str],
               report: Callable[[str], None], on_progress: Optional[Callable[[int, int, int], None]]) -> RunSummary:
    tasks = plan_tasks(plan, report)
    todo = [task for task in tasks if task.name not in writer.done_tasks]
    skipped = len(tasks) - len(todo)
    if skipped:
        report(f"resuming: {skipped} of {len(tasks)} tasks were done before")
    added = 0

    def finished(result: TaskResult) -> None:
        nonlocal added
        added += writer.add(result.name, result.train, result.holdout, result.games)
        if on_progress is not None:
            on_progress(len(writer.done_tasks) - skipped, len(todo), added)

    if cluster is not None:
        from xqdesk.engines.contests.cluster import connect, run_tasks
        ray = connect(cluster)
        run_tasks(ray, run_standalone, [(task, plan.settings) for task in todo],
                  lambda _index, result: finished(result))
    elif todo and plan.settings.teacher == NO_TEACHER:
        _run_here(todo, finished)
    elif todo:
        _run_local(todo, plan.settings, jobs, finished)
    manifest = writer.manifest
    return RunSummary(len(todo), skipped, added, manifest["positions"], manifest["holdout_positions"])


def _run_here(tasks: Sequence[Task], finished: Callable[[TaskResult], None]) -> None:
    """Tasks without a teacher, one after another on this thread (they only replay moves: more
    threads would wait for each other); SIGINT or SIGTERM stops the run between two tasks, as in
    :func:`_run_local`."""
    stop = threading.Event()
    handlers = _catch_interrupts(stop)
    try:
        with NoTeacher() as teacher:
            for task in tasks:
                if stop.is_set():
                    break
                finished(run_task(task, teacher))
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    if stop.is_set():
        raise KeyboardInterrupt


def _run_local(tasks: Sequence[Task], settings: LabelSettings, jobs: int,
               finished: Callable[[TaskResult], None]) -> None:
    """Tasks on ``jobs`` threads, each driving a teacher process of its own (the searching happens
    in those processes; a thread only waits for them and replays moves); results handed to
    ``finished`` on this thread as they come. A task whose teacher fails is tried once more with a
    new teacher. SIGINT or SIGTERM (seen by the main thread) stops the run between two results:
    the teachers are killed, the tasks in flight abandoned, and KeyboardInterrupt raised, so
    nothing already handed to ``finished`` is cut in half."""
    stop = threading.Event()
    closing = threading.Event()
    teachers: list[Teacher] = []
    lock = threading.Lock()
    local = threading.local()

    def fresh_teacher() -> Teacher:
        teacher = Teacher(settings.teacher, settings.depth, settings.multipv)
        with lock:
            if closing.is_set():
                raise EngineError("the run is stopping")
            teachers.append(teacher)
        teacher.start()
        return teacher

    def run(task: Task) -> TaskResult:
        for attempt in (1, 2):
            teacher = getattr(local, "teacher", None) or fresh_teacher()
            local.teacher = teacher
            try:
                return run_task(task, teacher)
            except EngineError:
                teacher.kill()
                local.teacher = None
                if attempt == 2 or closing.is_set():
                    raise
        raise AssertionError("unreachable")

    handlers = _catch_interrupts(stop)
    pool = concurrent.futures.ThreadPoolExecutor(max(1, min(jobs, len(tasks))), thread_name_prefix="teacher")
    pending = {pool.submit(run, task) for task in tasks}
    try:
        while pending and not stop.is_set():
            done, pending = concurrent.futures.wait(pending, timeout=0.5,
                                                    return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                finished(future.result())
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        with lock:
            closing.set()
            for teacher in teachers:
                teacher.kill()
        pool.shutdown(wait=True, cancel_futures=True)
    if stop.is_set():
        raise KeyboardInterrupt


def _catch_interrupts(stop: threading.Event) -> dict[int, Any]:
    """Make SIGINT and SIGTERM set ``stop`` (main thread only); the handlers they replaced."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, lambda *_: stop.set()) for signum in (signal.SIGINT, signal.SIGTERM)}


def default_jobs() -> int:
    """One worker per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


__all__ = ["DataPlan", "RunSummary", "default_jobs", "make_data", "plan_tasks", "recorded_games", "run_standalone"]
