"""Endgame tablebases: generation speed, sizes, and a verification run.

Run: ``python bench/egtb.py --out DIR [--set NAME | SIG …] [--check N] [--fairy N]``.

- builds the tables (every capture target first; tables already in DIR are kept and reported with
  the time they took when built) and prints, per table, the entries (positions × 2 sides to move),
  the seconds, entries per second, the file size, the longest mate and the mates of 120+ plies;
- ``--check N``: N random entries of every table agree with their moves under the core rules
  (``all``: every entry — slow, pure Python);
- ``--fairy N``: N random positions per table (wins and losses of 1..15 plies, and draws) checked
  against Fairy-Stockfish's depth-limited search (losses move by move).

Sets: ``small`` (every signature with up to 2 pieces besides the generals), ``classic`` (one
attacking piece against every advisor/elephant defence, and the textbook endings named in the
README), ``scope`` (small + classic + every 3-piece signature of at most 20 million entries),
``all3`` (every signature with up to 3 pieces — about 2.3 billion entries).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from xqdesk.egtb import BuildReport, Signature, Tablebase, build
from xqdesk.egtb.layout import Layout
from xqdesk.egtb.signature import all_signatures, build_order
from xqdesk.egtb.verify import check_table

DEFENCES = ("", "A", "AA", "B", "BB", "AB", "AAB", "ABB", "AABB")
CLASSIC_EXTRA = ("KCPKAB", "KCPKAA", "KCPKBB", "KHPKA", "KHPKB", "KHPKAB", "KRPKAB", "KRKHA", "KRKCA", "KRKHB",
                 "KRKCB", "KHKHA", "KPPKA", "KPPKB", "KCAKA", "KCAKB",
                 "KHHKAA", "KHCKAA", "KHPKAA", "KCCKAA", "KPPKAA", "KHHKBB", "KHCKBB", "KHPKBB", "KCCKBB", "KPPKBB",
                 "KHHKAB", "KHCKAB", "KCCKAB")
MAX_SCOPE_ENTRIES = 20_000_000


def named_set(name: str) -> list[Signature]:
    """The signatures of a set (see the module docstring)."""
    small = all_signatures(2)
    classic = [Signature.parse(f"K{a}K{d}") for a in "RHCP" for d in DEFENCES] + [Signature.parse(s) for s in CLASSIC_EXTRA]
    if name == "small":
        return small
    if name == "classic":
        return classic
    if name == "scope":
        three = [s for s in all_signatures(3) if s.piece_count() == 3 and 2 * Layout(s).size <= MAX_SCOPE_ENTRIES]
        return small + classic + three
    if name == "all3":
        return all_signatures(3)
    raise SystemExit(f"unknown set {name!r} (small, classic, scope, all3)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("signatures", nargs="*")
    parser.add_argument("--out", required=True)
    parser.add_argument("--set", default=None)
    parser.add_argument("--check", default="0", help="entries per table checked against the core rules, or 'all'")
    parser.add_argument("--fairy", type=int, default=0, help="positions per table checked against Fairy-Stockfish")
    args = parser.parse_args()
    signatures = [Signature.parse(s) for s in args.signatures] + (named_set(args.set) if args.set else [])
    if not signatures:
        parser.error("name signatures or a --set")
    order = build_order(signatures)
    print(f"{len(order)} tables, {sum(2 * Layout(s).size for s in order):,} entries", flush=True)
    started = time.perf_counter()
    reports: list[BuildReport] = []

    def show(report: BuildReport) -> None:
        reports.append(report)
        entries = 2 * report.entries
        rate = entries / report.seconds if report.seconds > 0 else float("inf")
        print(f"{report.signature:10s} {entries:>12,} entries {report.seconds:8.2f} s {rate:>12,.0f}/s "
              f"{report.bytes:>11,} bytes  longest mate {report.max_dtm:3d}  120+ plies {report.long_mates:,}"
              f"{'' if report.built else '  (kept)'}", flush=True)

    build(signatures, Path(args.out), progress=show)
    wall = time.perf_counter() - started
    entries = sum(2 * r.entries for r in reports)
    seconds = sum(r.seconds for r in reports)
    size = sum(r.bytes for r in reports)
    print(f"total: {len(reports)} tables, {entries:,} entries, {size:,} bytes on disk, "
          f"{seconds:.1f} s of generation ({entries / max(seconds, 1e-9):,.0f} entries/s); this run {wall:.1f} s")

    tablebase = Tablebase(args.out)
    if args.check != "0":
        sample = None if args.check == "all" else int(args.check)
        checked_total, faults_total = 0, 0
        for report in reports:
            checked, faults = check_table(tablebase, Signature.parse(report.signature), sample=sample)
            checked_total += checked
            faults_total += len(faults)
            for fault in faults[:5]:
                print(f"  FAULT {report.signature}: {fault}")
        print(f"core-rules check: {checked_total:,} entries, {faults_total} faults")
    if args.fairy:
        from xqdesk.engines.analysis.tablebase_check import CONTRADICTION, MateChecker, sample_positions
        fairy = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
        if not Path(fairy).is_file():
            print("Fairy-Stockfish is not installed: no --fairy check", file=sys.stderr)
            return 1
        total, bad, contradictions = 0, 0, 0
        with MateChecker([fairy]) as checker:
            for report in reports:
                share = args.fairy // 3
                positions = sample_positions(tablebase, report.signature, wins=args.fairy - 2 * share,
                                             losses=share, draws=share, seed=1)
                faults = [f for fen, dtm in positions if (f := checker.check(tablebase, fen, dtm))]
                total += len(positions)
                bad += len(faults)
                contradictions += sum(fault.startswith(CONTRADICTION) for fault in faults)
                print(f"  {report.signature:10s} {len(positions):4d} positions checked, {len(faults)} disagree", flush=True)
                for fault in faults[:3]:
                    print(f"    {fault}")
        print(f"Fairy-Stockfish check: {total} positions, {bad} disagree ({contradictions} contradictions, "
              f"{bad - contradictions} mates the engine did not find in its time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
