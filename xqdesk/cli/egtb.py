"""``xqdesk egtb build SIG… --out DIR`` and ``xqdesk egtb probe --dir DIR --fen FEN``.

``build`` solves the signatures (and every smaller one they capture into) and prints one line per
table. ``probe`` prints every legal move with its value, best first, and as its last line the
value for the side to move: ``win in N``, ``loss in N`` (plies to mate) or ``draw``.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from xqdesk.board import Board
from xqdesk.cli import report_error
from xqdesk.egtb import BuildReport, MissingTableError, Signature, SignatureError, Tablebase, build
from xqdesk.egtb.fileformat import TableFileError
from xqdesk.egtb.generate import LONG_MATE_PLIES
from xqdesk.egtb.signature import all_signatures
from xqdesk.errors import InvalidFenError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    make = actions.add_parser("build", help="build tables (and the smaller ones they need)",
                              description="Build endgame tables by retrograde analysis.")
    make.add_argument("signatures", nargs="*", metavar="SIG",
                      help="material signatures like KRKAABB (Red's general and pieces, then Black's)")
    make.add_argument("--out", required=True, help="directory for the .xqtb files")
    make.add_argument("--all", type=int, metavar="N", default=None,
                      help="also every signature with up to N pieces besides the generals")
    make.add_argument("--rebuild", action="store_true", help="rebuild the named tables even if present")
    probe = actions.add_parser("probe", help="the value and best moves of a position",
                               description="Probe a position in the tables of a directory.")
    probe.add_argument("--dir", required=True, help="directory holding the .xqtb files")
    probe.add_argument("--fen", required=True, help="the position")


def _print_report(report: BuildReport) -> None:
    counts = report.counts
    state = f"built in {report.seconds:.2f} s" if report.built else "kept"
    long_note = f", {report.long_mates} mates of {LONG_MATE_PLIES}+ plies" if report.long_mates else ""
    print(f"{report.signature}: {2 * report.entries} entries, {report.bytes} bytes, {state}; "
          f"win {counts['win']} loss {counts['loss']} draw {counts['draw']} illegal {counts['illegal']}; "
          f"longest mate {report.max_dtm} plies{long_note}", flush=True)


def run(args: argparse.Namespace) -> int:
    if args.action == "build":
        try:
            signatures = [Signature.parse(text) for text in args.signatures]
        except SignatureError as error:
            report_error(str(error), "egtb build")
            return 2
        if args.all is not None:
            signatures += all_signatures(args.all)
        if not signatures:
            report_error("name at least one signature (or --all N)", "egtb build")
            return 2
        try:
            build(signatures, Path(args.out), rebuild=args.rebuild, progress=_print_report)
        except (ValueError, OSError) as error:
            report_error(str(error), "egtb build")
            return 2
        return 0
    try:
        board = Board(args.fen)
        tablebase = Tablebase(args.dir)
        value = tablebase.probe(board)
        moves = tablebase.best_moves(board)
    except (InvalidFenError, FileNotFoundError, MissingTableError, TableFileError, ValueError) as error:
        report_error(str(error), "egtb probe")
        return 2
    for move, move_value in moves:
        print(f"{move.iccs()} {move_value}")
    if value.dtm is not None and value.dtm >= LONG_MATE_PLIES:
        report_error(f"a mate of {value.dtm} plies; the 120-ply capture-free rule may draw it first", label="note")
    print(value)
    return 0
