"""Round-robin tournaments: every pair of contestants plays a few games with alternating colours;
the standings rank by points (win 1, draw ½), then by wins, and give each contestant's Elo
against the field with its 95% interval (as cutechess-cli's standings do)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from xqdesk.engines.contests.elo import EloEstimate, elo_difference
from xqdesk.engines.contests.match import PlayedGame, ScheduledGame, Tally, tally
from xqdesk.formats.openings import Opening


def round_robin_schedule(contestants: int, games_per_pair: int, openings: Optional[Iterable[Opening]] = None,
                         repeat: int = 2) -> list[ScheduledGame]:
    """Every pair plays ``games_per_pair`` games, the lower index taking Red in the pair's odd games.
    With ``openings``, every pair plays the same openings: its games take them in turn, each
    ``repeat`` times (colours swapped with ``repeat`` 2)."""
    if contestants < 2:
        raise ValueError(f"a tournament needs at least two contestants, got {contestants!r}")
    if games_per_pair < 1:
        raise ValueError(f"each pair must play at least one game, got {games_per_pair!r}")
    if repeat < 1:
        raise ValueError(f"each opening is played at least once, got repeat={repeat!r}")
    starts: list[Optional[Opening]] = [None] * games_per_pair
    if openings is not None:
        source = iter(openings)
        drawn = [next(source) for _ in range((games_per_pair + repeat - 1) // repeat)]
        starts = [drawn[game // repeat] for game in range(games_per_pair)]
    schedule = []
    number = 1
    pair = 0
    for first, second in itertools.combinations(range(contestants), 2):
        for game in range(games_per_pair):
            red, black = (first, second) if game % 2 == 0 else (second, first)
            schedule.append(ScheduledGame(number, red, black, starts[game],
                                          pair + game // 2 if repeat == 2 else None))
            number += 1
        pair += (games_per_pair + 1) // 2
    return schedule


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    tally: Tally

    @property
    def elo(self) -> EloEstimate:
        """The Elo difference to the field this result gives, with its 95% interval."""
        return elo_difference(self.tally.wins, self.tally.draws, self.tally.losses)


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


def unique_names(names: Sequence[str]) -> list[str]:
    """Names made unique with #2, #3 … (the same engine may enter twice)."""
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return result


def crosstable(count: int, played: Sequence[PlayedGame]) -> list[list[Optional[float]]]:
    """``table[a][b]``: the points contestant ``a`` scored against ``b`` over ``played`` (None:
    they have not met; aborted games do not count)."""
    table: list[list[Optional[float]]] = [[None] * count for _ in range(count)]
    for game in played:
        result = game.record.outcome.result()
        if result == "*":
            continue
        red, black = game.scheduled.red, game.scheduled.black
        red_points = 1.0 if result == "1-0" else 0.0 if result == "0-1" else 0.5
        table[red][black] = (table[red][black] or 0.0) + red_points
        table[black][red] = (table[black][red] or 0.0) + 1.0 - red_points
    return table


def _elo_columns(estimate: EloEstimate) -> tuple[str, str]:
    """The Elo and the half-width of its 95% interval (cutechess-cli's ``Elo +/-``)."""
    if estimate.difference is None:
        return "n/a", "n/a"
    if estimate.lower is None or estimate.upper is None:
        return f"{estimate.difference:+.0f}", "inf"
    return f"{estimate.difference:+.0f}", f"{(estimate.upper - estimate.lower) / 2:.0f}"


def format_standings(table: Sequence[Standing]) -> str:
    """A plain-text table: rank, name, games, points, wins, draws, losses, score, and the Elo
    against the field with the half-width of its 95% interval."""
    width = max([len("Engine")] + [len(row.name) for row in table])
    lines = [f"{'Rank':>4}  {'Engine':<{width}}  {'Games':>5}  {'Points':>6}  {'W':>3}  {'D':>3}  {'L':>3}  "
             f"{'Score':>6}  {'Elo':>5}  {'+/-':>4}"]
    for row in table:
        games = row.tally.games
        score = f"{100 * row.tally.points / games:.1f}%" if games else "-"
        elo, margin = _elo_columns(row.elo)
        lines.append(f"{row.rank:>4}  {row.name:<{width}}  {games:>5}  {row.tally.points:>6.1f}  "
                     f"{row.tally.wins:>3}  {row.tally.draws:>3}  {row.tally.losses:>3}  {score:>6}  "
                     f"{elo:>5}  {margin:>4}")
    lines.append("Elo: against the field, with the half-width of its 95% interval")
    return "\n".join(lines)
