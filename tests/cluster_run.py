"""Run by tests/test_cluster.py in its own process: start Ray here with two CPUs, then run xqdesk
commands with ``--cluster local`` (which joins this Ray) and check that a task whose worker dies is
run again. Usage: python tests/cluster_run.py MARKER_FILE -- COMMAND ARGS… [-- COMMAND ARGS…]"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import ray

from xqdesk.cli import main
from xqdesk.engines.contests.cluster import run_tasks


def dies_once(marker: str) -> str:
    """Kill this worker the first time (as a lost machine would), answer the second."""
    if not Path(marker).exists():
        Path(marker).write_text("died once")
        os._exit(1)
    return f"answered on attempt 2 in process {os.getpid()}"


def run() -> int:
    marker, *rest = sys.argv[1:]
    commands, current = [], []
    for word in rest[1:]:
        if word == "--":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        print("retry:", run_tasks(ray, dies_once, [marker])[0], flush=True)
        for command in commands:
            print(f"=== {command[0]} exit", main(command), flush=True)
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(run())
