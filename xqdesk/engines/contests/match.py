"""Matches: scheduled games played in parallel, N-game matches with alternating colours, and the
course's 6-game match with its playoff.

Every game runs on its own pair of engine processes; ``concurrency`` games run at once, each on
a worker thread that owns the engine processes it started (and restarts those a game killed).
A game may start from an opening (a position and the moves that led to it), and may be ended by
adjudication from the engines' scores. :meth:`MatchRunner.stop` ends a match within one move: the
searches running are cut short, no further game starts, and the unfinished games come back aborted.
"""
from __future__ import annotations

import datetime
import logging
import pickle
import queue
import random
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Optional, Protocol, Sequence

from xqdesk.board import Board
from xqdesk.engine_comment import BOOK_COMMENT, format_engine_comment
from xqdesk.engines.contests.adjudication import AdjudicationRules, Adjudicator
from xqdesk.engines.contests.elo import Tally
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.game_player import GamePlayer, MoveReply
from xqdesk.engines.play.referee import GameRecord, play_game
from xqdesk.formats.course_match import PLAYOFF_GAME, CourseGameResult, CourseMatch
from xqdesk.formats.openings import Opening
from xqdesk.game import Game
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.ruleset import COURSE, FOG, Ruleset
from xqdesk.score import PovScore
from xqdesk.time_control import TimeControl

LOG = logging.getLogger(__name__)

STOPPED_TEXT = "Game stopped before its end (the match was interrupted)"
"""The outcome text of a game cut short by :meth:`MatchRunner.stop` (its result is ``*``)."""


@dataclass(frozen=True)
class Contestant:
    """A named engine and how to make a fresh (not yet started) seat for it."""

    name: str
    make_player: Callable[[], Any]
    """Makes a fresh seat: a GamePlayer, or for a fog-of-war match a fog player (which is shown
    observations, not boards); the match's ruleset decides which game loop drives it."""


@dataclass(frozen=True)
class ScheduledGame:
    """Game ``number`` between contestants at indexes ``red`` and ``black``, from ``opening``
    (None: the ruleset's start position). Games with the same ``pair`` start from the same
    position with the colours swapped (what pentanomial statistics count)."""

    number: int
    red: int
    black: int
    opening: Optional[Opening] = None
    pair: Optional[int] = None


@dataclass(frozen=True)
class MoveEvaluation:
    """What the mover's engine said of a move it played: its score (None: it gave none) and the
    depth of the search that gave it (None: not reported)."""

    score: Optional[PovScore]
    depth: Optional[int]


@dataclass(frozen=True)
class PlayedGame:
    """A game as it ended: its ``record`` (the opening's moves first) and the schedule entry;
    ``evaluations[ply]`` what the engine that played the main line's move number ``ply`` (1: the
    first move of the record, the opening's included) said of it, for each move an engine played."""

    scheduled: ScheduledGame
    record: GameRecord
    evaluations: Mapping[int, MoveEvaluation] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Whether the game reached a result (it was not stopped or aborted)."""
        return self.record.outcome.termination is not Termination.ABORTED


def tally(played: Sequence[PlayedGame], contestant: int) -> Tally:
    """``contestant``'s results over ``played`` (aborted games are not counted)."""
    result = Tally()
    for game in played:
        colour = RED if game.scheduled.red == contestant else BLACK if game.scheduled.black == contestant else None
        score = None if colour is None else game_score(game.record.outcome, colour)
        if score is not None:
            result = result.counted(score)
    return result


def game_score(outcome: Outcome, colour: Color) -> Optional[float]:
    """What ``outcome`` scores for the side that played ``colour``: 1, ½ or 0; None for a game
    without a result (aborted)."""
    if outcome.result() == "*":
        return None
    return 0.5 if outcome.winner is None else float(outcome.winner == colour)


def alternating_schedule(games: int, first: int = 0, second: int = 1, start_number: int = 1) -> list[ScheduledGame]:
    """``games`` games between two contestants, ``first`` taking Red in odd-numbered games."""
    return [ScheduledGame(number, first, second) if (number - start_number) % 2 == 0
            else ScheduledGame(number, second, first)
            for number in range(start_number, start_number + games)]


