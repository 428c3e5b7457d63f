"""The engines' compiled code, made ready before a first move, with progress a person can see.

The built-in engine, ``mcts`` and ``zero`` (and the fog agents that search with the built-in
engine) run numba kernels that are compiled for this computer on their first start after an
install and cached on disk; that takes 15–30 s of CPU (the tablebase solver's, kind ``egtb``, about
5 s). Each engine's ``warm_up()`` does it before the engine host answers ``readyok``; this module
makes that visible and done once:

- :func:`is_ready` says, without loading numba, whether an engine kind's code was compiled since
  xqdesk (or numba) last changed (the stamps of :mod:`xqdesk.engines.compile_state`).
- :func:`prepare` compiles (or loads) a kind's code by running its ``warm_up()``, reporting
  :class:`Progress`, under a lock file, so an engine host started meanwhile waits for it instead
  of compiling the same code beside it (:func:`locked_warm_up`). Both write the stamp.

It starts engines (:func:`xqdesk.engines.host.make_engine`), so it stands above the engine host,
which uses only :mod:`~xqdesk.engines.compile_state`.
- ``python -m xqdesk.engines.compiled_code KIND…`` does the same in a process of its own, one
  progress line at a time (:func:`prepare_in_child` reads them): the window runs it in the
  background at start, the command line before an engine command, with a progress bar.
"""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from xqdesk.engines.compile_state import KIND_OF_CODE, cache_folder, compile_lock, is_ready, locked_warm_up

__all__ = ["KIND_OF_CODE", "MILESTONES", "TYPICAL_CPU_SECONDS", "Progress", "cache_folder", "compile_lock",
           "engine_label", "is_ready", "kinds_needed", "locked_warm_up", "main", "parse_progress_line",
           "prepare", "prepare_in_child", "progress_line"]

TYPICAL_CPU_SECONDS = {"builtin": 20.0, "mcts": 10.0, "zero": 8.0, "egtb": 5.0}
"""About how much CPU time each kind's first compilation takes (the built-in engine: 15 s on an idle
server core, 23 s on a shared 2-core machine; the tablebase code 5 s). Progress is counted in CPU
time, so a busy computer changes the time left, not the fraction done."""

MILESTONES = {"builtin": {"quiesce": 0.5, "alphabeta": 0.9, "search_root": 0.99},
              "mcts": {"playout": 0.9}}
"""Compiled functions whose end marks how far a kind's compilation has come (by CPU time)."""

_PROGRESS_PREFIX = "progress"


@dataclass(frozen=True)
class Progress:
    """How far the preparation of ``kind``'s code has come."""

    kind: str
    fraction: float
    """0 … 1; 1 when ready."""
    elapsed: float
    """Seconds since it started."""
    step: str
    """What is being done, in words."""
    left: float = 0.0
    """An estimate of the seconds still needed (the CPU time still needed at the pace so far)."""

    def seconds_left(self) -> float:
        """The seconds still needed, as shown: at least 1 until done, 0 once done."""
        return 0.0 if self.fraction >= 1.0 else max(1.0, self.left)


def engine_label(kind: str) -> str:
    """``'the built-in engine'``, ``'the mcts engine'`` …"""
    return {"builtin": "the built-in engine", "egtb": "the tablebase solver"}.get(kind, f"the {kind} engine")


def kinds_needed(values: Iterable[Any], named: Mapping[str, Sequence[str]] = MappingProxyType({})) -> list[str]:
    """The code kinds (in :data:`KIND_OF_CODE`) that the engine specs among ``values`` run:
    strings like ``builtin`` or ``mcts:Playouts=100``, or lists of them; anything else is ignored.
    ``named`` maps engine names (the registry's) to their command lines: a name whose command runs
    xqdesk's engine host (:func:`xqdesk.engines.spec.host_command`) needs that host kind's code."""
    needed: list[str] = []
    for value in values:
        for text in (value if isinstance(value, (list, tuple)) else [value]):
            if not isinstance(text, str):
                continue
            engine_kind = text.partition(":")[0]
            if text in named:
                from xqdesk.engines.spec import host_kind, spec_kind

                if spec_kind(text) is None:  # a name, not a SPEC (as the registry's engine_spec reads it)
                    engine_kind = host_kind(named[text]) or ""
            kind = KIND_OF_CODE.get(engine_kind)
            if kind is not None and kind not in needed:
                needed.append(kind)
    return needed


