"""What the built-in engine's compiled parts cost per call: prints figures, asserts nothing.

    python bench/kernel_costs.py [--calls 20000] [--game FILE] [--number 4]

On ten positions of a master game (plies 10, 15 … 55 of game ``--number`` of ``--game``), each
part is called ``--calls`` times in a compiled loop, after a first untimed run that compiles it,
and the median over the positions of the time per call is printed: the static evaluation, move
generation (all moves and captures alone), one king-attack scan, one make/unmake of a move, and
SEE (``loses_material``) of a capture. Beside the search's nodes per second (``bench/search.py``,
per CPU second) they show where a node's time goes; what they leave over is the search's own
bookkeeping (calls, the table, draws and the perpetual-check trail, move ordering).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.builtin import board_kernel  # noqa: E402
from xqdesk.engines.builtin.eval_kernel import evaluate  # noqa: E402
from xqdesk.engines.builtin.exchange_kernel import loses_material  # noqa: E402
from xqdesk.engines.builtin.move_order_kernel import MOVE_TO_MASK  # noqa: E402
from xqdesk.engines.builtin.position import Position  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402

DEFAULT_GAME = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


@njit
def _evaluations(board, pos, psq, params, calls):
    total = 0
    for _ in range(calls):
        total += evaluate(board, pos, psq, params)
    return total


@njit
def _generations(board, side, out, calls, captures_only):
    total = 0
    for _ in range(calls):
        total += board_kernel.generate_moves(board, side, out, captures_only)
    return total


@njit
def _king_scans(board, side, king, calls):
    total = 0
    for _ in range(calls):
        total += board_kernel.is_attacked_king(board, side, king)
    return total


@njit
def _make_unmakes(board, pos, keys, clocks, psq, params, moves, count, rounds):
    for _ in range(rounds):
        for i in range(count):
            captured = board_kernel.make_move(board, pos, keys, clocks, psq, params, moves[i])
            board_kernel.unmake_move(board, pos, moves[i], captured)
    return rounds * count


@njit
def _exchanges(board, moves, count, rounds):
    total = 0
    for _ in range(rounds):
        for i in range(count):
            if board[moves[i] & MOVE_TO_MASK] != 0:
                total += loses_material(board, moves[i])
    return total


def _nanoseconds(run: Callable[[], object], per_run: int) -> float:
    run()  # compiles
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) / per_run * 1e9


def part_costs(position: Position, calls: int) -> dict[str, float]:
    """Nanoseconds per call of each part, in ``position``."""
    board, pos, psq, params = position.board, position.pos, position.psq, position.params
    side = int(pos[board_kernel.POS_SIDE])
    moves = np.zeros(board_kernel.MAX_MOVES, np.int64)
    count = board_kernel.generate_moves(board, side, moves, False)
    captures = sum(1 for move in moves[:count] if board[move & MOVE_TO_MASK] != 0)
    rounds = max(1, calls // count)
    king = int(board_kernel.king_square(pos, side))
    return {
        "evaluate": _nanoseconds(lambda: _evaluations(board, pos, psq, params, calls), calls),
        "generate all moves": _nanoseconds(lambda: _generations(board, side, moves.copy(), calls, False), calls),
        "generate captures": _nanoseconds(lambda: _generations(board, side, moves.copy(), calls, True), calls),
        "king-attack scan": _nanoseconds(lambda: _king_scans(board, side, king, calls), calls),
        "make + unmake a move": _nanoseconds(lambda: _make_unmakes(board, pos, position.keys, position.clocks, psq,
                                                                   params, moves, count, rounds), rounds * count),
        "SEE of a capture": _nanoseconds(lambda: _exchanges(board, moves, count, rounds), rounds * max(captures, 1)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000, help="calls of each part per position")
    parser.add_argument("--game", default=str(DEFAULT_GAME), help="the record the positions come from")
    parser.add_argument("--number", type=int, default=4, help="which game of the record (from 1)")
    args = parser.parse_args()
    nodes = read_games(args.game).games[args.number - 1].mainline()
    costs: dict[str, list[float]] = {}
    for node in nodes[10:60:5]:
        board = node.board()
        position = Position([board.code_at(sq) for sq in range(90)], board.turn)
        for name, cost in part_costs(position, args.calls).items():
            costs.setdefault(name, []).append(cost)
    print(f"median of {len(next(iter(costs.values())))} positions, {args.calls:,} calls each")
    for name, values in costs.items():
        print(f"{name:22s} {statistics.median(values):7.0f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