def opening_schedule(openings: Iterable[Opening], games: Optional[int], repeat: int = 2, first: int = 0,
                     second: int = 1) -> Iterable[ScheduledGame]:
    """Games between two contestants from ``openings`` (cutechess-cli's ``-openings … -repeat``):
    each opening is played ``repeat`` times, colours alternating every game (``first`` has Red in
    odd-numbered games), ``games`` in all (None: without end, for a test that stops itself).
    With ``repeat`` 2 each opening's two games form a pair."""
    if repeat < 1:
        raise ValueError(f"each opening is played at least once, got repeat={repeat!r}")
    source = iter(openings)
    number = 1
    opening: Optional[Opening] = None
    while games is None or number <= games:
        index = number - 1
        if index % repeat == 0:
            opening = next(source)
        red, black = (first, second) if index % 2 == 0 else (second, first)
        yield ScheduledGame(number, red, black, opening, index // 2 if repeat == 2 else None)
        number += 1


class GamesRunner(Protocol):
    """Anything that plays scheduled games: :class:`MatchRunner` here, or on a Ray cluster
    :class:`xqdesk.engines.contests.cluster.RayMatchRunner`."""

    def play(self, games: Iterable[ScheduledGame]) -> list[PlayedGame]: ...

    def stop(self) -> None: ...

    @property
    def stopped(self) -> bool: ...


class MatchRunner:
    """Plays scheduled games, ``concurrency`` at a time. Use as a context manager (it closes every
    engine process it started).

    ``adjudication``: the draw and resign rules applied from the engines' scores. ``headers``: tags
    every game's record gets (e.g. ``TimeControl``), besides ``Date`` (the day it started).
    ``on_game_start`` is told of each game before its first search begins, ``on_game`` of each game
    as it ends (finished or stopped), ``on_move(game, board_after, reply)`` of each move; all three
    are called from the worker threads.
    """

    def __init__(self, contestants: Sequence[Contestant], *, concurrency: int = 1, ruleset: Ruleset = COURSE,
                 move_time_limit: Optional[float] = None, time_control: Optional[TimeControl] = None,
                 on_game: Optional[Callable[[PlayedGame], None]] = None,
                 adjudication: AdjudicationRules = AdjudicationRules(),
                 on_move: Optional[Callable[[ScheduledGame, Board, MoveReply], None]] = None,
                 headers: Optional[Mapping[str, str]] = None,
                 on_game_start: Optional[Callable[[ScheduledGame], None]] = None) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency!r}")
        self.contestants = list(contestants)
        self.concurrency = concurrency
        self.ruleset = ruleset
        self.move_time_limit = move_time_limit
        self.time_control = time_control
        self.on_game = on_game
        self.on_move = on_move
        self.on_game_start = on_game_start
        self.adjudication = adjudication
        self.headers = dict(headers or {})
        self._seat_sets: queue.Queue[dict[int, GamePlayer]] = queue.Queue()
        self._all_sets: list[dict[int, GamePlayer]] = []
        for _ in range(concurrency):
            seats: dict[int, GamePlayer] = {}
            self._all_sets.append(seats)
            self._seat_sets.put(seats)
        self._report_lock = threading.Lock()
        self._stop = threading.Event()
        self._abandoned = False

    def check(self) -> None:
        """Start one seat of every contestant now, so a player that does not load or an engine that
        does not answer is reported (EngineStartError) before any game starts."""
        first = self._all_sets[0]
        for index in range(len(self.contestants)):
            self._seat(first, index)

    def _seat(self, seats: dict[int, GamePlayer], index: int) -> GamePlayer:
        if index not in seats:
            player = self.contestants[index].make_player()
            LOG.info("starting %s", self.contestants[index].name)
            player.start()
            seats[index] = player
        return seats[index]

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stop.is_set()

    def stop(self) -> None:
        """End the match within one move (safe from any thread and from a signal handler): no
        further game starts, the searches running are told to stop now, and each game still
        running ends after the move being made, as aborted (unless that move ends it)."""
        self._stop.set()
        for seats in self._all_sets:
            for seat in list(seats.values()):
                interrupt = getattr(seat, "interrupt", None)  # seats that can cut a search short
                if interrupt is not None:
                    interrupt()

    def abandon(self) -> None:
        """End the match now: :meth:`stop`, then end every engine process; the games running come
        back aborted whatever their last move did."""
        self._abandoned = True
        self.stop()
        self.close()

    def play(self, games: Iterable[ScheduledGame]) -> list[PlayedGame]:
        """Play ``games`` (taken one at a time as workers free up, so the schedule may be endless
        when something calls :meth:`stop`) and return them in schedule order, stopped ones included."""
        upcoming = iter(games)
        played: list[PlayedGame] = []
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="match-game") as pool:
            running: set[Future[PlayedGame]] = set()

            def start_next() -> bool:
                game = None if self._stop.is_set() else next(upcoming, None)
                if game is not None:
                    running.add(pool.submit(self._play_one, game))
                return game is not None

            try:
                while len(running) < self.concurrency and start_next():
                    pass
                while running:
                    # A timeout, so that signal handlers run promptly in this (the main) thread.
                    done, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
                    for future in done:
                        running.discard(future)
                        played.append(future.result())
                        start_next()
            except BaseException:
                self.abandon()
                raise
        return sorted(played, key=lambda game: game.scheduled.number)

    def _play_one(self, game: ScheduledGame) -> PlayedGame:
        seats = self._seat_sets.get()
        evaluations: dict[int, MoveEvaluation] = {}
        started = datetime.date.today()
        LOG.info("game %d begins: %s (red) vs %s (black)%s", game.number, self.contestants[game.red].name,
                 self.contestants[game.black].name, f" from {game.opening.label}" if game.opening else "")
        if self.on_game_start is not None:
            self.on_game_start(game)
        try:
            record = self._play_with(seats, game, evaluations)
        finally:
            self._seat_sets.put(seats)
        if self._abandoned and record.outcome.termination is not Termination.ABORTED:
            record.game.outcome = Outcome.aborted(STOPPED_TEXT)
        LOG.info("game %d ends after %d plies: %s %s", game.number, len(record.game.mainline()),
                 record.outcome.result(), record.outcome.text)
        record.game.headers.update(self.headers)
        record.game.headers.setdefault("Date", started.strftime("%Y.%m.%d"))
        played = PlayedGame(game, record, evaluations)
        if self.on_game is not None:
            with self._report_lock:
                self.on_game(played)
        return played

    def _play_with(self, seats: dict[int, GamePlayer], game: ScheduledGame,
                   evaluations: dict[int, MoveEvaluation]) -> GameRecord:
        names = (self.contestants[game.red].name, self.contestants[game.black].name)
        opening = game.opening or Opening()
        players = []
        for colour, index in ((RED, game.red), (BLACK, game.black)):
            try:
                players.append(self._seat(seats, index))
            except EngineError as error:
                seats.pop(index, None)
                return GameRecord.unplayed(names[0], names[1], Outcome.illegal_move(colour, f"could not start: {error}"),
                                           opening.start_fen, opening.moves)
        if self.ruleset.name == FOG.name:
            return self._play_fog(players, names)
        controls = None if self.time_control is None else {RED: self.time_control, BLACK: self.time_control}
        adjudicator = Adjudicator(self.adjudication) if self.adjudication else None

        def judge_move(board: Board, reply: MoveReply) -> Optional[Outcome]:
            if self.on_move is not None:
                self.on_move(game, board, reply)
            return adjudicator.observe(board, reply.score) if adjudicator is not None else None

        def note_reply(board: Board, reply: MoveReply) -> None:
            evaluations[len(board.move_stack)] = MoveEvaluation(reply.score, reply.depth)

        record = play_game(players[0], players[1], ruleset=self.ruleset, move_time_limit=self.move_time_limit,
                           time_controls=controls, board=opening.board(self.ruleset), stop=self._stop,
                           judge_move=judge_move, on_reply=note_reply)
        if record.outcome.termination is Termination.ABORTED:
            record.game.outcome = Outcome.aborted(STOPPED_TEXT)
        return replace(record, red=names[0], black=names[1], first_ply=0)  # the opening's moves are the game's

    def _play_fog(self, players: list, names: tuple[str, str]) -> GameRecord:
        """A fog-of-war game (the seats are fog players: they are shown observations only)."""
        from xqdesk.engines.fog.referee import play_fog_game

        fog = play_fog_game(players[0], players[1], move_time_limit=self.move_time_limit, stop=self._stop)
        return GameRecord(names[0], names[1], fog.game)

    def close(self) -> None:
        for seats in self._all_sets:
            for player in list(seats.values()):
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
    """A played game's record, to be written as cutechess-cli writes one: a copy of the record its
    runner wrote (the course's text is the termination) with the headers Event, Round, Red, Black
    and PlyCount besides the runner's (Date, TimeControl …), under ``ruleset`` (default the
    course's), and each move's comment the engine's score, depth and time
    (:mod:`xqdesk.engine_comment`: ``+0.35/12 0.98s``; ``book`` for the opening's moves) followed
    by what its seat said besides the move. The record itself is left as it is."""
    record = played.record
    game: Game = pickle.loads(pickle.dumps(record.game))  # flat, however long the game
    game.headers.update({"Event": event, "Round": str(played.scheduled.number), "Red": record.red,
                         "Black": record.black})
    game.ruleset = ruleset or COURSE
    nodes = game.mainline()
    game.headers["PlyCount"] = str(len(nodes))
    mover = game.start_board().turn
    for ply, node in enumerate(nodes, start=1):
        said = played.evaluations.get(ply)
        if said is not None or node.seconds is not None:
            score = said.score.pov(mover) if said is not None and said.score is not None else None
            engine_text = format_engine_comment(score, said.depth if said is not None else None, node.seconds or 0.0)
        else:
            engine_text = BOOK_COMMENT
        node.comment = f"{engine_text} {node.comment}".strip()
        mover = not mover
    return game
