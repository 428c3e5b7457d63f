"""Matches: scheduled games played in parallel, N-game matches with alternating colours, and the
course's 6-game match with its playoff.

Every game runs on its own pair of engine processes; ``concurrency`` games run at once, each on
a worker thread that owns the engine processes it started (and restarts those a game killed).
"""
from __future__ import annotations

import queue
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Sequence

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.game_player import GamePlayer
from xqdesk.engines.play.referee import GameRecord, play_game
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.course_match import PLAYOFF_GAME, CourseGameResult, CourseMatch
from xqdesk.game import Game
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import COURSE, FOG, Ruleset
from xqdesk.time_control import TimeControl


@dataclass(frozen=True)
class Contestant:
    """A named engine and how to make a fresh (not yet started) seat for it."""

    name: str
    make_player: Callable[[], Any]
    """Makes a fresh seat: a GamePlayer, or for a fog-of-war match a fog player (which is shown
    observations, not boards); the match's ruleset decides which game loop drives it."""


@dataclass(frozen=True)
class ScheduledGame:
    """Game ``number`` between contestants at indexes ``red`` and ``black``."""

    number: int
    red: int
    black: int


@dataclass(frozen=True)
class PlayedGame:
    scheduled: ScheduledGame
    record: GameRecord


@dataclass(frozen=True)
class Tally:
    """One contestant's wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    def __str__(self) -> str:
        return f"+{self.wins} ={self.draws} -{self.losses}"


def tally(played: Sequence[PlayedGame], contestant: int) -> Tally:
    """``contestant``'s results over ``played`` (aborted games are not counted)."""
    wins = draws = losses = 0
    for game in played:
        colour = RED if game.scheduled.red == contestant else BLACK if game.scheduled.black == contestant else None
        outcome = game.record.outcome
        if colour is None or outcome.result() == "*":
            continue
        if outcome.winner is None:
            draws += 1
        elif outcome.winner == colour:
            wins += 1
        else:
            losses += 1
    return Tally(wins, draws, losses)


def alternating_schedule(games: int, first: int = 0, second: int = 1, start_number: int = 1) -> list[ScheduledGame]:
    """``games`` games between two contestants, ``first`` taking Red in odd-numbered games."""
    return [ScheduledGame(number, first, second) if (number - start_number) % 2 == 0
            else ScheduledGame(number, second, first)
            for number in range(start_number, start_number + games)]


class GamesRunner(Protocol):
    """Anything that plays scheduled games: :class:`MatchRunner` here, or on a Ray cluster
    :class:`xqdesk.engines.contests.cluster.RayMatchRunner`."""

    def play(self, games: Sequence[ScheduledGame]) -> list[PlayedGame]: ...


