"""The AlphaChess course's functions, built on xqdesk: course scripts call these in place of the
course's own files.

The utility functions (``init_board``, ``get_legal_actions``, ``change_round``) come from the core
module :mod:`xqdesk.course`; the game, replay and match functions here drive the engines and the
window. Boards are the course's tuple of 10 lists of 9 ints (``board[x][y]``), actions are
``(old_x, old_y, new_x, new_y)`` tuples and history entries are ``(old_x, old_y, new_x, new_y, captured)``.
"""
from __future__ import annotations

import functools
from typing import Any, Optional, Sequence

from xqdesk.course import HistoryEntry, change_round, get_legal_actions, init_board
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import COURSE


def play_headless_game(red: Any, black: Any, timeout: bool = False) -> tuple[str, str, list[HistoryEntry]]:
    """Play two course ``Player`` instances against each other, judged as the course referee does;
    returns ``(winner, text, history)`` with winner ``"red"``, ``"black"`` or ``"draw"``.

    ``timeout=True`` enforces the course's 10-second move clock. The game then runs in a forked
    child process (where one exists), so a player that never returns cannot hang the caller; the
    instances' own state changes during such a game stay in the child. Without ``timeout`` the game
    runs right here, on the instances themselves, with no clock.
    """
    import os

    from xqdesk.engines.play.course_seat import CoursePlayerSeat
    from xqdesk.engines.play.referee import play_game

    red_seat, black_seat = CoursePlayerSeat(red), CoursePlayerSeat(black)
    if timeout and hasattr(os, "fork"):
        from xqdesk.engines.play.forked_game import play_forked
        outcome, history = play_forked(red_seat, black_seat, move_time_limit=COURSE.move_time_limit)
    else:
        record = play_game(red_seat, black_seat, move_time_limit=COURSE.move_time_limit if timeout else None)
        outcome, history = record.outcome, list(record.history)
    winner = "draw" if outcome.winner is None else ("red" if outcome.winner == RED else "black")
    return winner, outcome.text, [(x0, y0, x1, y1, captured) for x0, y0, x1, y1, captured in history]


def fight(player_i: int, player_j: int, *, players_dir: str = ".", out_dir: str = ".",
          move_time_limit: float = 10.0, seed: Optional[int] = None) -> Any:
    """The course's final-match ``fight``: folders ``player_<i>`` and ``player_<j>`` under
    ``players_dir`` play the 6-game match (and a playoff when tied), each player in its own
    process under the move clock; writes ``Player i VS Player j`` under ``out_dir`` and returns
    the :class:`~xqdesk.formats.course_match.CourseMatch`. EngineStartError (an XqdeskError) when a
    player cannot be loaded, before any game."""
    import os
    import random

    from xqdesk.engines.contests.match import Contestant, MatchRunner, play_course_match
    from xqdesk.engines.play.engine_player import EnginePlayer
    from xqdesk.engines.spec import parse_spec
    from xqdesk.formats.course_match import write_course_match

    contestants = []
    for player_id in (player_i, player_j):
        spec = parse_spec(f"player:{os.path.join(players_dir, f'player_{player_id}')}")
        contestants.append(Contestant(f"Player {player_id}", functools.partial(EnginePlayer, spec)))
    with MatchRunner(contestants, move_time_limit=move_time_limit) as runner:
        runner.check()
        match, _ = play_course_match(runner, player_i, player_j, rng=random.Random(seed))
    write_course_match(out_dir, match)
    return match


# --- the course's windows: game.py, pve_game.py and replay.py, shown in xqdesk's window ---------------
def play_game(red: Any, black: Any, delta_time: float = 1) -> None:
    """Watch two course ``Player`` instances play in the window, at least ``delta_time`` seconds
    between moves; returns when the window is closed. Each player's class runs in its own process
    (a fresh ``Player(side)`` made from its file), judged under the course's 10-second clock."""
    from xqdesk.ui.app import run_window, watch_game_window, window_guard

    with window_guard():  # a player that signals the window, or escapes its shield, cannot harm it
        run_window(watch_game_window(red, black, delta_time))


def play_pve_game(side: str = "red", player: Any = None) -> None:
    """Play ``side`` ("red"/"black") against ``player`` (made for the other side) in the window;
    returns when the window is closed."""
    from xqdesk.ui.app import pve_window, run_window, window_guard

    if player is None:
        raise ValueError("play_pve_game needs a Player instance to play against, got None")
    with window_guard():
        run_window(pve_window(side, player))


def replay_history_game(history: Sequence[Sequence[int]], delta_time: float = 1) -> None:
    """Replay a course history (a list of ``(old_x, old_y, new_x, new_y, captured)``) in the window,
    one move every ``delta_time`` seconds; returns when the window is closed."""
    from xqdesk.ui.app import history_replay_window, run_window

    run_window(history_replay_window(history, delta_time))


def replay_final_game(player_1: int, player_2: int, game: int, delta_time: float = 1, **kwargs: Any) -> None:
    """Replay game ``game`` of the match folder ``Player i VS Player j`` in the current directory
    (the ids in either order), one move every ``delta_time`` seconds; returns when the window is
    closed. The course text also spells the delay ``delay_time``; both are accepted."""
    from xqdesk.ui.app import final_game_window, run_window

    unknown = set(kwargs) - {"delay_time", "delta_tiem"}
    if unknown:
        raise TypeError(f"replay_final_game() got unexpected keyword arguments {sorted(unknown)!r}")
    delay = kwargs.get("delay_time", kwargs.get("delta_tiem", delta_time))
    run_window(final_game_window(player_1, player_2, game, delay))


__all__ = ["init_board", "get_legal_actions", "change_round", "RED", "BLACK", "play_game", "play_pve_game",
           "replay_history_game", "replay_final_game"]
