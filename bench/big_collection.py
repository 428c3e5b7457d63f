"""Peak memory and time of ``xqdesk replay``, ``convert`` and ``index`` on big PGN collections.

Run: ``python bench/big_collection.py [--games 10000 100000] [--commands replay convert index]``.
Writes a PGN of N real games (the 1,391 master games of the test data, cycled, each with its own
Event and Round: some 680 bytes a game, 100,000 games about 68 MB) in a temporary folder, then
runs each command on it in a process of its own and prints the wall time, games a second and
the peak resident memory (``VmHWM``). Reading a game at a time, time grows with the games and
peak memory stays flat. Output of ``replay`` goes to /dev/null; ``convert`` writes FEN lines.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MASTER = REPO / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
_GAME_TEXT = re.compile(r"(?ms)^\[Event .*?(?=^\[Event |\Z)")
_PEAK = """
import sys
from xqdesk.cli import main
code = main(sys.argv[1:])
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
print("PEAK", int(peak.split()[1]), code, file=sys.stderr)
"""


def write_collection(path: Path, count: int) -> None:
    """``count`` real games, cycled, each with its own Event and Round."""
    games = []
    for text in _GAME_TEXT.findall(MASTER.read_text(encoding="utf-8")):
        head, _blank, moves = text.partition("\n\n")
        games.append(("\n".join(head.splitlines()[1:]), moves.strip()))
    with path.open("w", encoding="utf-8") as out:
        for number in range(1, count + 1):
            tags, moves = games[(number - 1) % len(games)]
            out.write(f'[Event "Big collection {number}"]\n[Round "{number}"]\n{tags}\n\n{moves}\n\n')


def measure(arguments: list[str], folder: Path) -> tuple[float, int, int]:
    """``(seconds, peak KiB, exit code)`` of ``xqdesk ARGUMENTS`` in a process of its own."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PEAK, *arguments], cwd=folder, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    elapsed = time.perf_counter() - started
    found = re.search(r"PEAK (\d+) (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"xqdesk {' '.join(arguments)} failed: {done.stderr[-2000:]}")
    return elapsed, int(found.group(1)), int(found.group(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--commands", nargs="+", choices=("replay", "convert", "index"),
                        default=["replay", "convert", "index"])
    args = parser.parse_args()
    print(f"{'command':8} {'games':>8} {'MB':>6} {'seconds':>8} {'games/s':>8} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory(prefix="xqdesk-big-") as temporary:
        folder = Path(temporary)
        for count in args.games:
            path = folder / f"games_{count}.pgn"
            write_collection(path, count)
            size = path.stat().st_size / 1e6
            for command in args.commands:
                arguments = {"replay": ["replay", str(path)],
                             "convert": ["convert", str(path), str(folder / f"games_{count}.fen")],
                             "index": ["index", "--quiet", str(folder / f"games_{count}.sqlite"), str(path)]}[command]
                seconds, peak, code = measure(arguments, folder)
                note = "" if code == 0 else f"  (exit {code})"
                print(f"{command:8} {count:>8,} {size:>6.1f} {seconds:>8.1f} {count / seconds:>8.0f} "
                      f"{peak / 1024:>9.1f}{note}", flush=True)
            path.unlink()


if __name__ == "__main__":
    main()
