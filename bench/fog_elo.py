"""Fog-of-war agents: a round robin and an Elo table, as the darkchess seed's results table.

    python bench/fog_elo.py [--games 100] [--jobs 2] [--agents NAME …] [--json OUT.json]

Every pair of agents plays ``--games`` games from the start position, colours alternating, each
agent with its own seed per game. Games are independent tasks over plain values, run in ``--jobs``
worker processes. It prints each pair's result (wins/draws/losses of the first-named, its score
and the Elo difference with a 95% interval), then the Elo table: ratings fitted to all games at
once (maximum likelihood, fog-random = 0, one virtual draw per pair so a clean sweep stays finite)
with 95% intervals, games, score, average plies and the average time per move.

The default agents run at fast settings: the belief agents search each board to 2 plies.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.engines.contests.elo import elo_difference, fit_ratings, rating_intervals  # noqa: E402
from xqdesk.engines.fog import make_agent  # noqa: E402
from xqdesk.engines.fog.referee import AgentSeat, play_fog_game  # noqa: E402

BELIEF_FAST = {"Samples": "8", "Sample Depth": "2", "Sample Time": "0"}
AGENTS: dict[str, tuple[str, dict[str, str]]] = {
    "fog-random": ("fog-random", {}),
    "fog-greedy": ("fog-greedy", {}),
    "greedy-conservative": ("fog-greedy", {"Conservative": "true"}),
    "greedy-preservative": ("fog-greedy", {"Preservative": "true"}),
    "fog-ubsa": ("fog-ubsa", dict(BELIEF_FAST)),
    "fog-pbsa": ("fog-pbsa", {"Particles": "64", **BELIEF_FAST}),
}
"""Name -> (agent kind, options) at the fast settings of the published table."""


@dataclass(frozen=True)
class Task:
    """One game: agent names for Red and Black and their seeds."""

    number: int
    red: str
    black: str


def play(task: Task) -> dict[str, Any]:
    """Play one game; its result as plain values."""
    agents = []
    for offset, name in enumerate((task.red, task.black)):
        kind, options = AGENTS[name]
        agents.append(make_agent(kind, {**options, "Seed": str(2 * task.number + offset)}))
    record = play_fog_game(AgentSeat(agents[0]), AgentSeat(agents[1]))
    times = record.move_times
    return {"red": task.red, "black": task.black, "winner": record.outcome.winner,
            "text": record.outcome.text, "plies": len(record.moves),
            "red_times": list(times[0::2]), "black_times": list(times[1::2])}


def schedule(names: list[str], games: int) -> list[Task]:
    """Every pair ``games`` times, the first-named taking Red in the pair's even games; pairs
    interleaved so partial runs cover every pair."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    tasks: list[Task] = []
    for game in range(games):
        for a, b in pairs:
            red, black = (a, b) if game % 2 == 0 else (b, a)
            tasks.append(Task(len(tasks) + 1, red, black))
    return tasks


def report(names: list[str], results: list[dict[str, Any]], elapsed: float) -> dict[str, Any]:
    index = {name: i for i, name in enumerate(names)}
    pair_games: list[tuple[int, int, float]] = []
    tallies: dict[tuple[str, str], list[int]] = {}
    times: dict[str, list[float]] = {name: [] for name in names}
    plies: dict[str, list[int]] = {name: [] for name in names}
    for result in results:
        red, black, winner = result["red"], result["black"], result["winner"]
        score = 0.5 if winner is None else 1.0 if winner else 0.0
        pair_games.append((index[red], index[black], score))
        first, second = sorted((red, black), key=index.__getitem__)
        tally = tallies.setdefault((first, second), [0, 0, 0])
        first_score = score if first == red else 1.0 - score
        tally[0 if first_score == 1.0 else 1 if first_score == 0.5 else 2] += 1
        times[red] += result["red_times"]
        times[black] += result["black_times"]
        plies[red].append(result["plies"])
        plies[black].append(result["plies"])
    print("\nPairs (results of the first-named):")
    pairs_out = []
    for (first, second), (wins, draws, losses) in sorted(tallies.items(),
                                                         key=lambda item: (index[item[0][0]], index[item[0][1]])):
        games = wins + draws + losses
        estimate = elo_difference(wins, draws, losses)
        elo = "Elo n/a (one side won every game)" if estimate.difference is None else str(estimate)
        print(f"  {first:>20} vs {second:<20} +{wins} ={draws} -{losses}  "
              f"{100 * (wins + draws / 2) / games:5.1f}%  {elo}")
        pairs_out.append({"first": first, "second": second, "wins": wins, "draws": draws, "losses": losses})
    anchor = index.get("fog-random", 0)
    ratings = fit_ratings(pair_games, len(names), anchor=anchor)
    intervals = rating_intervals(pair_games, len(names), anchor=anchor)
    rows: list[dict[str, Any]] = []
    for name in names:
        i = index[name]
        own = [g for g in pair_games if i in (g[0], g[1])]
        points = sum(g[2] if g[0] == i else 1.0 - g[2] for g in own)
        rows.append({"agent": name, "elo": ratings[i], "low": intervals[i][0], "high": intervals[i][1],
                     "games": len(own), "score": points / len(own) if own else 0.0,
                     "plies": sum(plies[name]) / max(len(plies[name]), 1),
                     "ms_per_move": 1000 * sum(times[name]) / max(len(times[name]), 1)})
    rows.sort(key=lambda row: -row["elo"])
    print("\n| agent | Elo | 95% interval | games | score | avg plies | avg time per move |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['agent']} | {row['elo']:+.0f} | {row['low']:+.0f} .. {row['high']:+.0f} | {row['games']} "
              f"| {100 * row['score']:.1f}% | {row['plies']:.0f} | {row['ms_per_move']:.1f} ms |")
    print(f"\n{len(results)} games in {elapsed:.0f} s")
    return {"pairs": pairs_out, "table": rows, "games": len(results), "seconds": elapsed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), choices=list(AGENTS))
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()
    tasks = schedule(args.agents, args.games)
    started = time.perf_counter()
    results = []
    with multiprocessing.Pool(args.jobs) as pool:
        for done, result in enumerate(pool.imap_unordered(play, tasks), start=1):
            results.append(result)
            if done % 50 == 0 or done == len(tasks):
                print(f"{done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    summary = report(args.agents, results, time.perf_counter() - started)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
