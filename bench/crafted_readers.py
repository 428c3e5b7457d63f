"""Read each crafted record file of tests/crafted_records.py at two sizes and print the time each
read takes, their ratio (about 4 for a reader linear in its input, 16 for a quadratic one) and the
memory reading needs beyond the games it returns.

    python bench/crafted_readers.py [--scale 4] [--only NAME] [--factor 4]

``--scale`` multiplies each file's base size ``n``; the files read are ``n`` and ``factor * n``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from crafted_records import CRAFTED  # noqa: E402

from xqdesk.formats import read_games  # noqa: E402


def timed_read(path: Path, repeats: int) -> tuple[float, int, int]:
    """(best seconds of ``repeats`` reads, games, errors)."""
    best = float("inf")
    games = errors = 0
    for _ in range(repeats):
        started = time.perf_counter()
        record = read_games(path)
        best = min(best, time.perf_counter() - started)
        games, errors = len(record.games), len(record.errors)
    return best, games, errors


def peak_memory(path: Path) -> int:
    """Bytes reading ``path`` needed beyond the games it returned (tracemalloc's peak less what stays)."""
    tracemalloc.start()
    read_games(path)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak - current


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=4.0)
    parser.add_argument("--factor", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    print(f"{'file':28} {'bytes n':>10} {'s at n':>8} {'bytes kn':>10} {'s at kn':>8} {'ratio':>6} "
          f"{'MB beyond':>9}  games/errors")
    with tempfile.TemporaryDirectory(prefix="xqdesk-crafted-") as scratch:
        for name, (suffix, make, base) in CRAFTED.items():
            if args.only and args.only not in name:
                continue
            n = max(1, int(base * args.scale))
            small, large = Path(scratch) / f"{name}-small{suffix}", Path(scratch) / f"{name}-large{suffix}"
            small.write_bytes(make(n))
            large.write_bytes(make(args.factor * n))
            small_seconds, _games, _errors = timed_read(small, args.repeats)
            large_seconds, games, errors = timed_read(large, args.repeats)
            memory = peak_memory(large)
            print(f"{name:28} {small.stat().st_size:>10,} {small_seconds:>8.3f} {large.stat().st_size:>10,} "
                  f"{large_seconds:>8.3f} {large_seconds / max(small_seconds, 1e-6):>6.1f} "
                  f"{memory / 1e6:>9.1f}  {games}/{errors}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
