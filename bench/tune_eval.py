"""Evaluation tuning by self-play: the shipped weights against a variant; prints the variant's score.

    python bench/tune_eval.py --set hollow_cannon=40 missing_defender=12 [--nodes 20000] [--pairs 7]
    python bench/tune_eval.py --weights fitted.json [--base other.json] …

``--weights`` takes the variant's tables and weights from a weights file (``eval_tables``' JSON
format, e.g. written by ``bench/texel.py``); ``--base`` replaces the shipped weights as the reference.

Both sides are the built-in engine in this process with a fixed node budget per move (so the result
does not depend on the machine's load), playing each master-game opening of ``bench/strength.py``
twice with colours swapped. A variant is kept when it scores clearly above 50% over enough games.
"""
from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import OPENINGS  # noqa: E402

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.builtin.eval_tables import TERM_WEIGHTS, WEIGHTS, read_weights  # noqa: E402
from xqdesk.engines.contests.elo import elo_difference  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.pieces import RED  # noqa: E402

MAX_PLIES = 300


def play(red: BuiltinEngine, black: BuiltinEngine, fen: str, nodes: int) -> float | None:
    """Red's result (1, ½, 0), or None when the game reached MAX_PLIES undecided."""
    board = Board(fen)
    red.new_game()
    black.new_game()
    while len(board.move_stack) < MAX_PLIES:
        outcome = board.outcome()
        if outcome is not None:
            return 0.5 if outcome.winner is None else float(outcome.winner == RED)
        engine = red if board.turn == RED else black
        move = engine.search(board, SearchLimits(nodes=nodes), threading.Event(), lambda info: None)
        if move is None or not board.is_legal(move):
            return 0.0 if board.turn == RED else 1.0
        board.push(move)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE",
                        help=f"variant term weights (both phases); names: {', '.join(TERM_WEIGHTS)}")
    parser.add_argument("--weights", default=None, metavar="JSON", help="the variant's weights file")
    parser.add_argument("--base", default=None, metavar="JSON", help="the reference's weights file")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes per move (default 20000)")
    parser.add_argument("--pairs", type=int, default=len(OPENINGS), help="opening pairs to play")
    args = parser.parse_args()
    changes = {}
    for item in args.set:
        name, _, value = item.partition("=")
        changes[name] = int(value)
    base = read_weights(Path(args.base)) if args.base else WEIGHTS
    shipped = BuiltinEngine(base)
    variant = BuiltinEngine((read_weights(Path(args.weights)) if args.weights else base).with_terms(changes))
    wins = draws = losses = unfinished = 0
    for index in range(args.pairs):
        fen = OPENINGS[index % len(OPENINGS)]
        for variant_is_red in (True, False):
            red, black = (variant, shipped) if variant_is_red else (shipped, variant)
            result = play(red, black, fen, args.nodes)
            if result is None:
                unfinished += 1
                continue
            variant_result = result if variant_is_red else 1.0 - result
            wins += variant_result == 1.0
            draws += variant_result == 0.5
            losses += variant_result == 0.0
    games = wins + draws + losses
    score = (wins + 0.5 * draws) / games if games else 0.0
    name = " ".join(filter(None, [args.weights, str(changes) if changes else ""])) or "shipped"
    print(f"variant {name} vs {args.base or 'shipped'} at {args.nodes} nodes/move: +{wins} ={draws} -{losses} "
          f"({unfinished} unfinished) score {100 * score:.1f}%  {elo_difference(wins, draws, losses)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
