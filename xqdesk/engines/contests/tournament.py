"""Round-robin tournaments: every pair of contestants plays a few games with alternating colours;
the standings rank by points (win 1, draw ½), then by wins."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

from xqdesk.engines.contests.match import PlayedGame, ScheduledGame, Tally, tally


def round_robin_schedule(contestants: int, games_per_pair: int) -> list[ScheduledGame]:
    """Every pair plays ``games_per_pair`` games, the lower index taking Red in the pair's odd games."""
    if contestants < 2:
        raise ValueError(f"a tournament needs at least two contestants, got {contestants!r}")
    if games_per_pair < 1:
        raise ValueError(f"each pair must play at least one game, got {games_per_pair!r}")
    schedule = []
    number = 1
    for first, second in itertools.combinations(range(contestants), 2):
        for game in range(games_per_pair):
            red, black = (first, second) if game % 2 == 0 else (second, first)
            schedule.append(ScheduledGame(number, red, black))
            number += 1
    return schedule


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    tally: Tally


def standings(names: Sequence[str], played: Sequence[PlayedGame]) -> list[Standing]:
    """The table, best first (ties share a rank)."""
    tallies = [(name, tally(played, index)) for index, name in enumerate(names)]
    tallies.sort(key=lambda item: (-item[1].points, -item[1].wins, item[0]))
    table: list[Standing] = []
    for position, (name, result) in enumerate(tallies, start=1):
        previous = table[-1] if table else None
        tied = previous is not None and (previous.tally.points, previous.tally.wins) == (result.points, result.wins)
        table.append(Standing(previous.rank if tied and previous else position, name, result))
    return table


def format_standings(table: Sequence[Standing]) -> str:
    """A plain-text table: rank, name, games, points, wins, draws, losses, score."""
    width = max([len("Engine")] + [len(row.name) for row in table])
    lines = [f"{'Rank':>4}  {'Engine':<{width}}  {'Games':>5}  {'Points':>6}  {'W':>3}  {'D':>3}  {'L':>3}  {'Score':>6}"]
    for row in table:
        games = row.tally.games
        score = f"{100 * row.tally.points / games:.1f}%" if games else "-"
        lines.append(f"{row.rank:>4}  {row.name:<{width}}  {games:>5}  {row.tally.points:>6.1f}  "
                     f"{row.tally.wins:>3}  {row.tally.draws:>3}  {row.tally.losses:>3}  {score:>6}")
    return "\n".join(lines)
