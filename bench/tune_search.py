"""Search tuning by SPSA: the built-in engine's search tunables against themselves; prints the values.

    python bench/tune_search.py --tune FUTILITY_MARGIN LMR_FIRST_MOVES [--iterations 200] [--nodes 20000]
        [--step 0.05] [--rate 0.002] [--seed 1]

The names, shipped values and ranges come from the tunables' table
(:mod:`xqdesk.engines.builtin.search_tunables`). Each iteration (Spall's simultaneous perturbation)
draws a sign ±1 for every tuned value, plays one opening of ``bench/openings.fen`` twice, colours
swapped, between the values moved a step up and a step down along those signs (step and rate are
shares of each value's range), and moves each value by ``rate · range · result · sign`` (result:
the upper side's wins minus losses over the pair). The step shrinks as ``k^-0.101`` and the rate as ``(k + A)^-0.602`` with
``A`` a tenth of the iterations. Both sides are the built-in engine in this process with a fixed
node budget per move, so the run does not depend on the machine's load. The values printed are a
candidate, not a result: keep them only after a fixed-node SPRT against the shipped ones
(``bench/strength.py --engine builtin:Tunables=… --opponents builtin``).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import OPENINGS  # noqa: E402
from tune_eval import play  # noqa: E402

from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.builtin.search_tunables import BY_NAME, Tunable  # noqa: E402


def option_text(tuned: list[Tunable], values: list[float]) -> str:
    """The ``Tunables`` option for ``values`` rounded and kept in range."""
    return " ".join(f"{tunable.name}={min(tunable.high, max(tunable.low, round(value)))}"
                    for tunable, value in zip(tuned, values))


def pair_result(plus: BuiltinEngine, minus: BuiltinEngine, fen: str, nodes: int) -> float:
    """``plus``'s wins minus losses over two games from ``fen``, colours swapped (unfinished: 0)."""
    total = 0.0
    for plus_is_red in (True, False):
        red, black = (plus, minus) if plus_is_red else (minus, plus)
        result = play(red, black, fen, nodes)
        if result is not None:
            total += 2 * (result if plus_is_red else 1.0 - result) - 1
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", nargs="+", required=True, metavar="NAME", help=f"tunables: {', '.join(BY_NAME)}")
    parser.add_argument("--iterations", type=int, default=200, help="game pairs (default 200)")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes per move (default 20000)")
    parser.add_argument("--step", type=float, default=0.05, help="first perturbation, share of each range")
    parser.add_argument("--rate", type=float, default=0.002, help="first learning rate, share of each range")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    unknown = [name for name in args.tune if name not in BY_NAME]
    if unknown:
        parser.error(f"no search tunable {', '.join(unknown)} (there are: {', '.join(BY_NAME)})")
    tuned = [BY_NAME[name] for name in args.tune]
    values = [float(tunable.value) for tunable in tuned]
    rng = random.Random(args.seed)
    plus, minus = BuiltinEngine(), BuiltinEngine()
    spans = [tunable.high - tunable.low for tunable in tuned]
    offset = args.iterations / 10
    for k in range(1, args.iterations + 1):
        step = args.step / k ** 0.101
        rate = args.rate * (1 + offset) ** 0.602 / (k + offset) ** 0.602
        signs = [rng.choice((-1, 1)) for _ in tuned]
        plus.set_option("Tunables", option_text(tuned, [v + step * s * w for v, s, w in zip(values, signs, spans)]))
        minus.set_option("Tunables", option_text(tuned, [v - step * s * w for v, s, w in zip(values, signs, spans)]))
        result = pair_result(plus, minus, OPENINGS[(k - 1) % len(OPENINGS)], args.nodes)
        values = [min(t.high, max(t.low, v + rate * w * result * s))
                  for t, v, s, w in zip(tuned, values, signs, spans)]
        if k % 10 == 0 or k == args.iterations:
            print(f"iteration {k}: {option_text(tuned, values)}  ({' '.join(f'{v:.2f}' for v in values)})", flush=True)
    print(f"candidate: Tunables={option_text(tuned, values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
