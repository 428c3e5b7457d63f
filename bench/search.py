"""Built-in engine speed and tactics: prints figures, asserts nothing.

    python bench/search.py [--movetime 10] [--tactic-time 2] [--quick] [--depth N] [--suite-only]
        [--option NAME=VALUE ...]

1. Start-up: seconds to import and warm up the engine in a fresh process, and the latency of its
   first 1-second move; the move generator's speed compiled and with the JIT switched off
   (``NUMBA_DISABLE_JIT=1``), to show what the compiler buys.
2. A fixed suite of 24 positions (opening, middlegame and endgame positions from master games,
   plus three endgames): depth reached, nodes, nodes/s and best move within ``--movetime`` — or,
   with ``--depth N``, the nodes and time each position takes to reach depth N (nodes to depth do
   not depend on the machine's load, so they compare two builds' search trees; the process's CPU
   time is printed beside the wall time, since on a shared machine only it compares two builds'
   speed).
3. A tactical suite: 20 positions from master games where Fairy-Stockfish (depth 11, MultiPV 2)
   finds a capture or mate clearly better than any other move (by at least 2.5 pawns), plus 7
   composed mates (mate lengths confirmed by Fairy-Stockfish). Solved = the engine plays the expected move (or, for a
   mate, announces a mate at least as fast) within ``--tactic-time``.

``--suite-only`` skips parts 1 and 3; ``--option NAME=VALUE`` sets an engine option (``Threads=2``,
``Hash=16`` …) for parts 2 and 3.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.builtin.position import Position  # noqa: E402
from xqdesk.engines.hosted.in_process import apply_option  # noqa: E402
from xqdesk.engines.search_types import SearchInfo, SearchLimits  # noqa: E402
from xqdesk.fen import STARTING_FEN, parse_fen  # noqa: E402
from xqdesk.move import Move  # noqa: E402

SUITE = [
    ("opening", STARTING_FEN),
    ("opening", "1rbakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1B2C1/9/1R1AKABNR w - - 6 4"),
    ("opening", "rnbakabr1/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 6 4"),
    ("opening", "rnbakab2/8r/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4"),
    ("opening", "rnbakab1r/9/1c1c2n2/p1p1p3p/6p2/9/P1P1P1P1P/1C2B1NC1/9/RNBAKA1R1 w - - 6 4"),
    ("opening", "r1bakab1r/9/1cn2cn2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4"),
    ("opening", "1rbakabnr/9/2nc3c1/p1p1p1p1p/9/6P2/P1P1P3P/1C2B2C1/R8/1NBAKA1NR w - - 6 4"),
    ("opening", "rnbakabr1/9/4c1nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4"),
    ("middlegame", "2bakab2/9/2n5n/p1p1p3C/6p2/2P1c3P/P5c1N/C3B4/4A4/1N2KAB2 w - - 2 16"),
    ("middlegame", "1r2kab2/4a4/2n1b2c1/p1p1p3p/3c2pn1/1CPN5/P3P1P1P/2N1C4/5R3/2BAKAB2 w - - 1 16"),
    ("middlegame", "2bakab2/5r3/4c1n2/p1p1n1pRp/9/2P1p1P2/Pr2P3P/B2RN1N2/4A4/2C1KAB2 w - - 5 16"),
    ("middlegame", "2cak1b2/4a3r/2ncb1n2/p8/2p1C1p2/8P/P1P3P2/C1N1B1N2/9/1RBAKA3 w - - 1 16"),
    ("middlegame", "2baka3/2r6/cRn1b1n2/p3pR2p/2r6/5NP2/P3P1c1P/2NCC4/4A4/2BAK1B2 w - - 7 16"),
    ("middlegame", "2bak1b2/4a4/2nc2n2/p3p1p1p/2pr5/P1P3P2/4P3P/N2NBC3/4A4/2BAK1R2 w - - 4 16"),
    ("middlegame", "1rb1kab2/4a4/4c1n2/pC4p1C/2p6/6P2/P1P1P3c/2N1B4/4A4/1R2KAB2 w - - 3 16"),
    ("endgame", "4kab2/4a4/4b4/6P2/4n4/P1PN1p3/4c2n1/4B4/3CA2N1/3K1A3 w - - 5 36"),
    ("endgame", "3k1ab2/4a4/4b4/p6r1/1N1PC1n1p/4nRB2/P3N3c/4B4/4A4/3A1K3 w - - 2 36"),
    ("endgame", "2Rakab2/9/4c4/p2r4p/9/2p2RP2/P7P/B3B4/4A4/1r1CKA3 w - - 1 36"),
    ("endgame", "3ak1b2/4a4/2c1b1n2/2C6/3n2p2/2B1N3P/P5P2/4BN3/2p6/3AKA3 w - - 7 36"),
    ("endgame", "2r1ka3/4a4/6c2/p1C5p/7R1/3NR1P2/4P3P/9/6c2/2B1K3r w - - 15 36"),
    ("endgame", "2bak4/4a4/4b4/3r4p/P2CP4/6R1P/1n7/4B4/4A4/2BAK4 w - - 1 36"),
    ("endgame", "4kab2/4a4/3Cb2n1/9/9/P3C4/4P4/1r2B4/4A4/3NKAB2 w - - 0 36"),
    ("endgame", "3k5/9/9/9/9/9/9/9/4A4/3AK1R2 w - - 0 1"),
    ("endgame", "4ka3/9/4b4/9/9/9/2p6/9/4K4/3N5 w - - 0 1"),
]

# (fen, expected ICCS move, mate in N moves or None)
TACTICS = [
    ("4kab2/9/4ba3/p1CR1n1R1/7cp/4P4/Pr2C3P/4B4/9/1r1AK1B2 w - - 0 41", "c6f6", None),
    ("3ak1b2/4a2r1/2n1b2c1/pc2p3p/2pR5/6p2/P1P1PRn1P/N1C2CN1B/4A4/2BAK4 b - - 0 18", "c7d5", None),
    ("3ak1b2/4a4/4b4/9/3c5/2p1n4/P6R1/4NA3/3K2C2/1rB2A3 b - - 24 48", "b0c0", None),
    ("1r1akabR1/9/1cn1b1c1n/p3p1p1p/2p6/P5P2/2P1P3P/N1C1C1N2/9/R1BAKAB2 b - - 0 8", "i7h9", None),
    ("3ak1b2/4a4/4b1P2/pNp4Rp/9/1NP6/P2r1cp1n/4B4/4A4/2BAK4 w - - 6 31", "b4c6", None),
    ("4kab2/4a4/4b4/6Cn1/4cNp1p/n1P6/P7P/4B4/4A4/2BA1K3 w - - 0 26", "a3a4", None),
    ("2bakab2/9/r1n1c1n1c/p3p1p1p/3R5/2N1P1P2/P7P/2C1C1N2/9/2BAKABR1 b - - 0 13", "c7d5", None),
    ("4kab2/4a4/3r2n1c/p2C2p1p/4p4/1nN1c1P2/PR6P/B3C1N2/4A4/3AK1B2 w - - 7 21", "c4e5", None),
    ("3akab2/9/4c4/p2CN1p1p/3rN4/4R1P2/P7P/n3C4/4A4/3A1KB2 b - - 0 28", "d5d6", None),
    ("4kab2/9/3ac1N2/p2C2p1p/3r5/4R1P2/P1n5P/4C4/4A4/3A1KB2 w - - 0 31", "e4f4", 6),
    ("1rbaka2r/9/4b1n2/p3p3p/6p2/3R5/P1c1P3P/R1n1C1N2/9/2BAKAB2 w - - 0 16", "a2c2", None),
    ("2bak4/4a4/2n1b4/p1N1p3p/5r3/2P2C3/4P3P/4B2r1/1C2A4/1R2KARc1 b - - 0 23", "f5f4", None),
    ("2bak1r2/4a4/c1n1bcn2/p1p1p2Rp/6p2/2PN5/P3P1P1P/1r1CC1N2/9/2BAKAB2 w - - 0 11", "e2b2", None),
    ("2bak4/4a4/4bn3/8p/P1p1R4/4C4/4P3P/4B4/4A4/2BAK4 b - - 0 33", "f7e5", None),
    ("2bak4/4ac3/4b4/3R1N2P/9/6P2/9/B8/3pA4/4Kcr2 w - - 0 51", "d6d1", None),
    ("1Rbakabr1/9/2n1cCc1n/p1p1p3p/6p2/2P6/P3P1P1P/C1N3N2/9/2BAKAB1R b - - 0 8", "c7b9", None),
    ("1rbak4/1C1Ra1P2/4b1n2/3R5/1r7/p2p5/9/4B4/4A4/2B1KA3 w - - 11 41", "b8e8", None),
    ("4ka3/n1c1a4/c3b4/1rC1n1R1p/2P3b2/1p1N5/P3P3P/2RCB4/3rA4/2BAK4 w - - 0 26", "g6e6", None),
    ("4ka1r1/4a4/4R4/pr7/1n1Rpcp1C/P1B6/4P1P2/9/9/2B1K4 w - - 4 36", "i5f5", None),
    ("1Rbaka1r1/9/n2cb1nc1/p1p1p3p/6p2/P8/2P1P1P1P/N1C1C1N2/9/2BAKAB1R b - - 0 8", "a7b9", None),
    ("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b9", 1),
    ("4k4/4a4/3a5/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9", 1),
    ("3ak4/4a4/9/9/9/9/9/9/9/R3K3R w - - 0 1", "i0i9", 1),
    ("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9", 2),
    ("3aka3/9/9/9/9/9/9/9/9/R2K1R3 w - - 0 1", "a0a4", 2),
    ("4k4/9/9/9/4r4/9/4P4/4C4/9/3K5 w - - 0 1", "e3e4", 7),
    ("4k3r/9/9/7N1/9/9/9/9/9/3K5 w - - 0 1", "h6g8", 6),
]


def startup_figures() -> None:
    code = ("import time; t = time.perf_counter()\n"
            "from xqdesk.engines.builtin import BuiltinEngine\n"
            "from xqdesk.board import Board\n"
            "from xqdesk.engines.search_types import SearchLimits\n"
            "import threading\n"
            "engine = BuiltinEngine(); ready = time.perf_counter() - t\n"
            "t = time.perf_counter()\n"
            "engine.search(Board(), SearchLimits(movetime=1.0), threading.Event(), lambda info: None)\n"
            "print(f'{ready:.2f} {time.perf_counter() - t:.2f}')\n")
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    total = time.perf_counter() - started
    if result.returncode != 0:
        print(f"start-up measurement failed: {result.stderr.strip()[-300:]}")
        return
    ready, first = result.stdout.split()
    print(f"start-up: process + import + warm-up {ready} s (whole process {total:.2f} s, compiled code cached "
          f"on disk; the very first run after an install compiles for ~15-30 s); first 1 s move returned after {first} s")


def movegen_figures() -> None:
    fields = parse_fen(STARTING_FEN)
    position = Position(fields.codes, fields.turn)
    position.perft(2)
    started = time.perf_counter()
    leaves = position.perft(4)
    compiled = leaves / (time.perf_counter() - started)
    suite_leaves, suite_time = 0, 0.0
    for _kind, fen in SUITE[8:22]:
        fields = parse_fen(fen)
        position = Position(fields.codes, fields.turn)
        started = time.perf_counter()
        suite_leaves += position.perft(3)
        suite_time += time.perf_counter() - started
    print(f"move generator (legal moves, perft leaves): start position depth 4 {leaves:,} at {compiled:,.0f}/s; "
          f"middlegame/endgame suite depth 3 {suite_leaves:,} at {suite_leaves / suite_time:,.0f}/s")
    code = ("import time\nfrom xqdesk.fen import parse_fen, STARTING_FEN\n"
            "from xqdesk.engines.builtin.position import Position\n"
            "f = parse_fen(STARTING_FEN); p = Position(f.codes, f.turn)\n"
            "t = time.perf_counter(); n = p.perft(2); print(n / (time.perf_counter() - t))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    if result.returncode == 0:
        interpreted = float(result.stdout.strip())
        print(f"same generator interpreted (NUMBA_DISABLE_JIT=1): {interpreted:,.0f}/s "
              f"-> the JIT is {compiled / interpreted:,.0f}x faster")


def timed_search(engine: BuiltinEngine, fen: str, limits: SearchLimits
                 ) -> tuple[Optional[Move], list[SearchInfo], float]:
    """(best move, every info line, seconds) of one search of ``fen`` from a new game."""
    engine.new_game()
    infos: list[SearchInfo] = []
    started = time.perf_counter()
    move = engine.search(Board(fen), limits, threading.Event(), infos.append)
    return move, infos, time.perf_counter() - started


def run_suite(engine: BuiltinEngine, movetime: float) -> None:
    print(f"\nfixed suite, {movetime:g} s per position")
    print(f"{'#':>2} {'kind':<10} {'depth':>5} {'seld':>4} {'nodes':>11} {'nps':>9} {'time':>6} {'score':>7}  best")
    depths, speeds = [], []
    for number, (kind, fen) in enumerate(SUITE, start=1):
        move, infos, elapsed = timed_search(engine, fen, SearchLimits(movetime=movetime))
        last = infos[-1]
        nodes = max(info.nodes or 0 for info in infos)
        depths.append(last.depth)
        speeds.append(nodes / max(elapsed, 1e-9))
        print(f"{number:>2} {kind:<10} {last.depth:>5} {last.seldepth:>4} {nodes:>11,} {nodes / elapsed:>9,.0f} "
              f"{elapsed:>6.2f} {str(last.score):>7}  {move.iccs() if move else '-'}")
    print(f"median depth {statistics.median(depths):g} (min {min(depths)}, max {max(depths)}); "
          f"mean speed {statistics.mean(speeds):,.0f} nodes/s (counted over the whole move time)")


def run_depth_suite(engine: BuiltinEngine, depth: int) -> None:
    print(f"\nfixed suite, searched to depth {depth}")
    print(f"{'#':>2} {'kind':<10} {'nodes':>11} {'time':>7} {'cpu':>7} {'nps':>9} {'score':>7}  best")
    total_nodes, total_time, total_cpu = 0, 0.0, 0.0
    for number, (kind, fen) in enumerate(SUITE, start=1):
        cpu_started = time.process_time()
        move, infos, elapsed = timed_search(engine, fen, SearchLimits(depth=depth))
        cpu = time.process_time() - cpu_started
        nodes = max(info.nodes or 0 for info in infos)
        total_nodes += nodes
        total_time += elapsed
        total_cpu += cpu
        print(f"{number:>2} {kind:<10} {nodes:>11,} {elapsed:>7.2f} {cpu:>7.2f} {nodes / max(elapsed, 1e-9):>9,.0f} "
              f"{str(infos[-1].score):>7}  {move.iccs() if move else '-'}")
    print(f"total to depth {depth}: {total_nodes:,} nodes in {total_time:.1f} s, CPU {total_cpu:.1f} s "
          f"({total_nodes / max(total_time, 1e-9):,.0f} nodes/s, {total_nodes / max(total_cpu, 1e-9):,.0f} per CPU second)")


def run_tactics(engine: BuiltinEngine, budget: float) -> None:
    print(f"\ntactical suite, {budget:g} s per position")
    solved = 0
    for number, (fen, expected, mate_in) in enumerate(TACTICS, start=1):
        move, infos, elapsed = timed_search(engine, fen, SearchLimits(movetime=budget))
        last = infos[-1]
        mate = last.score.relative.mate() if last.score is not None else None
        found_mate = mate is not None and mate_in is not None and 0 < mate <= mate_in
        ok = move == Move.from_iccs(expected) or found_mate
        solved += ok
        print(f"{number:>2} {'solved' if ok else 'MISSED':<7} expected {expected}{f' (mate {mate_in})' if mate_in else '':<10} "
              f"played {move.iccs() if move else '-'} score {last.score} depth {last.depth} in {elapsed:.2f} s")
    print(f"tactics solved: {solved}/{len(TACTICS)} at {budget:g} s per position")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=10.0, help="seconds per suite position (default 10)")
    parser.add_argument("--tactic-time", type=float, default=2.0, help="seconds per tactical position (default 2)")
    parser.add_argument("--quick", action="store_true", help="1 s per suite position, 0.5 s per tactic")
    parser.add_argument("--depth", type=int, default=None, help="search the suite to this depth instead of a time")
    parser.add_argument("--suite-only", action="store_true", help="only the fixed suite (no start-up, no tactics)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, e.g. Threads=2 (repeatable)")
    args = parser.parse_args()
    if args.quick:
        args.movetime, args.tactic_time = 1.0, 0.5
    if not args.suite_only:
        startup_figures()
        movegen_figures()
    engine = BuiltinEngine()
    for option in args.option:
        name, _, value = option.partition("=")
        apply_option(engine, name.strip(), value.strip())
    engine.warm_up()  # as the engine host does before ``readyok``: the first position is not charged the load
    if args.depth is not None:
        run_depth_suite(engine, args.depth)
    else:
        run_suite(engine, args.movetime)
    if not args.suite_only:
        run_tactics(engine, args.tactic_time)
    return 0


if __name__ == "__main__":
    sys.exit(main())
