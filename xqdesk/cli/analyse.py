"""``xqdesk analyse --engine SPEC --fen FEN``: let an engine think about a position and print what
it reports (depth, score, nodes, speed, principal variations), then its best move."""
from __future__ import annotations

import argparse
import sys
import time
from typing import Optional

from xqdesk.cli import positive_float, positive_int
from xqdesk.cli.protocol_log import add_log_argument
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", required=True, metavar="SPEC", help="the engine (see 'xqdesk match')")
    parser.add_argument("--fen", default=None, help="the position (default: the start position)")
    parser.add_argument("--moves", nargs="*", default=(), metavar="MOVE",
                        help="ICCS moves played from the FEN before analysing")
    parser.add_argument("--movetime", type=positive_float, default=2.0, metavar="S", help="thinking time (default 2)")
    parser.add_argument("--depth", type=positive_int, default=None, help="stop at this depth instead")
    parser.add_argument("--multipv", type=int, default=1, metavar="K", help="principal variations (default 1)")
    parser.add_argument("--notation", choices=("iccs", "wxf", "chinese"), default="iccs",
                        help="how to write the variations (default iccs)")
    parser.add_argument("--score-view", choices=("mover", "red"), default="mover",
                        help="print scores from the side to move's view, as engines give them, or from "
                             "Red's (default mover)")
    parser.add_argument("--engines", default=None, metavar="FILE", help="JSON engines file for named engines")
    add_log_argument(parser)
    parser.add_argument("--memory-limit", type=int, default=None, metavar="MB",
                        help="address-space cap of the engine process in MiB (default 2048)")


def run(args: argparse.Namespace) -> int:
    from xqdesk.board import Board
    from xqdesk.engines.errors import EngineError
    from xqdesk.engines.registry import engine_spec
    from xqdesk.engines.search_types import SearchInfo, SearchLimits
    from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB
    from xqdesk.fen import STARTING_FEN
    from xqdesk.notation import Notation, format_line
    from xqdesk.pieces import RED, side_name

    notation = Notation(args.notation)
    try:
        board = Board(args.fen or STARTING_FEN)
        for text in args.moves:
            board.push_iccs(text)
    except ValueError as error:
        print(f"xqdesk: {error}", file=sys.stderr)
        return 2
    over = board.outcome()
    if over is not None:
        print(f"The game is over in this position: {over.text}")
        return 0
    if args.multipv < 1:
        print(f"xqdesk: --multipv must be at least 1, got {args.multipv}", file=sys.stderr)
        return 2
    limits = SearchLimits(movetime=None if args.depth else args.movetime, depth=args.depth, multipv=args.multipv)
    engine = None
    try:
        spec = engine_spec(args.engine, args.engines)
        engine = spec.open(memory_limit_mb=args.memory_limit or DEFAULT_MEMORY_LIMIT_MB)
        identity = engine.identity
        print(f"Engine: {printable(identity.name or spec.name)} ({identity.protocol_name})  Position: {board.fen()}")
        if args.multipv > 1:
            if any(name.lower() == "multipv" for name in identity.options):
                engine.set_option("MultiPV", str(args.multipv))
            else:
                print("The engine offers no MultiPV option: one line")
        view = RED if args.score_view == "red" else board.turn
        print(f"Scores from {side_name(view)}'s view"
              + (" (the side to move)" if view == board.turn else ""))
        engine.new_game()

        counted: dict[str, Optional[int]] = {"nodes": None, "time_ms": None}

        def show(info: SearchInfo) -> None:
            if info.nodes is not None:  # ElephantEye says nodes and time on a line of their own, before its pv
                counted.update(nodes=info.nodes, time_ms=info.time_ms)
            if info.depth is None or not info.pv:
                return
            nodes = info.nodes if info.nodes is not None else counted["nodes"]
            time_ms = info.time_ms if info.nodes is not None else counted["time_ms"]
            nps = info.nps or (nodes * 1000 // time_ms if nodes and time_ms else None)
            try:
                line = " ".join(format_line(board, info.pv, notation))
            except ValueError:
                line = " ".join(move.iccs() for move in info.pv) + "  (not legal here)"
            speed = f"{nps // 1000} kn/s" if nps else ""
            score = str(info.score.pov(view)) if info.score is not None else "?"
            print(f"  pv {info.multipv} depth {info.depth:>2}  score {score:>7}  "
                  f"nodes {nodes if nodes is not None else '-':>9}  {speed:>10}  {line}", flush=True)

        budget = (args.movetime if not args.depth else 600.0) + 5.0
        result = engine.search(board.start_fen, board.move_stack, limits, time.monotonic() + budget, show)
    except (EngineError, ValueError) as error:
        print(printable(f"xqdesk: {error}", keep_newlines=True), file=sys.stderr)
        return 2
    finally:
        if engine is not None:
            engine.quit()
    if result.move is None:
        print(printable(f"No best move ({result.best.text!r}){': ' + result.error if result.error else ''}"))
        return 1
    if result.asked_again:
        print("The engine answered nobestmove (it judged the position drawn); asked again without the history")
    if result.best.offer is not None:
        print("The engine offers a draw" if result.best.offer == "draw" else "The engine would resign")
    verdict = "" if board.is_legal(result.move) else "  (not legal in this position!)"
    written = format_line(board, [result.move], notation)[0] if not verdict else result.move.iccs()
    print(f"Best move: {written}{verdict}")
    return 0
