"""The referee's own guard (Linux): what an engine that attacks the process above its shield meets.

Each engine runs under a shield (:mod:`xqdesk.engines.transport.shield`) that holds its process tree
and ignores termination signals from it. An engine can still look up the referee's pid through
``/proc`` and signal it or its process group, or SIGKILL its shield so that what it had detached
escapes the tree. While :func:`guard_referee` is active (``xqdesk match``, ``xqdesk tournament``,
``xqdesk play`` and the window, see ``xqdesk.ui.app.window_guard``, run inside it):

- the referee is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process orphaned when
  its shield dies is reparented to the referee instead of init, and every
  :data:`SWEEP_SECONDS` the guard SIGKILLs and reaps such processes with all they started — an
  escaped process can only come from an engine whose shield is gone (the engine itself included,
  which then loses the game as a crash);
- SIGTERM, SIGINT, SIGHUP and SIGQUIT are taken by a guard thread (``sigtimedwait``): one sent by a
  process below the referee (an engine, its shield, anything they started) is ignored and said on
  stderr; one sent by anyone else (the person's Ctrl+C, ``kill`` from a shell) does what it did
  before: the Python handler runs in the main thread, or the referee dies of it (the shields then
  end the engines).

What stays possible: SIGKILL and SIGSTOP cannot be caught, so an engine can still end the referee
(its engines then end within half a second: each shield watches its parent) or freeze it;
other processes in the referee's group (``xqdesk match | tee log``: the ``tee``) are not guarded;
a sender gone when its signal is looked at, and seen below the referee neither at the guard's last
two looks (a quarter of a second apart) nor as the sender of an earlier signal in the last
:data:`SENDERS_KEPT_SECONDS`, cannot be told from the person's shell and is obeyed; and a process
that escapes and SIGKILLs the referee before the next sweep is reparented to init. This is no
sandbox: run code you do not trust in a container.
"""
from __future__ import annotations

import _thread
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator

from xqdesk.engines.transport.process import STARTING, started_here
from xqdesk.engines.transport.shield import PR_SET_CHILD_SUBREAPER, descendants, is_descendant

LOG = logging.getLogger(__name__)

GUARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
"""The signals the guard looks at the sender of."""
SWEEP_SECONDS = 0.25
"""How often the guard looks for processes that escaped an engine's tree."""


def guard_supported() -> bool:
    """Whether this platform has what the guard needs (Linux: ``sigtimedwait``, ``/proc``)."""
    return sys.platform.startswith("linux") and hasattr(signal, "sigtimedwait") and os.path.isdir("/proc/self/task")


PR_GET_CHILD_SUBREAPER = 37
"""``prctl`` option: whether this process is a child subreaper (see ``PR_SET_CHILD_SUBREAPER``)."""


