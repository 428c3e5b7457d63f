"""Every reader against a few hundred damaged files made from the real ones (``fuzz_records``):
nothing escapes, every intact game of a damaged file is kept, every error names its file, game and
place, and reading needs no more than ten times the input's size beyond the games it returns.
``python bench/fuzz_readers.py`` runs thousands of cases and reports times and memory."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from fuzz_records import check_case, clear, make_cases, run_commands

from xqdesk.cli import main

SEED = 20261123
CASES = 300
HANG_GUARD = 30.0
"""CPU seconds after which a case counts as hung (speed itself is measured by the bench)."""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.slow
def test_damaged_records_are_read_without_loss_or_crash(workdir: Path) -> None:
    failures: list[str] = []
    kinds: set[str] = set()
    intact = 0
    out = workdir / "converted.pgn"
    for index, case in enumerate(make_cases(SEED, CASES, workdir)):
        kinds.add(case.path.suffix or "folder")
        outcome = check_case(case, measure_memory=index % 5 == 0)
        problems = list(outcome.problems)
        intact += outcome.intact_checked
        if outcome.seconds > HANG_GUARD:
            problems.append(f"took {outcome.seconds:.1f} s")
        if index % 3 == 0:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                problems += run_commands(case, out, main)
        failures += [f"{case.name}: {problem}" for problem in problems]
    clear(workdir)
    assert not failures, "\n".join(failures[:40])
    assert {".pgn", ".xqf", ".txt", ".cbr", ".ubb", "folder"} <= kinds
    assert intact > 1000  # the intact-game check is not vacuous: this many games had to come back


def test_the_cases_are_the_same_for_a_seed(tmp_path: Path) -> None:
    made = []
    for name in ("first", "second"):
        folder = tmp_path / name
        folder.mkdir()
        made.append([(case.name, case.path.read_bytes() if case.path.is_file() else b"")
                     for case in make_cases(7, 20, folder)])
    assert made[0] == made[1]