class _ProgressTracker:
    """Reports :class:`Progress` for ``kind`` every ``TICK`` seconds and at each milestone
    (numba's compile events). Compiling is this process's CPU work, so the fraction done is the
    CPU time used over the CPU time expected (:data:`TYPICAL_CPU_SECONDS`, corrected at each
    milestone and raised while the next one is not reached), kept below the next milestone; the
    time left is the CPU time left at the share of a core the process has been getting."""

    TICK = 1.0

    def __init__(self, kind: str, report: Callable[[Progress], None]) -> None:
        self.kind = kind
        self.report = report
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self.expected_cpu = TYPICAL_CPU_SECONDS.get(kind, 25.0)
        self.reached = 0.0
        self._done = threading.Event()
        self._lock = threading.Lock()

    def on_compiled(self, name: str) -> None:
        milestone = MILESTONES.get(self.kind, {}).get(name)
        with self._lock:
            if milestone is not None and milestone > self.reached:
                self.reached = milestone
                self.expected_cpu = max(self.expected_cpu * 0.2, self._cpu() / milestone)
                self._send()

    def _cpu(self) -> float:
        return max(1e-3, time.process_time() - self.cpu_started)

    def _send(self, fraction: Optional[float] = None) -> None:
        elapsed = max(1e-3, time.monotonic() - self.started)
        cpu = self._cpu()
        if fraction is None:
            following = [value for value in MILESTONES.get(self.kind, {}).values() if value > self.reached]
            upcoming = min(following) if following else 1.0
            # the next milestone is not reached yet: the whole takes at least the CPU time so far over
            # its share (else the time left ran down to 1 s while stuck below it, then jumped back)
            self.expected_cpu = max(self.expected_cpu, cpu / upcoming)
            fraction = max(self.reached, min(upcoming - 0.01, cpu / self.expected_cpu))
        share = min(1.0, cpu / elapsed)  # of one core
        left = max(0.0, self.expected_cpu - cpu) / max(share, 0.05)
        self.report(Progress(self.kind, fraction, elapsed, _step_text(self.kind), left))

    def send(self, fraction: float) -> None:
        with self._lock:
            self._send(fraction)

    def _tick(self) -> None:
        while not self._done.wait(self.TICK):
            with self._lock:
                self._send()

    @contextmanager
    def ticking(self) -> Iterator[None]:
        thread = threading.Thread(target=self._tick, name="compile-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            self._done.set()
            thread.join()


def _step_text(kind: str) -> str:
    return f"compiling {engine_label(kind)} for this computer (first start only)"


@contextmanager
def _listening(tracker: _ProgressTracker) -> Iterator[None]:
    """The names of the functions numba compiles (its ``numba.core.event`` API) passed to
    ``tracker`` meanwhile."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            pass

        def on_end(self, ev: Any) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            if dispatcher is not None:
                tracker.on_compiled(dispatcher.py_func.__name__)

    with event.install_listener("numba:compile", Listener()):
        yield


def prepare(kind: str, report: Callable[[Progress], None] = lambda progress: None) -> None:
    """Compile (or load) ``kind``'s code, reporting progress; nothing to do when it is ready.
    EngineStartError (from the engine) when it cannot be made."""
    from xqdesk.engines.host import make_engine

    tracker = _ProgressTracker(kind, report)
    tracker.send(0.0)
    if not is_ready(kind):
        warm_up: Callable[[], None]
        if kind == "egtb":
            from xqdesk.egtb.generate import warm_up as solver_warm_up
            warm_up = solver_warm_up
        else:
            warm_up = make_engine(kind).warm_up  # type: ignore[attr-defined]
        with _listening(tracker), tracker.ticking():
            locked_warm_up(kind, warm_up)
    tracker.send(1.0)


def prepare_in_child(kinds: Sequence[str], report: Callable[[Progress], None]) -> Optional[str]:
    """Run ``python -m xqdesk.engines.compiled_code KIND…`` and pass its progress to ``report``;
    None when every kind is ready, else why not (the child's last words)."""
    from xqdesk.engines.spec import host_environment

    child = subprocess.Popen([sys.executable, "-m", __name__, *kinds], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=host_environment())
    last = ""
    if child.stdout is not None:
        for line in child.stdout:
            progress = parse_progress_line(line)
            if progress is not None:
                report(progress)
            elif line.strip():
                last = line.strip()
    code = child.wait()
    return None if code == 0 else (last or f"the preparation ended with exit code {code}")


def progress_line(progress: Progress) -> str:
    """The line the child writes for ``progress``."""
    return (f"{_PROGRESS_PREFIX} {progress.kind} {progress.fraction:.3f} {progress.elapsed:.1f} "
            f"{progress.left:.1f} {progress.step}")


def parse_progress_line(line: str) -> Optional[Progress]:
    """A :func:`progress_line` read back; None for any other line."""
    words = line.strip().split(" ", 5)
    if len(words) != 6 or words[0] != _PROGRESS_PREFIX or words[1] not in TYPICAL_CPU_SECONDS:
        return None
    try:
        return Progress(words[1], float(words[2]), float(words[3]), words[5], float(words[4]))
    except ValueError:
        return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m xqdesk.engines.compiled_code [KIND…]`` (default ``builtin``): prepare each kind,
    printing progress lines; exit 1 with the reason when one cannot be prepared."""
    kinds = list(argv if argv is not None else sys.argv[1:]) or ["builtin"]
    unknown = [kind for kind in kinds if kind not in TYPICAL_CPU_SECONDS]
    if unknown:
        print(f"no compiled code for {', '.join(unknown)} (kinds: {', '.join(TYPICAL_CPU_SECONDS)})", file=sys.stderr)
        return 2
    for kind in kinds:
        try:
            prepare(kind, lambda progress: print(progress_line(progress), flush=True))
        except Exception as error:  # noqa: BLE001 - any failure is reported, the engine says it again later
            print(f"cannot prepare {engine_label(kind)}: {type(error).__name__}: {error}", flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