def _prctl(option: int, argument: object) -> bool:
    """``prctl(option, argument)``; whether it succeeded (False where there is no ``prctl``)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, argument, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _become_subreaper(on: bool) -> bool:
    return _prctl(PR_SET_CHILD_SUBREAPER, int(on))


def _is_subreaper() -> bool:
    state = ctypes.c_int(0)
    return _prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(state)) and state.value != 0


def _children_of(pid: int | str) -> set[int]:
    """The children of process ``pid`` (any of its threads'), from ``/proc/PID/task/*/children``;
    OSError or ValueError when the process is gone or the kernel has no such file."""
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
            found.update(int(child) for child in handle.read().split())
    return found


def _children() -> set[int]:
    """This process's children (any thread's), or a scan of ``/proc`` where the kernel has no
    ``children`` files."""
    try:
        return _children_of("self")
    except (OSError, ValueError):
        me = os.getpid()
        return {pid for pid in descendants(me) if _parent(pid) == me}


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[-1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def escaped_children() -> list[int]:
    """Children of this process that it did not start: processes orphaned out of an engine's tree.
    An engine's tree never shares the referee's session (each engine starts a session of its own)
    and everything else the referee starts does, so the session tells them apart; the engine
    processes started here (until reaped) are not counted."""
    my_session = os.getsid(0)
    found = []
    with STARTING:  # an engine forked but not yet recorded is not an escaped one
        for pid in sorted(_children()):
            if started_here(pid):
                continue
            try:
                if os.getsid(pid) != my_session:
                    found.append(pid)
            except OSError:  # gone already
                continue
    return found


def _below(pid: int) -> set[int]:
    """The live processes below ``pid``: only its tree is read, down the ``children`` files (all of
    ``/proc`` where the kernel has none)."""
    try:
        found = _children_of(pid)
    except (OSError, ValueError):
        return set(descendants(pid))
    queue = list(found)
    while queue:
        try:
            children = _children_of(queue.pop()) - found
        except (OSError, ValueError):  # ended meanwhile
            continue
        found |= children
        queue.extend(children)
    return found


def sweep_escaped() -> list[int]:
    """SIGKILL every escaped child with everything below it, and reap it; the pids swept."""
    swept = escaped_children()
    for pid in swept:
        for victim in [pid, *descendants(pid)]:
            try:
                os.kill(victim, signal.SIGKILL)
            except OSError:
                pass
    for pid in swept:
        try:
            os.waitpid(pid, 0)
        except (ChildProcessError, OSError):
            pass
    return swept


def _honour(number: int) -> None:
    """Do what ``number`` would have done without the guard (called in the guard thread)."""
    handler = signal.getsignal(number)
    if handler == signal.SIG_IGN:
        return
    if callable(handler):
        _thread.interrupt_main(signal.Signals(number))  # the Python handler, in the main thread
        return
    # No handler: the referee dies of it, as it would have; each engine's shield sees its parent
    # gone and ends the engine's tree within half a second.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})  # only this thread takes it: it ends the process
    os.kill(os.getpid(), number)


SENDERS_KEPT_SECONDS = 10.0
"""How long the guard remembers an engine's process that signalled the referee."""


def _watch(stopping: threading.Event) -> None:
    me = os.getpid()
    # A signal is often looked at after its sender has ended (an engine that signals the referee
    # and then moves illegally is killed at once), so what was below the referee is remembered:
    # the processes at the last two looks, and for a while the senders already found below it.
    seen_below: set[int] = set()
    senders: dict[int, float] = {}
    while not stopping.is_set():
        now = time.monotonic()
        senders = {pid: when for pid, when in senders.items() if now - when < SENDERS_KEPT_SECONDS}
        now_below = _below(me)
        seen_below, recent = now_below, seen_below | now_below
        info = signal.sigtimedwait(GUARDED, SWEEP_SECONDS)
        while info is not None:  # every signal waiting, before anything else
            sender = info.si_pid
            if sender and sender != me and (sender in recent or sender in senders or is_descendant(sender, me)):
                senders[sender] = time.monotonic()
                LOG.warning("ignored %s from process %d, one of the engines' processes",
                            signal.Signals(info.si_signo).name, sender)
            else:
                _honour(info.si_signo)
            info = signal.sigtimedwait(GUARDED, 0)
        for pid in sweep_escaped():
            LOG.warning("killed process %d, which escaped its engine's tree", pid)


@contextmanager
def guard_referee() -> Iterator[bool]:
    """Guard this process, the referee, while inside (see the module's docstring); yields whether
    it is guarded (not on other platforms, nor outside the main thread). Enter it before any other
    thread starts: a thread started earlier would still take the guarded signals itself."""
    if not guard_supported() or threading.current_thread() is not threading.main_thread():
        yield False
        return
    was_reaping = _is_subreaper()
    reaping = _become_subreaper(True)
    previous_mask = signal.pthread_sigmask(signal.SIG_BLOCK, GUARDED)
    stopping = threading.Event()
    watcher = threading.Thread(target=_watch, args=(stopping,), name="referee-guard", daemon=True)
    watcher.start()
    try:
        yield True
    finally:
        stopping.set()
        watcher.join()
        sweep_escaped()
        if reaping and not was_reaping:
            _become_subreaper(False)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous_mask)  # a signal that waits is delivered now


__all__ = ["GUARDED", "SENDERS_KEPT_SECONDS", "SWEEP_SECONDS", "escaped_children", "guard_referee", "guard_supported",
           "sweep_escaped"]
