"""A child process that talks in lines over stdin/stdout, and that can always be killed.

Every engine runs in one of these. Guarantees: the child is the leader of its own process group
(so anything it forks dies with it), its address space is capped (``RLIMIT_AS``) when a memory
limit is given, and it is killed when the owner kills it, when the object is collected, and at
interpreter exit. Reading never blocks past a deadline: a thread pumps stdout into a queue.

On Linux the child is :mod:`xqdesk.engines.transport.shield`, which runs the engine below it: a subreaper
that holds the engine's whole process tree (processes it detaches with ``setsid`` included), that
the engine's ``os.getppid()`` names instead of the referee (it ignores termination signals from the
engine's own processes), and that kills the whole tree when the engine ends or when it is killed.

The transport keeps the log: every line written to the child (recorded as it is handed to the
pipe, so an answer is never logged before its question) and every line read from its stdout
(and its stderr) is recorded here, with its direction and time — the engine log the window shows
is this record, not a reconstruction. Each line also goes to the :data:`TRACE` logger at ``DEBUG``
(``xqdesk match --log FILE`` writes it to a file).
"""
from __future__ import annotations

import atexit
import collections
import enum
import functools
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Mapping, Optional, Sequence

from xqdesk.engines.errors import EngineStartError

DEFAULT_MEMORY_LIMIT_MB = 2048
"""Default address-space cap per engine process, in MiB (configurable per engine)."""

MAX_LINE_BYTES = 8192
"""The longest line kept from an engine (stdout or stderr); the rest of a longer one is read and
dropped, and the line kept ends with :data:`LINE_CUT`. No protocol line comes near it (a principal
variation of a thousand moves is 5 KiB), and it bounds what any output costs the host: the log,
the queue of unread lines and the stderr tail together hold at most some 60 MB."""
LINE_CUT = " [… line cut]"
"""Marks a line longer than :data:`MAX_LINE_BYTES` in the log and the protocol."""
UNREAD_LINES = 1024
"""How many lines read from an engine wait for the referee at most; past that the reading thread
waits too, so an engine that floods its output is slowed down by the pipe instead of filling the
host's memory."""

_STDERR_TAIL_LINES = 40
_EOF = None

LOG_LINES = 5000
"""How many of the latest exchanged lines a process keeps in its log."""

TRACE = logging.getLogger("xqdesk.engines.transport")
"""Every line exchanged with every engine process, at ``DEBUG``, as ``NAME[PID] > line`` (``<``
read, ``!`` stderr); the record's time is when the line crossed the pipe."""


class Direction(enum.Enum):
    """Which way a logged line went, shown as its ``value``."""

    SENT = ">"  # written to the child's stdin
    RECEIVED = "<"  # read from the child's stdout
    STDERR = "!"  # read from the child's stderr (not part of the protocol)


@dataclass(frozen=True)
class LoggedLine:
    """One line that crossed the pipe: its direction, its text (without the newline) and when
    (``time.time()``, seconds since the epoch)."""

    direction: Direction
    text: str
    time: float

    def __str__(self) -> str:
        """``12:03:04.567 > go movetime 1000``."""
        stamp = time.strftime("%H:%M:%S", time.localtime(self.time))
        return f"{stamp}.{int(self.time % 1 * 1000):03d} {self.direction.value} {self.text}"


LineObserver = Callable[[LoggedLine], None]
"""Called with every logged line, from the thread that wrote or read it: keep it quick."""


