"""What a hostile engine's output costs the host: the peak resident memory of a host process that
reads (1) an engine writing one line of ``--bytes`` bytes without a newline, then a move, and (2) an
engine flooding ``info`` lines without pause for ``--seconds`` seconds, read until its deadline.

    python bench/engine_flood.py [--bytes 1073741824] [--seconds 5] [--code DIR]

``--code`` runs the hosts on the xqdesk package of another checkout (to compare with an older one).

Each host is a fresh Python process (``python -c``), so the figure is its own peak RSS
(``ru_maxrss``), imports included.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "tests" / "players" / "uci_scripts"

_ENDLESS = """
import resource, sys, time
from xqdesk.engines.transport.process import LineProcess
engine = LineProcess([sys.executable, sys.argv[1], "stdout", sys.argv[2]], memory_limit_mb=None)
for command in ("uci", "isready", "go movetime 1000"):
    engine.send(command)
started = time.perf_counter()
while (line := engine.read_line(3600)) is not None and not line.startswith("bestmove"):
    pass
seconds = time.perf_counter() - started
engine.kill()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, f"{seconds:.1f}")
"""

_FLOOD = """
import resource, sys, time
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.engines.errors import EngineTimeoutError
from xqdesk.engines.search_types import SearchLimits
from xqdesk.fen import STARTING_FEN
engine = UciEngine([sys.executable, sys.argv[1]])
engine.start()
engine.position(STARTING_FEN, [])
engine.go(SearchLimits(movetime=1.0))
started = time.monotonic()
infos = 0
def seen(_info):
    global infos
    infos += 1
try:
    engine.wait_bestmove(started + float(sys.argv[2]), seen)
    verdict = "answered"
except EngineTimeoutError:
    verdict = "forfeited"
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, f"{time.monotonic() - started:.1f}", infos, verdict)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bytes", type=int, default=1 << 30)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose xqdesk the hosts import")
    args = parser.parse_args()
    env_path = str(args.code.resolve())
    started = time.perf_counter()
    endless = subprocess.run([sys.executable, "-c", _ENDLESS, str(SCRIPTS / "endless_line_engine.py"), str(args.bytes)],
                             capture_output=True, text=True, cwd=env_path, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    if endless.returncode:
        print(endless.stderr[-2000:])
        return 1
    peak, seconds = endless.stdout.split()
    print(f"endless line of {args.bytes:,} bytes: host peak RSS {peak} MB, read in {seconds} s")
    flood = subprocess.run([sys.executable, "-c", _FLOOD, str(SCRIPTS / "flood_engine.py"), str(args.seconds)],
                           capture_output=True, text=True, cwd=env_path, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    if flood.returncode:
        print(flood.stderr[-2000:])
        return 1
    peak, seconds, infos, verdict = flood.stdout.split()
    print(f"info flood, deadline {args.seconds:g} s: {verdict} after {seconds} s, {int(infos):,} info lines read, "
          f"host peak RSS {peak} MB (total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
