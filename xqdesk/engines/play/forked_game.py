"""Play one game in a forked child process, so nothing a player does can hang or outlive it.

Used for course ``Player`` instances that live in the caller's process (the course's
``play_headless_game(..., timeout=True)``): the child plays the game with the move clock (runaway
``policy`` threads die with the child) and streams each move back; the parent also watches the
child, killing it when it is silent for longer than the clock plus a margin. POSIX only.
"""
from __future__ import annotations

import json
import os
import select
import signal
from typing import Optional

from xqdesk.engines.play.game_player import GamePlayer
from xqdesk.engines.play.referee import play_game
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import COURSE, Ruleset

WATCHDOG_MARGIN = 2.0
"""Seconds of silence beyond the move clock after which the parent kills the child."""

HistoryEntry = tuple[int, int, int, int, int]


def play_forked(red: GamePlayer, black: GamePlayer, *, move_time_limit: float,
                ruleset: Ruleset = COURSE) -> tuple[Outcome, list[HistoryEntry]]:
    """Play red against black in a child process; the outcome and the course history.

    Changes the seats make to themselves during the game stay in the child.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: play, report, and leave without running the parent's exit hooks
        os.close(read_fd)
        try:
            with os.fdopen(write_fd, "w", encoding="utf-8") as out:
                def report(board, move, seconds) -> None:
                    out.write(json.dumps(["move", list(board.course_history()[-1])]) + "\n")
                    out.flush()

                record = play_game(red, black, ruleset=ruleset, move_time_limit=move_time_limit, on_move=report)
                ended = record.outcome
                out.write(json.dumps(["end", ended.termination.name, ended.winner, ended.text]) + "\n")
                out.flush()
        finally:
            os._exit(0)
    os.close(write_fd)
    history: list[HistoryEntry] = []
    outcome: Optional[Outcome] = None
    buffer = b""
    try:
        while outcome is None:
            ready, _, _ = select.select([read_fd], [], [], move_time_limit + WATCHDOG_MARGIN)
            if not ready:
                mover = RED if len(history) % 2 == 0 else BLACK
                outcome = Outcome.timeout(mover)
                break
            chunk = os.read(read_fd, 65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                kind, *values = json.loads(line)
                if kind == "move":
                    history.append(tuple(int(v) for v in values[0]))  # type: ignore[arg-type]
                else:
                    termination, winner, text = values
                    outcome = Outcome(Termination[termination], winner, text)
    finally:
        os.close(read_fd)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
    if outcome is None:
        mover = RED if len(history) % 2 == 0 else BLACK
        code = os.waitstatus_to_exitcode(status)
        how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
        outcome = Outcome.illegal_move(mover, f"the game's process {how} during the player's move")
    return outcome, history
