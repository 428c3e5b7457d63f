"""Batch work on a Ray cluster (``pip install xqdesk[cluster]``): each game is one Ray task.

``--cluster ADDRESS`` names the cluster as ``ray.init`` does (``auto``, ``ray://head:10001``, or a
head's ``host:port``); ``local`` starts Ray on this machine. Engine processes start *inside* the
task on whichever worker runs it, so every engine path (and this Python with xqdesk) must exist
on every worker. A task whose worker is lost is run again (up to :data:`MAX_RETRIES` times); its
result reaches the driver once, so the output is that of a local run.
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, TypeVar

from xqdesk.engines.contests.adjudication import AdjudicationRules
from xqdesk.engines.contests.match import Contestant, MatchRunner, PlayedGame, ScheduledGame
from xqdesk.engines.errors import EngineStartError
from xqdesk.ruleset import COURSE, Ruleset
from xqdesk.time_control import TimeControl

MAX_RETRIES = 3
"""How many times a task whose worker died is started again."""

ArgT = TypeVar("ArgT")
ResultT = TypeVar("ResultT")


def import_ray() -> Any:
    """The ``ray`` module; EngineStartError saying how to install it when it is missing."""
    try:
        import ray
    except ImportError:
        raise EngineStartError("--cluster needs Ray: pip install 'xqdesk[cluster]'") from None
    return ray


def connect(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``local``: start Ray here) unless this process is
    already connected; the ``ray`` module. EngineStartError when it cannot connect."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    try:
        # Ray's own INFO and WARNING lines ("Started a local Ray instance.") stay out of the command's output.
        quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        if address == "local":
            ray.init(**quiet)
        else:
            ray.init(address=address, **quiet)
    except Exception as error:  # noqa: BLE001 - Ray raises many kinds; all mean "no cluster"
        raise EngineStartError(f"cannot connect to the Ray cluster {address!r}: {error}") from None
    return ray


def run_tasks(ray: Any, function: Callable[[ArgT], ResultT], arguments: Sequence[ArgT],
              on_result: Optional[Callable[[int, ResultT], None]] = None,
              stop: Optional[threading.Event] = None) -> list[ResultT]:
    """Run ``function(argument)`` for each argument as a Ray task (retried when its worker is
    lost); ``on_result(index, result)`` is called in this process as each one finishes. The
    results in the order of ``arguments``. A task's own exception is raised here. Setting
    ``stop`` cancels the tasks not yet finished: only the finished ones' results come back."""
    remote = ray.remote(max_retries=MAX_RETRIES, num_cpus=1)(function)
    pending = {remote.remote(argument): index for index, argument in enumerate(arguments)}
    results: dict[int, ResultT] = {}
    while pending:
        if stop is not None and stop.is_set():
            for reference in pending:
                ray.cancel(reference, force=True)
            break
        done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
        for reference in done:
            index = pending.pop(reference)
            results[index] = ray.get(reference)
            if on_result is not None:
                on_result(index, results[index])
    return [results[index] for index in sorted(results)]


class _GameJob:
    """One scheduled game with everything a worker needs to play it (picklable)."""

    def __init__(self, contestants: Sequence[Contestant], ruleset: Ruleset, move_time_limit: Optional[float],
                 time_control: Optional[TimeControl], game: ScheduledGame,
                 adjudication: AdjudicationRules = AdjudicationRules(),
                 headers: Optional[Mapping[str, str]] = None) -> None:
        self.contestants = list(contestants)
        self.adjudication = adjudication
        self.ruleset = ruleset
        self.move_time_limit = move_time_limit
        self.time_control = time_control
        self.game = game
        self.headers = dict(headers or {})


def _play_job(job: _GameJob) -> PlayedGame:
    """Runs on a worker: start the two engines there, play the game, close them."""
    with MatchRunner(job.contestants, ruleset=job.ruleset, move_time_limit=job.move_time_limit,
                     time_control=job.time_control, adjudication=job.adjudication, headers=job.headers) as runner:
        return runner.play([job.game])[0]


def _check_job(contestants: Sequence[Contestant]) -> str:
    """Runs on a worker: start every contestant once; why one cannot start ('' when all can)."""
    try:
        with MatchRunner(contestants) as runner:
            runner.check()
    except EngineStartError as error:
        return str(error)
    return ""


class RayMatchRunner:
    """A :class:`~xqdesk.engines.contests.match.MatchRunner` whose games are Ray tasks: the same
    :meth:`check`, :meth:`play` and ``on_game`` reports (in this process, as games finish)."""

    def __init__(self, contestants: Sequence[Contestant], address: str, *, ruleset: Ruleset = COURSE,
                 move_time_limit: Optional[float] = None, time_control: Optional[TimeControl] = None,
                 on_game: Optional[Callable[[PlayedGame], None]] = None,
                 adjudication: AdjudicationRules = AdjudicationRules(),
                 headers: Optional[Mapping[str, str]] = None) -> None:
        self.contestants = list(contestants)
        self.headers = dict(headers or {})
        self.adjudication = adjudication
        self.ruleset = ruleset
        self.move_time_limit = move_time_limit
        self.time_control = time_control
        self.on_game = on_game
        self._stop = threading.Event()
        self.ray = connect(address)

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stop.is_set()

    def stop(self) -> None:
        """Cancel the games not yet finished (safe from a signal handler); :meth:`play` then
        returns the finished ones."""
        self._stop.set()

    def check(self) -> None:
        """Start every contestant once on a worker (EngineStartError when one cannot start there)."""
        problem = run_tasks(self.ray, _check_job, [self.contestants])[0]
        if problem:
            raise EngineStartError(f"on the cluster: {problem}")

    def play(self, games: Iterable[ScheduledGame]) -> list[PlayedGame]:
        """Play ``games`` (a finite schedule) as Ray tasks and return them in schedule order."""
        jobs = [_GameJob(self.contestants, self.ruleset, self.move_time_limit, self.time_control, game,
                         self.adjudication, self.headers) for game in games]

        def report(_index: int, played: PlayedGame) -> None:
            if self.on_game is not None:
                self.on_game(played)

        played = run_tasks(self.ray, _play_job, jobs, report, self._stop)
        return sorted(played, key=lambda game: game.scheduled.number)

    def close(self) -> None:
        """Nothing to close here: each task closed its own engines (Ray stays up for the process)."""

    def __enter__(self) -> RayMatchRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


__all__ = ["connect", "import_ray", "run_tasks", "RayMatchRunner", "MAX_RETRIES"]
