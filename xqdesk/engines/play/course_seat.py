"""A seat for a course ``Player`` instance that lives in the calling process (the course's own
``play_headless_game`` works on instances). Each move: ``update_history(copy)`` then
``policy(copy of board)``; with a time limit the call runs on a daemon thread that is abandoned
when it overruns (callers that must not keep such a thread run the game in a child process, see
:func:`xqdesk.engines.play.forked_game.play_forked`)."""
from __future__ import annotations

import threading
import time
from typing import Any, Optional

from xqdesk.board import Board
from xqdesk.engines.hosted.course_player import PlayerMoveError, course_action, describe_error
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.search_types import SearchLimits
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import Color


class CoursePlayerSeat:
    """A :class:`~xqdesk.engines.play.game_player.GamePlayer` around a ``Player`` instance."""

    def __init__(self, player: Any) -> None:
        self.player = player
        try:
            self.name = str(player.get_name()) if hasattr(player, "get_name") else str(getattr(player, "name", "Player"))
        except Exception:
            self.name = "Player"

    def start(self) -> None:
        """Nothing to start: the instance exists."""

    def new_game(self, color: Color) -> None:
        """The instance was made for its side by the caller, as in the course."""

    def request_move(self, board: Board, time_limit: Optional[float],
                     limits: Optional[SearchLimits] = None) -> MoveReply:
        history, course_board = list(board.course_history()), board.to_course_board()
        outcome: dict[str, Any] = {}

        def think() -> None:
            try:
                self.player.update_history(history)
                outcome["result"] = self.player.policy(course_board)
            except BaseException as error:  # the player's fault, whatever it is
                outcome["error"] = f"policy raised {describe_error(error)}"

        started = time.monotonic()
        if time_limit is None:
            think()
        else:
            worker = threading.Thread(target=think, name="course-policy", daemon=True)
            worker.start()
            worker.join(time_limit)
            if worker.is_alive():
                return MoveReply(timed_out=True, elapsed=time.monotonic() - started)
        elapsed = time.monotonic() - started
        if "error" in outcome:
            return MoveReply(error=outcome["error"], elapsed=elapsed)
        try:
            return MoveReply(move=Move.from_course(course_action(outcome.get("result"))), elapsed=elapsed)
        except PlayerMoveError as error:
            return MoveReply(error=str(error), elapsed=elapsed)
        except ValueError:
            return MoveReply(error=f"policy returned {outcome.get('result')!r}, which is off the board", elapsed=elapsed)

    def game_over(self, outcome: Outcome) -> None:
        """The course tells its players nothing at the end."""

    def close(self) -> None:
        """Nothing to release."""
