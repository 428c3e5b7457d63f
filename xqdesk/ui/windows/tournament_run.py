"""A round-robin tournament between engines, played in a thread of its own while the window shows it.

:class:`TournamentRun` drives the Qt-free contest code (:mod:`xqdesk.engines.contests`: the
schedule, :class:`~xqdesk.engines.contests.match.MatchRunner` with its clocks and adjudication,
the standings) and passes what happens to the window's thread as signals: each game as it starts
(``game_started``, before its first search), each move played (``moved``), the engines' search
progress (``engine_info``, at most ten times a second per engine, and always a mover's last report
before its move, so a fast engine's line is never lost to the limit), each game that ends
(``game_ended``; it is then written to the PGN file at once, so a crash loses nothing) and the end
of the tournament (``ended``). :meth:`stop` ends it within one
move: the game in progress comes back aborted and no further game starts.

A clock of seconds a move under the course's move clock (``0.3s``, ``1s``) is a move time, as
``xqdesk match --movetime`` and cutechess-cli's ``st`` play it: each engine is told that time and
the referee holds it to the course's 10-second clock, so a game at a fast clock is decided on the
board, not by a few milliseconds of the machine's scheduling. Any other clock (``10s``, ``15m+5s``,
``20m|30s``) is kept by the referee and told to the engines, as ``xqdesk match --tc`` does.
"""
from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QObject, Signal

from xqdesk.board import Board
from xqdesk.engines.contests.adjudication import AdjudicationRules
from xqdesk.engines.contests.match import Contestant, MatchRunner, PlayedGame, ScheduledGame, to_game
from xqdesk.engines.contests.tournament import round_robin_schedule, unique_names
from xqdesk.engines.errors import EngineError
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.registry import EngineProfile
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.errors import XqdeskError
from xqdesk.formats import write_games
from xqdesk.move import Move
from xqdesk.pieces import RED
from xqdesk.ruleset import COURSE
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.background import ThreadedObject

INFO_INTERVAL_S = 0.1
"""At most this often an engine's search progress reaches the window."""
EVENT = "xqdesk tournament"


def engine_move_time(control: TimeControl) -> float | None:
    """The seconds a move engines are told when ``control`` is a time a move under the course's
    move clock (the module docstring); None when the referee keeps ``control`` itself."""
    if control.main_time is None and control.move_time is not None and control.move_time < COURSE.move_time_limit:
        return control.move_time
    return None


@dataclass(frozen=True)
class LiveMove:
    """A move just played in game ``number``: the position after it, and who plays."""

    number: int
    red: int
    black: int
    board: Board
    move: Move
    seconds: float


