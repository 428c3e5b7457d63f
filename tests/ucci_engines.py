"""UCCI engines for tests: the greedy UCCI test engine as a single executable, and ElephantEye
built from its source when ``XQDESK_ELEEYE_SRC`` names a checkout of github.com/xqbase/eleeye (the
folder holding ``eleeye/`` and ``base/``); tests that need it skip with the reason otherwise."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "players" / "uci_scripts"
ELEEYE_SOURCE_VARIABLE = "XQDESK_ELEEYE_SRC"
ELEEYE_SOURCES = ("../base/pipe.cpp", "ucci.cpp", "pregen.cpp", "position.cpp", "genmoves.cpp", "hash.cpp",
                  "book.cpp", "movesort.cpp", "preeval.cpp", "evaluate.cpp", "search.cpp", "eleeye.cpp")
"""The sources of ``eleeye/makefile.sh``'s g++ line, in its order."""


def greedy_ucci_executable(folder: Path) -> str:
    """An executable file in ``folder`` that runs the greedy UCCI test engine with this Python."""
    path = folder / "greedy-ucci"
    path.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{SCRIPTS / 'ucci_engine.py'}' \"$@\"\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def build_eleeye(folder: Path) -> str:
    """ElephantEye compiled into ``folder`` from ``$XQDESK_ELEEYE_SRC`` with makefile.sh's g++ line;
    skips the test (with the reason) when no source is given or no g++ is installed."""
    source = os.environ.get(ELEEYE_SOURCE_VARIABLE)
    if not source:
        pytest.skip(f"no ElephantEye source: set {ELEEYE_SOURCE_VARIABLE} to a checkout of github.com/xqbase/eleeye")
    eleeye = Path(source).expanduser() / "eleeye"
    if not (eleeye / "eleeye.cpp").is_file() or not (eleeye.parent / "base" / "pipe.cpp").is_file():
        pytest.fail(f"{ELEEYE_SOURCE_VARIABLE}={source!r} holds no eleeye/eleeye.cpp and base/pipe.cpp")
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed: cannot build ElephantEye")
    output = folder / "eleeye"
    built = subprocess.run([compiler, "-DNDEBUG", "-O4", "-Wall", f"-o{output}", *ELEEYE_SOURCES], cwd=eleeye,
                           capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        pytest.fail(f"ElephantEye did not build: {built.stderr[-2000:]}")
    return str(output)
