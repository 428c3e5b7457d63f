"""Fuzz every record reader with thousands of damaged files made from the real ones in tests/data
(see tests/fuzz_records.py), plus large inputs, and report failures, time and memory.

    python bench/fuzz_readers.py [--cases 3000] [--seed 1] [--commands-every 10] [--memory-every 4]

Each case is read with ``read_games``; every ``--commands-every``-th also goes through
``replay --check`` and ``convert``. A case fails when anything escapes, an intact game is lost, an
error does not name its file, game and place, it takes more than ``--slow`` CPU seconds, or reading
needs more than ten times the input's size (plus 2 MB) beyond the games it returns. Exit 1 on any
failure."""
from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_records import Case, check_case, clear, make_cases, run_commands  # noqa: E402

from xqdesk.cli import main as cli_main  # noqa: E402


def large_cases(folder: Path) -> list[Case]:
    """Inputs of megabytes that used to hang or eat memory."""
    cases = {
        "tag-10MB.pgn": b'[Event "' + b"a" * 10_000_000 + b'"]\n\n1. h2e2 h9g7 *\n',
        "fen-tag-10MB.pgn": b'[FEN "' + b"r" * 10_000_000 + b'"]\n\n1. h2e2 *\n',
        "close-brace-390KB.pgn": b'[Event "x"]\n\n' + b"1. } " * 78_000,
        "open-brace-10MB.pgn": b'[Event "x"]\n\n1. h2e2 {' + b"c\n" * 5_000_000,
        "garbage-10MB.pgn": b'[Event "x"]\n\n' + b"zz " * 3_300_000,
        "parens-1MB.pgn": b'[Event "x"]\n\n1. h2e2 ' + b"(" * 1_000_000,
        "digits-1MB.fen": b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 " + b"9" * 1_000_000,
        "history-1MB.txt": b"[" + b"(9, 7, 7, 6, 0), (0, 7, 2, 6, 0), " * 30_000 + b"]",
        "xff-10MB.pgn": b"\xff" * 10_000_000,
    }
    made = []
    for name, data in cases.items():
        path = folder / name
        path.write_bytes(data)
        made.append(Case(name, path))
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands-every", type=int, default=10, metavar="N")
    parser.add_argument("--memory-every", type=int, default=4, metavar="N")
    parser.add_argument("--slow", type=float, default=3.0, metavar="S", help="CPU seconds a case may take")
    args = parser.parse_args()
    times: list[float] = []
    ratios: list[tuple[float, str]] = []
    failures: list[str] = []
    intact = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="xqdesk-fuzz-") as scratch:
        folder = Path(scratch)
        out = folder / "converted.pgn"
        cases = list(make_cases(args.seed, args.cases, folder)) + large_cases(folder)
        for index, case in enumerate(cases):
            outcome = check_case(case)
            times.append(outcome.seconds)
            intact += outcome.intact_checked
            problems = list(outcome.problems)
            if outcome.seconds > args.slow:
                problems.append(f"took {outcome.seconds:.2f} s")
            if index % args.memory_every == 0 or index >= args.cases:
                measured = check_case(case, measure_memory=True)
                if measured.size >= 10_000:  # below that the 2 MB allowance decides, not the ratio
                    ratios.append((measured.peak_bytes / measured.size, case.name))
                problems += [problem for problem in measured.problems if "bytes beyond" in problem]
            if index % args.commands_every == 0 or index >= args.cases:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    problems += run_commands(case, out, cli_main)
            failures += [f"{case.name}: {problem}" for problem in problems]
        clear(folder)
    slowest = sorted(zip(times, (case.name for case in cases)), reverse=True)[:5]
    print(f"{len(times)} cases (seed {args.seed}: {args.cases} damaged files and folders, {len(times) - args.cases} "
          f"large inputs) in {time.perf_counter() - started:.1f} s; {intact} intact games checked")
    print(f"read time per case: median {statistics.median(times) * 1000:.1f} ms, max {max(times):.2f} s")
    print("slowest: " + "; ".join(f"{name} {seconds:.2f} s" for seconds, name in slowest))
    worst = sorted(ratios, reverse=True)[:3]
    print(f"memory beyond the result per byte of input, worst of {len(ratios)} inputs of 10 KB or more: "
          + "; ".join(f"{name} {ratio:.1f}x" for ratio, name in worst))
    print(f"{len(failures)} failures")
    for failure in failures[:50]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
