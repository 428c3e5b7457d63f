"""Tournaments, as cutechess-cli's ``-tournament`` plays them:

- **round robin**: every pair of contestants plays a few games with alternating colours;
- **gauntlet**: the first ``seeds`` contestants (default 1) each play every other contestant,
  and the others do not meet;
- **knockout**: a bracket (contestant 1 against the last, 2 against the last but one …, the top
  seeds given a bye when the field is not a power of two); each match is a few games and its
  winner goes on; a tied match goes on two games at a time (colours swapped), at most
  :data:`TIEBREAK_GAMES` more, and the higher seed goes on when it is still tied.

The standings rank by points (win 1, draw ½), then by wins, and give each contestant's Elo
against the field with its 95% interval (as cutechess-cli's standings do).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Optional, Sequence

from xqdesk.engines.contests.elo import EloEstimate, elo_difference
from xqdesk.engines.contests.match import GamesRunner, PlayedGame, ScheduledGame, Tally, game_score, tally
from xqdesk.engines.contests.sprt import PairedResults, Sprt, SprtStatus, Verdict
from xqdesk.formats.openings import Opening
from xqdesk.pieces import BLACK, RED

TOURNAMENT_FORMATS = ("round-robin", "gauntlet", "knockout")
TIEBREAK_GAMES = 6
"""The most games a tied knockout match adds (two at a time) before the higher seed goes on."""


def _check_counts(contestants: int, games_per_pair: int, repeat: int) -> None:
    if contestants < 2:
        raise ValueError(f"a tournament needs at least two contestants, got {contestants!r}")
    if games_per_pair < 1:
        raise ValueError(f"each pair must play at least one game, got {games_per_pair!r}")
    if repeat < 1:
        raise ValueError(f"each opening is played at least once, got repeat={repeat!r}")


def pairs_schedule(pairs: Iterable[tuple[int, int]], games_per_pair: int,
                   openings: Optional[Iterable[Opening]] = None, repeat: int = 2, *, start_number: int = 1,
                   start_pair: int = 0) -> list[ScheduledGame]:
    """Each pair ``(first, second)`` plays ``games_per_pair`` games, ``first`` taking Red in the
    pair's odd games, numbered from ``start_number``. With ``openings``, every pair plays the same
    openings: its games take them in turn, each ``repeat`` times (colours swapped with ``repeat``
    2; the two games from one opening then share a ``pair`` key, counted from ``start_pair``)."""
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
    number = start_number
    pair = start_pair
    for first, second in pairs:
        for game in range(games_per_pair):
            red, black = (first, second) if game % 2 == 0 else (second, first)
            schedule.append(ScheduledGame(number, red, black, starts[game],
                                          pair + game // 2 if repeat == 2 else None))
            number += 1
        pair += (games_per_pair + 1) // 2
    return schedule


def round_robin_schedule(contestants: int, games_per_pair: int, openings: Optional[Iterable[Opening]] = None,
                         repeat: int = 2) -> list[ScheduledGame]:
    """Every pair plays ``games_per_pair`` games (see :func:`pairs_schedule`)."""
    _check_counts(contestants, games_per_pair, repeat)
    return pairs_schedule(itertools.combinations(range(contestants), 2), games_per_pair, openings, repeat)


def gauntlet_schedule(contestants: int, games_per_pair: int, openings: Optional[Iterable[Opening]] = None,
                      repeat: int = 2, seeds: int = 1) -> list[ScheduledGame]:
    """Each of the first ``seeds`` contestants plays every later one ``games_per_pair`` games;
    the later ones do not meet each other."""
    _check_counts(contestants, games_per_pair, repeat)
    if not 1 <= seeds < contestants:
        raise ValueError(f"a gauntlet needs 1 to {contestants - 1} seeds among {contestants} contestants, "
                         f"got {seeds!r}")
    pairs = [(seed, other) for seed in range(seeds) for other in range(seeds, contestants)]
    return pairs_schedule(pairs, games_per_pair, openings, repeat)


def pair_key(first: int, second: int) -> tuple[int, int]:
    """Two contestants as one key, the lower index first."""
    return (first, second) if first < second else (second, first)


@dataclass
class PairTests:
    """A sequential probability ratio test for every pair of contestants (the lower index is the
    engine tested against the higher), counted by pairs of games from one opening when
    ``pentanomial``; a pair whose test has a verdict plays no more games."""

    sprt: Sprt
    pentanomial: bool = False
    results: dict[tuple[int, int], PairedResults] = field(default_factory=dict)
    status: dict[tuple[int, int], SprtStatus] = field(default_factory=dict)

    def add(self, played: PlayedGame) -> Optional[SprtStatus]:
        """Count a finished game; the pair's status when this game gave its test a verdict."""
        key = pair_key(played.scheduled.red, played.scheduled.black)
        score = game_score(played.record.outcome, RED if played.scheduled.red == key[0] else BLACK)
        if score is None or self.decided(*key):
            return None
        results = self.results.setdefault(key, PairedResults())
        results.add(score, played.scheduled.pair if self.pentanomial else None)
        status = self.sprt.status(results.pentanomial if self.pentanomial else results.trinomial)
        self.status[key] = status
        return status if status.verdict is not Verdict.CONTINUE else None

    def decided(self, first: int, second: int) -> bool:
        """Whether the test of this pair has a verdict."""
        status = self.status.get(pair_key(first, second))
        return status is not None and status.verdict is not Verdict.CONTINUE

    def undecided(self, schedule: Iterable[ScheduledGame]) -> Iterator[ScheduledGame]:
        """The games of ``schedule`` whose pair has no verdict yet when they are due."""
        return (game for game in schedule if not self.decided(game.red, game.black))