class ProcessLog:
    """The latest :data:`LOG_LINES` lines a process exchanged; safe to use from any thread.
    ``label`` names the process in the :data:`TRACE` log."""

    def __init__(self, on_line: Optional[LineObserver] = None, label: str = "engine") -> None:
        self._lines: collections.deque[LoggedLine] = collections.deque(maxlen=LOG_LINES)
        self._lock = threading.Lock()
        self._on_line = on_line
        self._label = label

    def record(self, direction: Direction, text: str) -> None:
        """Add a line that has just crossed the pipe, and tell the observer and the trace (in the
        log's order)."""
        with self._lock:
            entry = LoggedLine(direction, text, time.time())
            self._lines.append(entry)
            if self._on_line is not None:
                self._on_line(entry)
            if TRACE.isEnabledFor(logging.DEBUG):
                TRACE.debug("%s %s %s", self._label, direction.value, text)

    def lines(self) -> list[LoggedLine]:
        """The lines so far, oldest first."""
        with self._lock:
            return list(self._lines)

_live_groups: set[int] = set()
_live_lock = threading.Lock()
_children: weakref.WeakValueDictionary[int, subprocess.Popen[bytes]] = weakref.WeakValueDictionary()
"""pid -> the ``Popen`` of every engine process started here whose object is alive."""
STARTING = threading.Lock()
"""Held while an engine process is started and recorded in :func:`started_here`: a process seen
between its fork and its record would look like one that came from nowhere."""

SHIELD = Path(__file__).with_name("shield.py")
"""The script every engine runs under on Linux (see :mod:`xqdesk.engines.transport.shield`)."""
SHIELDED = (sys.platform.startswith("linux") and hasattr(signal, "sigwaitinfo") and hasattr(os, "posix_spawnp")
            and SHIELD.is_file())
"""Whether engines run under the shield here (Linux); elsewhere only the process group holds them."""
PROCESS_GROUPS = hasattr(os, "killpg") and hasattr(os, "setsid")
"""Whether each engine leads a session and process group of its own, killed as one (POSIX); where
not (Windows) the engine process alone is started and killed."""
MEMORY_CAP = os.name == "posix"
"""Whether the address-space cap is set in the child before it runs the engine (POSIX: Windows
refuses ``preexec_fn``); where the system refuses the cap itself the engine starts without it."""
SHIELD_GRACE = 1.0
"""Seconds the shield gets to kill the engine's tree before its whole group is SIGKILLed."""


_POLL = 0.25
"""Seconds between looks at whether a process was killed while its reader waits for a line."""


def _offer(lines: queue.Queue[Optional[str]], closed: threading.Event, line: Optional[str]) -> None:
    """Queue ``line`` for the reader, waiting while :data:`UNREAD_LINES` wait already, until the
    process is killed (then nobody will read it)."""
    while True:
        try:
            lines.put(line, timeout=_POLL)
            return
        except queue.Full:
            if closed.is_set():
                return


