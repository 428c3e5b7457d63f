"""How often the ``zero`` network's policy alone (one simulation: its favourite legal move) plays
the master's move, and how far its value is from the game's result, on games held out of its
training; prints figures only.

    python bench/zero_policy.py [--network FILE…] [--games FILE…] [--holdout 10] [--max-games N]
        [--exclude-games FILE…] [--mirror]

Held-out games are those ``xqdesk train data`` holds out with the same ``--holdout``: one game in N,
chosen by a checksum of its moves (``xqdesk.engines.training.tasks.is_held_out``), so training never
saw them. A ``.xz`` file is read as xz-compressed PGN (the CCPD master collection). The same game
recorded twice with a different ending has another checksum, and a network may have been
trained with another hold-out rule (the first shipped one held out every 10th game of its file):
``--exclude-games`` leaves out a held-out game whose first :data:`SAME_GAME_PLIES` plies are
those of any game of these files (the files some network trained on). ``--max-games`` keeps the
first N held-out games.
Several networks are measured on the same positions. Chance is the mean of 1 / (number of legal
moves) over the same positions; the interval is the 95% Wilson interval of the agreement
(positions of one game are not independent, so it is a little narrow). The value error is the mean
squared difference between the value head's output and the game's result from the mover's view (1 a
win, 0 a draw, -1 a loss), over the positions of the games whose result is known: what ``train
zero`` reports as the held-out value loss. The priors (the softmax of the legal moves' logits, as
the search takes them) are summed up by their mean entropy, in nats (how spread they are: a search
explores less under sharper priors), and the mean of −log of the master move's prior (what
training lowers). ``--mirror`` reads each position both ways (as it
stands and mirrored between the files) and takes the mean, as the engine plays with its ``Mirror``
option (off by default).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Iterator

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.training.tasks import is_held_out  # noqa: E402
from xqdesk.engines.zero.encoding import mover_codes, policy_index  # noqa: E402
from xqdesk.engines.zero.engine import load_shipped_network, network_outputs  # noqa: E402
from xqdesk.engines.zero.network import Network  # noqa: E402
from xqdesk.game import Game  # noqa: E402
from xqdesk.opening_book import undamaged_games  # noqa: E402
from xqdesk.position_index import game_result  # noqa: E402

DEFAULT_GAMES = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
SAME_GAME_PLIES = 40


def games_of(path: str) -> Iterator[Game]:
    """The undamaged games of a record file, or of an ``.xz`` PGN collection, streamed."""
    yield from undamaged_games(Path(path), [])


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if total == 0:
        return math.nan, math.nan
    p = hits / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", nargs="+", default=[None], help="network files (default: the shipped one)")
    parser.add_argument("--games", nargs="+", default=[str(DEFAULT_GAMES)])
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--max-games", type=int, default=None, metavar="N", help="the first N held-out games only")
    parser.add_argument("--exclude-games", nargs="+", default=[], metavar="FILE",
                        help="leave out held-out games that begin as a game of these files")
    parser.add_argument("--mirror", action="store_true",
                        help="read each position both ways and take the mean, as the engine's Mirror option does")
    args = parser.parse_args()
    networks = [(name or "shipped", Network.load(name) if name else load_shipped_network()) for name in args.network]
    started = time.perf_counter()
    trained_on = {known[:SAME_GAME_PLIES] for path in args.exclude_games for game in games_of(path)
                  if len(known := tuple(move.iccs() for move in game.mainline_moves())) >= SAME_GAME_PLIES}
    agree = [0] * len(networks)
    squared_error = [0.0] * len(networks)
    entropy = [0.0] * len(networks)
    surprise = [0.0] * len(networks)
    positions = games = excluded = valued = 0
    chance = 0.0
    for path in args.games:
        for game in games_of(path):
            moves = [move.iccs() for move in game.mainline_moves()]
            if not moves or not is_held_out(moves, args.holdout):
                continue
            if args.max_games is not None and games >= args.max_games:
                break
            if len(moves) >= SAME_GAME_PLIES and tuple(moves[:SAME_GAME_PLIES]) in trained_on:
                excluded += 1
                continue
            games += 1
            codes, legal_entries, played, red_to_move = [], [], [], []
            board = game.start_board()
            for move in game.mainline_moves():
                red = board.turn
                codes.append(mover_codes(np.array([board.code_at(sq) for sq in range(90)]), red))
                legal_entries.append([policy_index(m.from_square, m.to_square, red) for m in board.legal_moves])
                played.append(policy_index(move.from_square, move.to_square, red))
                red_to_move.append(red)
                board.push(move)
            position_codes = np.stack(codes)
            red_result = game_result(game)
            mover_results = None if red_result is None else np.where(red_to_move, red_result, -red_result)
            for number, (_, network) in enumerate(networks):
                logits, values = network_outputs(network, position_codes, args.mirror)
                for row, entries in enumerate(legal_entries):
                    legal = logits[row, entries]
                    agree[number] += entries[int(np.argmax(legal))] == played[row]
                    log_priors = legal - legal.max()
                    log_priors -= math.log(float(np.exp(log_priors).sum()))
                    entropy[number] -= float(np.exp(log_priors) @ log_priors)
                    surprise[number] -= float(log_priors[entries.index(played[row])])
                if mover_results is not None:
                    squared_error[number] += float(np.sum((values - mover_results) ** 2))
            valued += 0 if mover_results is None else len(mover_results)
            chance += sum(1 / len(entries) for entries in legal_entries)
            positions += len(legal_entries)
    print(f"held-out games {games} (one game in {args.holdout}{f', {excluded} left out as trained on' if excluded else ''}), "
          f"positions {positions}, chance {100 * chance / max(positions, 1):.1f}% "
          f"[{time.perf_counter() - started:.0f} s]")
    for (name, _), hits, error, spread, lost in zip(networks, agree, squared_error, entropy, surprise):
        low, high = wilson(hits, positions)
        value = (f"value error {error / valued:.3f} over the {valued} positions of games with a result" if valued
                 else "no game has a result: no value error")
        print(f"{name}: policy agrees with the master move {100 * hits / max(positions, 1):.1f}% "
              f"(95% interval {100 * low:.1f}–{100 * high:.1f}%); {value}; priors' entropy "
              f"{spread / max(positions, 1):.3f} nats, master move's -log prior {lost / max(positions, 1):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
