#!/usr/bin/env python3
"""A UCI engine that, on every ``go``, looks up the referee (its parent's parent: the parent is the
engine's shield) and sends it SIGTERM, SIGINT and SIGHUP, and SIGTERM to the referee's whole process
group, then plays ``h2e2`` (legal as Red's first move only)."""
import os
import signal
import sys


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name SignalsReferee\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        referee = parent_of(os.getppid())
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            os.kill(referee, number)
        os.killpg(os.getpgid(referee), signal.SIGTERM)
        print("bestmove h2e2", flush=True)
    elif command == "quit":
        break