@dataclass(frozen=True)
class KnockoutMatch:
    """One match of a knockout round: its two contestants (``first`` the higher seed; ``second``
    None for a bye), its games, and who goes on."""

    first: int
    second: Optional[int]
    games: tuple[PlayedGame, ...]
    winner: int
    points: tuple[float, float] = (0.0, 0.0)
    seeded_through: bool = False
    """Still tied after the tiebreak games: the higher seed went on."""


def knockout_bracket(contestants: int) -> list[tuple[int, Optional[int]]]:
    """The first round: seed 1 against the last, 2 against the last but one …, in bracket order
    (winners of neighbouring matches meet next), the top seeds given a bye (``None``) when the
    field is not a power of two."""
    if contestants < 2:
        raise ValueError(f"a tournament needs at least two contestants, got {contestants!r}")
    size = 1
    while size < contestants:
        size *= 2
    order = [0]
    while len(order) < size:  # standard seeding: 1-8, 4-5, 2-7, 3-6 for eight
        width = 2 * len(order)
        order = [seed for top in order for seed in (top, width - 1 - top)]
    pairs = [(order[index], order[index + 1]) for index in range(0, size, 2)]
    return [(first, second if second < contestants else None) for first, second in pairs]


def play_knockout(runner: GamesRunner, contestants: int, games_per_pair: int,
                  openings: Optional[Iterator[Opening]] = None, repeat: int = 2,
                  on_match: Optional[Callable[[int, KnockoutMatch], None]] = None) -> list[list[KnockoutMatch]]:
    """Play a knockout (see the module docstring) on ``runner`` round by round; ``on_match(round,
    match)`` is told of each match as its round ends. Returns the rounds played (fewer when the
    runner was stopped; the last round's one match then names the tournament's winner)."""
    _check_counts(contestants, games_per_pair, repeat)
    rounds: list[list[KnockoutMatch]] = []
    bracket: list[tuple[int, Optional[int]]] = knockout_bracket(contestants)
    number, pair = 1, 0
    while True:
        meetings = [(first, second) if second is None or first < second else (second, first)
                    for first, second in bracket]
        playing = [(first, second) for first, second in meetings if second is not None]
        schedule = pairs_schedule(playing, games_per_pair, openings, repeat, start_number=number, start_pair=pair)
        number, pair = number + len(schedule), pair + len(playing) * ((games_per_pair + 1) // 2)
        played = runner.play(schedule) if schedule else []
        if runner.stopped:
            return rounds
        by_pair: dict[tuple[int, int], list[PlayedGame]] = {}
        for game in played:
            by_pair.setdefault(pair_key(game.scheduled.red, game.scheduled.black), []).append(game)
        matches: list[KnockoutMatch] = []
        for first, second in meetings:
            if second is None:
                matches.append(KnockoutMatch(first, None, (), first))
                continue
            games = by_pair.get((first, second), [])
            extra = 0
            while _points(games, first) == _points(games, second) and extra < TIEBREAK_GAMES:
                tiebreak = pairs_schedule([(first, second)], 2, openings, repeat, start_number=number, start_pair=pair)
                number, pair, extra = number + 2, pair + 1, extra + 2
                games = games + runner.play(tiebreak)
                if runner.stopped:
                    return rounds
            points = (_points(games, first), _points(games, second))
            winner = first if points[0] >= points[1] else second
            matches.append(KnockoutMatch(first, second, tuple(games), winner, points, points[0] == points[1]))
        rounds.append(matches)
        if on_match is not None:
            for match in matches:
                on_match(len(rounds), match)
        if len(matches) == 1:
            return rounds
        bracket = [(matches[index].winner, matches[index + 1].winner) for index in range(0, len(matches), 2)]


def _points(games: Sequence[PlayedGame], contestant: int) -> float:
    return tally(games, contestant).points


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