def _gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def _kill_groups(pids: list[int]) -> None:
    """End the engines whose groups ``pids`` lead, each once (a group already killed is left alone,
    so a reused pid is never hit): the shield is asked first (SIGTERM: it kills the engine's whole
    tree, detached processes too), then the group is SIGKILLed whatever happened."""
    with _live_lock:
        mine = [pid for pid in pids if pid in _live_groups]
        _live_groups.difference_update(mine)
    if SHIELDED:
        for pid in mine:
            try:  # the group, not the pid: the group id cannot have been reused while it has members
                os.killpg(pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + SHIELD_GRACE
        while time.monotonic() < deadline and not all(_gone(pid) for pid in mine):
            time.sleep(0.005)
    for pid in mine:
        try:
            if PROCESS_GROUPS:
                os.killpg(pid, signal.SIGKILL)
            elif (popen := _children.get(pid)) is not None:
                popen.kill()  # the process alone (TerminateProcess on Windows)
        except (ProcessLookupError, PermissionError):
            pass


def _kill_group(pid: int) -> None:
    _kill_groups([pid])


def _close_and_kill(closed: threading.Event, pid: int) -> None:
    closed.set()
    _kill_group(pid)


def end_all_engines() -> None:
    """Kill every engine started here and not killed yet, each with its whole tree (at exit too)."""
    with _live_lock:
        groups = list(_live_groups)
    _kill_groups(groups)


atexit.register(end_all_engines)


def started_here(pid: int) -> bool:
    """Whether ``pid`` is an engine process started here and not reaped yet (its pid is still its)."""
    popen = _children.get(pid)
    return popen is not None and popen.returncode is None


def live_process_groups() -> set[int]:
    """The process groups started here and not yet killed or reaped (tests use it to find leaks)."""
    with _live_lock:
        return set(_live_groups)


def _limit_memory(limit_bytes: Optional[int]) -> None:
    """Runs in the child before exec: cap its address space (not where the system refuses it)."""
    if limit_bytes is not None:
        import resource
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
        except (ValueError, OSError):
            pass


def _start_options(limit_bytes: Optional[int]) -> dict[str, Any]:
    """``Popen``'s options for an engine: its own session and the memory cap where this platform
    has them (:data:`PROCESS_GROUPS`, :data:`MEMORY_CAP`), none elsewhere."""
    options: dict[str, Any] = {}
    if PROCESS_GROUPS:
        options["start_new_session"] = True
    if MEMORY_CAP and limit_bytes is not None:
        options["preexec_fn"] = functools.partial(_limit_memory, limit_bytes)
    return options


def _check_executable(program: str, cwd: Optional[str]) -> None:
    """Raise EngineStartError, as starting it directly would, when ``program`` cannot be run (the
    shield would only find out after it has started)."""
    if os.sep in program:
        path = Path(program) if Path(program).is_absolute() or cwd is None else Path(cwd) / program
        if not path.is_file():
            raise EngineStartError(f"cannot start engine {program!r}: No such file or directory")
        if not os.access(path, os.X_OK):
            raise EngineStartError(f"cannot start engine {program!r}: Permission denied")
    elif shutil.which(program) is None:
        raise EngineStartError(f"cannot start engine {program!r}: not found on the PATH")


class LineProcess:
    """A child process spoken to in lines. ``read_line`` waits at most until a deadline."""

    def __init__(self, command: Sequence[str], *, cwd: Optional[str] = None,
                 env: Optional[Mapping[str, str]] = None,
                 memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
                 on_line: Optional[LineObserver] = None, name: Optional[str] = None) -> None:
        """Start ``command``. ``on_line`` sees every line of the log as it is recorded; ``name``
        (default: the program's file name) labels the process in the :data:`TRACE` log."""
        if not command:
            raise EngineStartError("an engine command cannot be empty")
        self.command = list(command)
        limit = None if memory_limit_mb is None else int(memory_limit_mb) * 1024 * 1024
        launched = self.command
        if SHIELDED:
            _check_executable(self.command[0], cwd)
            launched = [sys.executable, "-I", "-S", str(SHIELD), "--", *self.command]
        with STARTING:
            try:
                self._popen = subprocess.Popen(
                    launched, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    cwd=cwd, env=None if env is None else dict(env), **_start_options(limit))
            except OSError as error:
                raise EngineStartError(f"cannot start engine {self.command!r}: {error.strerror or error}") from None
            self.pid = self._popen.pid
            with _live_lock:
                _live_groups.add(self.pid)
                _children[self.pid] = self._popen
        self._closed = threading.Event()  # set when killed: nobody reads on, the pumps stop waiting
        self._finalizer = weakref.finalize(self, _close_and_kill, self._closed, self.pid)
        self._lines: queue.Queue[Optional[str]] = queue.Queue(maxsize=UNREAD_LINES)
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        self._write_lock = threading.Lock()
        self._eof = False
        self._log = ProcessLog(on_line, f"{name or Path(self.command[0]).name}[{self.pid}]")
        # The pumps hold the queue, the tail and the log, never ``self``: an abandoned process
        # object is still collected, and its finalizer kills the child.
        lines, closed = self._lines, self._closed
        threading.Thread(target=self._pump,
                         args=(self._popen.stdout, lambda line: _offer(lines, closed, line), self._log,
                               Direction.RECEIVED),
                         name=f"engine-{self.pid}-stdout", daemon=True).start()
        self._stderr_pump = threading.Thread(
            target=self._pump, args=(self._popen.stderr, self._stderr_tail.append, self._log, Direction.STDERR),
            name=f"engine-{self.pid}-stderr", daemon=True)
        self._stderr_pump.start()

    @staticmethod
    def _pump(stream: Optional[IO[bytes]], sink: Callable[[Optional[str]], None], log: ProcessLog,
              direction: Direction) -> None:
        """Log each decoded line of ``stream`` and hand it to ``sink`` (then ``_EOF`` for stdout).
        A line is read at most :data:`MAX_LINE_BYTES` at a time: a longer one is kept cut (with
        :data:`LINE_CUT`) and the rest of it read and dropped, so an endless line costs nothing."""
        if stream is not None:
            skipping = False  # inside a line that was cut: drop what comes up to its end
            while raw := stream.readline(MAX_LINE_BYTES + 1):
                ended = raw.endswith(b"\n")
                if skipping:
                    skipping = not ended
                    continue
                if not ended and len(raw) > MAX_LINE_BYTES:
                    skipping = True
                    line = raw[:MAX_LINE_BYTES].decode("utf-8", errors="replace") + LINE_CUT
                else:
                    line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                log.record(direction, line)
                sink(line)
            stream.close()
        if direction is Direction.RECEIVED:
            sink(_EOF)

    def log(self) -> list[LoggedLine]:
        """The lines exchanged so far (the latest :data:`LOG_LINES`), oldest first."""
        return self._log.lines()

    def send(self, line: str) -> bool:
        """Write one line; False when the process no longer reads (it has died)."""
        with self._write_lock:
            stdin = self._popen.stdin
            if stdin is None or stdin.closed:
                return False
            # Logged before the write, so the child's answer can never be logged before it.
            self._log.record(Direction.SENT, line)
            try:
                stdin.write((line + "\n").encode("utf-8"))
                stdin.flush()
                return True
            except (BrokenPipeError, OSError, ValueError):
                return False

    def read_line(self, timeout: Optional[float]) -> Optional[str]:
        """The next line, or None at end of output (the process ended or closed stdout).

        Raises :class:`TimeoutError` when no line came within ``timeout`` seconds.
        """
        if self._eof:
            return None
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while True:
            wait = _POLL if deadline is None else min(_POLL, max(0.0, deadline - time.monotonic()))
            try:
                line = self._lines.get(timeout=wait)
                break
            except queue.Empty:
                if self._closed.is_set():  # killed: what was not read yet will never come
                    line = _EOF
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError(f"no output from {self.command!r} within {timeout:.2f} s") from None
        if line is _EOF:
            self._eof = True
        return line

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the process has ended (negative: killed by that signal)."""
        return self._popen.poll()

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def stderr_tail(self, wait: float = 0.0) -> str:
        """The last lines the process wrote to stderr (for error messages). ``wait``: at most so
        many seconds for the end of its stderr first, so that the last words of a process that has
        ended are all read (on a busy machine they can lag behind its exit)."""
        if wait > 0:
            self._stderr_pump.join(wait)
        return "\n".join(self._stderr_tail)

    def wait(self, timeout: float) -> Optional[int]:
        """Wait for the process to end; its exit status, or None if it is still running."""
        try:
            return self._popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the process and its whole group (under the shield: its whole tree) now, and reap it."""
        self._closed.set()
        _kill_group(self.pid)
        self._finalizer.detach()
        try:
            self._popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        with self._write_lock:
            try:
                if self._popen.stdin is not None:
                    self._popen.stdin.close()
            except OSError:
                pass

    def close(self, grace: float = 1.0) -> None:
        """Close stdin, give the process ``grace`` seconds to exit on its own, then kill it."""
        with self._write_lock:
            try:
                if self._popen.stdin is not None:
                    self._popen.stdin.close()
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.kill()
