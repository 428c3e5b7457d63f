"""How often the ``zero`` network's policy alone (one simulation: its favourite legal move) plays
the master's move, on games held out of its training; prints figures only.

    python bench/zero_policy.py [--network FILE] [--games FILE…] [--holdout 10]

Held-out games are those ``xqdesk train data`` holds out with the same ``--holdout``: one game in N,
chosen by a checksum of its moves (``xqdesk.engines.training.tasks.is_held_out``), so training never
saw them. Chance is the mean of 1 / (number of legal moves) over the same positions.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.training.tasks import is_held_out  # noqa: E402
from xqdesk.engines.zero.encoding import mover_codes, planes_from_codes, policy_index  # noqa: E402
from xqdesk.engines.zero.engine import load_shipped_network  # noqa: E402
from xqdesk.engines.zero.network import Network  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402

DEFAULT_GAMES = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default=None, help="network file (default: the shipped one)")
    parser.add_argument("--games", nargs="+", default=[str(DEFAULT_GAMES)])
    parser.add_argument("--holdout", type=int, default=10)
    args = parser.parse_args()
    network = Network.load(args.network) if args.network else load_shipped_network()
    started = time.perf_counter()
    agree = positions = 0
    chance = 0.0
    for path in args.games:
        record = read_games(path)
        for index, game in enumerate(record.games, start=1):
            if index in record.damaged_game_numbers or not game.mainline_moves():
                continue
            if not is_held_out([move.iccs() for move in game.mainline_moves()], args.holdout):
                continue
            codes, legal_entries, played = [], [], []
            board = game.start_board()
            for move in game.mainline_moves():
                red = board.turn
                codes.append(mover_codes(np.array([board.code_at(sq) for sq in range(90)]), red))
                legal_entries.append([policy_index(m.from_square, m.to_square, red) for m in board.legal_moves])
                played.append(policy_index(move.from_square, move.to_square, red))
                board.push(move)
            logits, _ = network.forward(planes_from_codes(np.stack(codes)))
            for row, entries in enumerate(legal_entries):
                best = entries[int(np.argmax(logits[row, entries]))]
                agree += best == played[row]
                chance += 1 / len(entries)
                positions += 1
    print(f"held-out positions {positions} (one game in {args.holdout}): policy agrees with the master move "
          f"{100 * agree / positions:.1f}% (chance {100 * chance / positions:.1f}%) "
          f"[{time.perf_counter() - started:.0f} s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
