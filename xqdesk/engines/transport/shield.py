"""``python -I -S shield.py -- COMMAND …``: the process between the referee and an engine (Linux).

It runs COMMAND as its child, with the same stdin, stdout and stderr, and:

- holds the engine's whole process tree: it is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``),
  so a process the engine double-forks and detaches with ``setsid`` is reparented to the shield, not
  to init, and is still found and killed;
- stands where the engine's ``os.getppid()`` points: a termination signal (TERM, INT, HUP, QUIT)
  sent by a process of the engine's own tree is ignored (and said on stderr), so a player cannot
  kill the referee or the match that way; USR1, USR2, ALRM and PIPE are ignored from anyone;
- ends the tree: when COMMAND exits, or when anyone else (the referee) sends it a termination
  signal, it SIGKILLs every process left below it, reaps them, and exits as COMMAND did (the same
  exit code, or killed by the same signal), so the referee sees the engine's own fate;
- does not outlive the referee: when its parent is gone (killed without a chance to close its
  engines) it ends the tree within :data:`ORPHAN_CHECK_SECONDS` — many engines never notice that
  their input has closed and would otherwise run, or wait, for ever.

It is no sandbox: the engine runs as the same user and can still find and signal other processes,
SIGKILL or SIGSTOP the shield, or leave the tree by other means. It imports nothing from xqdesk and
runs with ``-I -S`` so it starts in a few milliseconds.
"""
from __future__ import annotations

import ctypes
import errno
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
_ENDING = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT}
_IGNORED = {signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGPIPE}
ORPHAN_CHECK_SECONDS = 0.5
"""How often the shield looks whether its parent is still there."""


def _become_subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """pid -> parent pid of every live (non-zombie) process, read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[-1].split()
        except OSError:
            continue
        if len(fields) > 1 and fields[0] != b"Z":
            parents[int(entry)] = int(fields[1])
    return parents


def descendants(root: int) -> list[int]:
    """The live processes below ``root`` (children first)."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, queue = [], list(children.get(root, ()))
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        queue.extend(children.get(pid, ()))
    return found


def is_descendant(pid: int, root: int) -> bool:
    seen = 0
    while pid > 1 and seen < 4096:
        if pid == root:
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                pid = int(handle.read().rsplit(b")", 1)[-1].split()[1])
        except (OSError, IndexError, ValueError):
            return False
        seen += 1
    return False


def _reap(child: int, status: list[int]) -> bool:
    """Reap every finished child without waiting; True when ``child`` was among them."""
    found = False
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == child:
            status.append(code)
            found = True


def end_tree(me: int, child: int, status: list[int]) -> None:
    """SIGKILL every process below ``me`` until none is left, reaping as they die (the wait
    status of ``child``, when it is reaped here, goes in ``status``)."""
    for _ in range(1000):
        left = descendants(me)
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap(child, status)
        time.sleep(0.002)
    while True:  # the last zombies
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except OSError as error:
            if error.errno != errno.EINTR:
                break
            continue
        if pid == child:
            status.append(code)


def _exit_like(status: int) -> None:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def main(argv: list[str]) -> None:
    command = argv[1:]
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        print("usage: shield.py -- COMMAND [ARG …]", file=sys.stderr)
        os._exit(2)
    me = os.getpid()
    parent = os.getppid()
    _become_subreaper()
    watched = _ENDING | _IGNORED | {signal.SIGCHLD}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    try:
        child = os.posix_spawnp(command[0], command, dict(os.environ), setsigmask=(),
                                setsigdef=tuple(watched))
    except OSError as error:
        print(f"cannot start {command[0]!r}: {error.strerror or error}", file=sys.stderr)
        os._exit(127)
    status: list[int] = []
    while not status:
        info = signal.sigtimedwait(watched, ORPHAN_CHECK_SECONDS)
        if info is None:
            if os.getppid() != parent:  # the referee is gone: so is the engine
                end_tree(me, child, status)
                status[:] = [signal.SIGKILL]
            continue
        if info.si_signo == signal.SIGCHLD:
            _reap(child, status)
        elif info.si_signo in _ENDING:
            if info.si_pid and is_descendant(info.si_pid, me):
                name = signal.Signals(info.si_signo).name
                print(f"engine shield: ignored {name} from process {info.si_pid} of the engine itself", file=sys.stderr)
                continue
            end_tree(me, child, status)
            if not status:
                status.append(signal.SIGKILL)  # gone without a status: killed here
    end_tree(me, child, status)
    _exit_like(status[0])


if __name__ == "__main__":
    main(sys.argv)