class MatchRunner:
    """Plays scheduled games, ``concurrency`` at a time. Use as a context manager (it closes every
    engine process it started)."""

    def __init__(self, contestants: Sequence[Contestant], *, concurrency: int = 1, ruleset: Ruleset = COURSE,
                 move_time_limit: Optional[float] = None, time_control: Optional[TimeControl] = None,
                 on_game: Optional[Callable[[PlayedGame], None]] = None) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency!r}")
        self.contestants = list(contestants)
        self.concurrency = concurrency
        self.ruleset = ruleset
        self.move_time_limit = move_time_limit
        self.time_control = time_control
        self.on_game = on_game
        self._seat_sets: queue.Queue[dict[int, GamePlayer]] = queue.Queue()
        self._all_sets: list[dict[int, GamePlayer]] = []
        for _ in range(concurrency):
            seats: dict[int, GamePlayer] = {}
            self._all_sets.append(seats)
            self._seat_sets.put(seats)
        self._report_lock = threading.Lock()

    def check(self) -> None:
        """Start one seat of every contestant now, so a player that does not load or an engine that
        does not answer is reported (EngineStartError) before any game starts."""
        first = self._all_sets[0]
        for index in range(len(self.contestants)):
            self._seat(first, index)

    def _seat(self, seats: dict[int, GamePlayer], index: int) -> GamePlayer:
        if index not in seats:
            player = self.contestants[index].make_player()
            player.start()
            seats[index] = player
        return seats[index]

    def play(self, games: Sequence[ScheduledGame]) -> list[PlayedGame]:
        """Play ``games`` and return them in schedule order."""
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="match-game") as pool:
            played = list(pool.map(self._play_one, games))
        return sorted(played, key=lambda game: game.scheduled.number)

    def _play_one(self, game: ScheduledGame) -> PlayedGame:
        seats = self._seat_sets.get()
        try:
            record = self._play_with(seats, game)
        finally:
            self._seat_sets.put(seats)
        played = PlayedGame(game, record)
        if self.on_game is not None:
            with self._report_lock:
                self.on_game(played)
        return played

    def _play_with(self, seats: dict[int, GamePlayer], game: ScheduledGame) -> GameRecord:
        names = (self.contestants[game.red].name, self.contestants[game.black].name)
        players = []
        for colour, index in ((RED, game.red), (BLACK, game.black)):
            try:
                players.append(self._seat(seats, index))
            except EngineError as error:
                seats.pop(index, None)
                return GameRecord(red=names[0], black=names[1], start_fen=STARTING_FEN, moves=(), history=(),
                                  outcome=Outcome.illegal_move(colour, f"could not start: {error}"))
        if self.ruleset.name == FOG.name:
            return self._play_fog(players, names)
        controls = None if self.time_control is None else {RED: self.time_control, BLACK: self.time_control}
        record = play_game(players[0], players[1], ruleset=self.ruleset, move_time_limit=self.move_time_limit,
                           time_controls=controls)
        return GameRecord(red=names[0], black=names[1], start_fen=record.start_fen, moves=record.moves,
                          history=record.history, outcome=record.outcome, move_times=record.move_times,
                          remarks=record.remarks)

    def _play_fog(self, players: list, names: tuple[str, str]) -> GameRecord:
        """A fog-of-war game (the seats are fog players: they are shown observations only)."""
        from xqdesk.engines.fog.referee import play_fog_game

        fog = play_fog_game(players[0], players[1], move_time_limit=self.move_time_limit)
        board = Board(fog.start_fen, ruleset=FOG)
        for move in fog.moves:
            board.push(move)
        return GameRecord(red=names[0], black=names[1], start_fen=fog.start_fen, moves=fog.moves,
                          history=tuple(board.course_history()), outcome=fog.outcome, move_times=fog.move_times)

    def close(self) -> None:
        for seats in self._all_sets:
            for player in seats.values():
                player.close()
            seats.clear()

    def __enter__(self) -> MatchRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def course_game_result(played: PlayedGame, ids: Sequence[int]) -> CourseGameResult:
    """A played game as a line of the course's match folder (``ids[k]`` is contestant k's id)."""
    record = played.record
    return CourseGameResult(number=played.scheduled.number, red_id=ids[played.scheduled.red],
                            black_id=ids[played.scheduled.black], winner=record.outcome.winner,
                            text=record.outcome.text, history=tuple(record.history))


def play_course_match(runner: GamesRunner, id_i: int, id_j: int, *,
                      rng: Optional[random.Random] = None) -> tuple[CourseMatch, list[PlayedGame]]:
    """The course's match between contestants 0 (player ``id_i``) and 1 (``id_j``): games 1–3 with
    i as Red, 4–6 with i as Black, and when the wins are equal a 7th with colours drawn at random
    (a draw there counts for Black)."""
    ids = (id_i, id_j)
    schedule = [ScheduledGame(number, 0, 1) if number <= 3 else ScheduledGame(number, 1, 0) for number in range(1, 7)]
    played = runner.play(schedule)
    match = CourseMatch(id_i, id_j, tuple(course_game_result(game, ids) for game in played))
    if match.winner_id is None:
        red = (rng or random.Random()).choice((0, 1))
        played += runner.play([ScheduledGame(PLAYOFF_GAME, red, 1 - red)])
        match = CourseMatch(id_i, id_j, tuple(course_game_result(game, ids) for game in played))
    return match, played


def to_game(played: PlayedGame, event: str, ruleset: Optional[Ruleset] = None) -> Game:
    """A played game as a record for PGN (headers Event, Round, Red, Black; the course's text as
    the termination; what a seat said besides a move as that move's comment), under ``ruleset``
    (default the course's)."""
    record = played.record
    headers = {"Event": event, "Round": str(played.scheduled.number), "Red": record.red, "Black": record.black}
    game = Game.from_moves(record.moves, record.start_fen, headers=headers, outcome=record.outcome)
    game.ruleset = ruleset or COURSE
    nodes = game.mainline()
    for index, remark in record.remarks:
        if 0 <= index < len(nodes):
            nodes[index].comment = " ".join(filter(None, (nodes[index].comment, remark)))
    return game
