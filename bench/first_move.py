"""The first engine move after a fresh install made exactly as the README says.

Run: ``python bench/first_move.py [--skip-prepare] [--keep DIR]``. Copies this checkout (its
tracked and new files) into a temporary folder, runs the README's install command there step by
step (``python3 -m venv .venv && .venv/bin/python -m pip install -e . && .venv/bin/xqdesk
prepare``; the window it then starts is left out), with an empty user cache folder, and times each
step. Then it times the first engine move a user waits for, ``.venv/bin/xqdesk analyse --engine
builtin --depth 1`` from its start to its answer, twice (the second run is the usual start).
Target: the first move within 5 s of the end of the install command. ``--skip-prepare`` leaves out
``xqdesk prepare``, to see what it saves (the engine then compiles at its first start, with a
progress message). Downloads the dependencies as pip does (from its cache when it has them).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def install_command() -> list[str]:
    """The README's install command, as its steps, without the step that starts the window."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("python3 -m venv") and "main.py" in line)
    return [step.strip() for step in line.split("&&") if "main.py" not in step]


def copy_checkout(target: Path) -> None:
    """This checkout's tracked and untracked (not ignored) files, as a fresh clone would have them."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def timed(command: str, cwd: Path, env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - started, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-prepare", action="store_true", help="leave 'xqdesk prepare' out of the install")
    parser.add_argument("--keep", metavar="DIR", help="install into DIR (kept) instead of a temporary folder")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="xqdesk-first-move-"))
    checkout = folder / "xqdesk"
    checkout.mkdir(parents=True, exist_ok=True)
    copy_checkout(checkout)
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache")}
    for name in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV"):
        env.pop(name, None)
    env["QT_QPA_PLATFORM"] = "offscreen"
    steps = [step for step in install_command() if not (args.skip_prepare and re.search(r"xqdesk prepare", step))]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; in {checkout}")
    for step in steps:
        seconds, done = timed(step, checkout, env)
        print(f"{seconds:7.1f} s  {step}")
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-4000:], sep="\n", file=sys.stderr)
            return 1
    move = ".venv/bin/xqdesk analyse --engine builtin --depth 1"
    for label in ("first engine move", "second engine move"):
        seconds, done = timed(move, checkout, env)
        best = next((line for line in done.stdout.splitlines() if line.startswith("Best move:")), "no best move")
        print(f"{seconds:7.1f} s  {label}: {move} ({best}; {'compiled first' if 'Preparing' in done.stderr else 'compiled code found'})")
        if done.returncode != 0:
            print(done.stderr[-4000:], file=sys.stderr)
            return 1
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