class TournamentRun(ThreadedObject):
    """One tournament between ``profiles`` (indexes into it name the contestants); see the module
    docstring. ``games_per_pair`` games for each pair, colours alternating."""

    moved = Signal(object)  # LiveMove
    engine_info = Signal(int, object)  # contestant index, SearchInfo
    game_started = Signal(object)  # ScheduledGame
    game_ended = Signal(object)  # PlayedGame
    ended = Signal(object, str)  # the games played (list[PlayedGame]), and why it ended early ('' : it did not)
    pgn_failed = Signal(str)  # why a finished game could not be written to the PGN file
    _from_thread = Signal(str, object)  # what happened, and its value: passed on in the window's thread

    def __init__(self, profiles: Sequence[EngineProfile], time_control: TimeControl, games_per_pair: int,
                 pgn_path: str | Path | None, adjudication: AdjudicationRules = AdjudicationRules(),
                 parent: QObject | None = None) -> None:
        super().__init__("tournament", parent)
        self.profiles = tuple(profiles)
        self.names = unique_names([profile.name for profile in self.profiles])
        self.schedule = round_robin_schedule(len(self.profiles), games_per_pair)
        self.time_control = time_control
        self.pgn_path = Path(pgn_path) if pgn_path else None
        self.played: list[PlayedGame] = []
        move_time = engine_move_time(time_control)
        self._limits = SearchLimits(movetime=move_time) if move_time is not None else None
        self._runner = MatchRunner([self._contestant(index) for index in range(len(self.profiles))],
                                   time_control=None if move_time is not None else time_control,
                                   adjudication=adjudication, on_game=self._on_game, on_move=self._on_move,
                                   on_game_start=self._on_game_start,
                                   headers={"TimeControl": time_control.pgn_tag()})
        self._info_lock = threading.Lock()
        self._last_info = [0.0] * len(self.profiles)  # when each engine's report last went out
        self._held_info: list[SearchInfo | None] = [None] * len(self.profiles)  # held back by the limit
        self._from_thread.connect(self._pass_on)

    def _contestant(self, index: int) -> Contestant:
        spec = self.profiles[index].playing().to_spec()
        report = functools.partial(self._on_info, index)
        return Contestant(self.names[index], functools.partial(EnginePlayer, spec, self._limits, on_info=report))

    # --- control (the window's thread) ------------------------------------------------------------
    def stop(self) -> None:
        """End the tournament within one move (the game in progress is aborted, not scored)."""
        self._runner.stop()

    # --- the tournament's threads ------------------------------------------------------------------
    def _run(self) -> None:
        reason = ""
        try:
            with self._runner:
                self._runner.check()  # an engine that cannot start is reported before any game
                self._runner.play(self.schedule)
        except (EngineError, XqdeskError, OSError) as error:
            reason = str(error)
        except Exception as error:  # noqa: BLE001 - a bug must still end the run (and its engines)
            reason = f"internal error: {type(error).__name__}: {error}"
        if not reason and self._runner.stopped:
            reason = "stopped"
        self._from_thread.emit("ended", reason)

    def _on_game_start(self, game: ScheduledGame) -> None:
        with self._info_lock:
            self._held_info = [None] * len(self.profiles)  # a report of the game before is not this one's
            self._from_thread.emit("started", game)

    def _on_move(self, game: ScheduledGame, board: Board, reply: MoveReply) -> None:
        mover = game.black if board.turn == RED else game.red  # ``board`` is the position after the move
        with self._info_lock:
            held, self._held_info[mover] = self._held_info[mover], None
            if held is not None:  # the mover's last report, before its move
                self._last_info[mover] = time.monotonic()
                self._from_thread.emit("info", (mover, held))
            if reply.move is not None:
                self._from_thread.emit("moved", LiveMove(game.number, game.red, game.black, board.copy(),
                                                         reply.move, reply.elapsed))

    def _on_info(self, index: int, info: SearchInfo) -> None:
        if not info.pv:
            return
        now = time.monotonic()
        with self._info_lock:
            if now - self._last_info[index] >= INFO_INTERVAL_S:
                self._last_info[index] = now
                self._held_info[index] = None
                self._from_thread.emit("info", (index, info))
            else:
                self._held_info[index] = info

    def _on_game(self, played: PlayedGame) -> None:
        self.played.append(played)
        if self.pgn_path is not None:
            try:
                games = [to_game(game, EVENT) for game in sorted(self.played, key=lambda g: g.scheduled.number)]
                write_games(self.pgn_path, games)
            except (OSError, XqdeskError) as error:
                self._from_thread.emit("pgn_failed", str(error))
        self._from_thread.emit("game", played)

    # --- in the window's thread ---------------------------------------------------------------------
    def _pass_on(self, what: str, value: Any) -> None:
        if what == "moved":
            self.moved.emit(value)
        elif what == "info":
            self.engine_info.emit(*value)
        elif what == "started":
            self.game_started.emit(value)
        elif what == "game":
            self.game_ended.emit(value)
        elif what == "pgn_failed":
            self.pgn_failed.emit(value)
        else:
            self.ended.emit(sorted(self.played, key=lambda game: game.scheduled.number), value)
