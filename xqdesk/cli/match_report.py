"""What ``match`` and ``tournament`` show and keep while games run.

- each finished game: one line on stdout (and its seats' remarks, the same remark said on many
  moves folded into one line), then in a two-engine match the score so far and, under ``--sprt``,
  the test's LLR and bounds (cutechess-cli's lines);
- each finished game appended to the PGN file at once, so an interrupted run keeps every game;
- on a terminal, a live panel on stderr (rich): the games running with their ply and the last
  scores, the counts, the time left;
- Ctrl+C, SIGINT or SIGTERM stops the match within one move (see :func:`stop_on_signals`).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from xqdesk.board import Board
from xqdesk.cli import plural, report_error
from xqdesk.engines.contests.match import GamesRunner, PlayedGame, ScheduledGame, game_score, to_game
from xqdesk.engines.contests.sprt import PairedResults, Sprt, SprtStatus, Verdict
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import Ruleset
from xqdesk.score import PovScore
from xqdesk.terminal_text import printable


@dataclass
class _Running:
    """A game in progress, as the live panel shows it."""

    game: ScheduledGame
    started: float
    ply: int = 0
    red_score: Optional[PovScore] = None
    black_score: Optional[PovScore] = None


def fold_remarks(remarks: Sequence[tuple[int, str]]) -> list[str]:
    """The seats' remarks as lines, a remark said on several moves once with its count and plies
    (``42 moves, plies 81-163: … answered nobestmove …``)."""
    plies_of: dict[str, list[int]] = {}
    for index, text in remarks:
        plies_of.setdefault(text, []).append(index + 1)
    lines = []
    for text, plies in plies_of.items():
        if len(plies) == 1:
            lines.append(f"ply {plies[0]}: {text}")
        else:
            lines.append(f"{len(plies)} moves, plies {plies[0]}-{plies[-1]}: {text}")
    return lines


class PgnAppender:
    """A PGN file that each finished game is added to as it ends, so an interrupted run keeps
    every finished game. Games already in the file (an earlier run into the same folder, or
    another run going on at once) are never lost: each game is appended whole, flushed and synced,
    under a lock file beside it (``games.pgn.lock``), and nothing is truncated. :meth:`finish` puts
    this run's games in schedule order only when no one else wrote to the file in between."""

    def __init__(self, path: Path, event: str, ruleset: Ruleset) -> None:
        from filelock import FileLock

        self.path = path
        self.event = event
        self.ruleset = ruleset
        self._texts: dict[int, str] = {}
        self._appended: list[int] = []  # this run's games in the file, in the order they were written
        self._pending: list[int] = []  # games that could not be written yet (a full disk)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = FileLock(str(path) + ".lock")
        with self._lock:
            with path.open("ab"):
                pass  # the file exists from the start (an empty one if new); what it holds stays
            self._start = path.stat().st_size
        self.earlier_bytes = self._start
        """The size of what the file held before this run's first game (another run's games)."""

    @property
    def written(self) -> int:
        """This run's games in the file."""
        return len(self._appended)

    def append(self, played: PlayedGame) -> None:
        from xqdesk.formats.pgn import format_pgn

        number = played.scheduled.number
        self._texts[number] = format_pgn(to_game(played, self.event, self.ruleset))
        try:
            self._append(number)
        except OSError as error:  # a full disk: the match goes on, and finish() tries again
            self._pending.append(number)
            print(f"xqdesk: cannot append game {number} to {self.path}: {error.strerror or error}",
                  file=sys.stderr, flush=True)

    def _append(self, number: int) -> None:
        """Add one game whole at the end of the file, under the lock; a failed write is cut off
        again so the file ends with a whole game."""
        data = self._texts[number].encode("utf-8")
        with self._lock, self.path.open("r+b") as file:
            end = file.seek(0, os.SEEK_END)
            if end:
                file.seek(end - 1)
                if file.read(1) != b"\n":
                    data = b"\n\n" + data  # the file ends mid-line: the game starts on its own
            try:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            except OSError:
                file.truncate(end)
                raise
        self._appended.append(number)

    def finish(self) -> None:
        """Write the games that could not be appended before, then put this run's games in
        schedule order (games that run at once end in any order) when the file's end is just
        them, as written; the file is replaced atomically, so it stays whole."""
        from xqdesk.formats.atomic_write import write_bytes_atomically

        for number in list(self._pending):
            try:
                self._append(number)
            except OSError as error:
                print(f"xqdesk: game {number} could not be written to {self.path}: {error.strerror or error}",
                      file=sys.stderr, flush=True)
                continue
            self._pending.remove(number)
        if self._appended == sorted(self._appended):
            return
        ours = "".join(self._texts[number] for number in self._appended).encode("utf-8")
        try:
            with self._lock:
                data = self.path.read_bytes()
                if not data.endswith(ours) or len(data) - len(ours) < self._start:
                    return  # another run wrote in between: the order of ending stays
                ordered = "".join(self._texts[number] for number in sorted(self._appended)).encode("utf-8")
                write_bytes_atomically(self.path, data[:len(data) - len(ours)] + ordered)
        except OSError as error:  # the appended file is whole: only its order is lost
            print(f"xqdesk: {self.path} keeps its games in the order they ended ({error})", file=sys.stderr)

    def summary(self) -> str:
        """``PATH (N games)``, true to what this run added, and saying when the file held games before."""
        added = plural(self.written, "game")
        text = f"{self.path} ({added} added to the games already in it)" if self.earlier_bytes else \
            f"{self.path} ({added})"
        if self._pending:
            text += f"; {plural(len(self._pending), 'game')} could not be written"
        return text


class MatchReport:
    """Reports the games of one match or tournament as they end (see the module docstring).

    ``names``: the contestants; ``total``: games scheduled (None: until a test decides); ``sprt``:
    the test of contestant 0 against contestant 1, counted by pairs when ``pentanomial``;
    ``after_game`` is told of each finished game after it is counted and shown.
    """

    def __init__(self, names: Sequence[str], *, total: Optional[int], quiet: bool = False,
                 pgn: Optional[PgnAppender] = None, sprt: Optional[Sprt] = None, pentanomial: bool = False,
                 live: Optional[bool] = None, after_game: Optional[Callable[[PlayedGame], None]] = None) -> None:
        self.names = list(names)
        self.total = total
        self.quiet = quiet
        self.pgn = pgn
        self.sprt = sprt
        self.pentanomial = pentanomial
        self.results = PairedResults()
        self.sprt_status: Optional[SprtStatus] = None
        self.finished: list[PlayedGame] = []
        self.stopped: list[PlayedGame] = []
        self.runner: Optional[GamesRunner] = None
        self.started = time.monotonic()
        self._running: dict[int, _Running] = {}
        self._lock = threading.Lock()
        self.after_game = after_game
        self.live = (sys.stderr.isatty() and not quiet) if live is None else live
        self._live_display: Any = None

    # --- events (from the workers) ------------------------------------------------------------------
    def on_move(self, game: ScheduledGame, board: Board, reply: MoveReply) -> None:
        with self._lock:
            running = self._running.setdefault(game.number, _Running(game, time.monotonic()))
            running.ply = board.ply()
            if reply.score is not None:
                if board.turn == RED:  # Black just moved
                    running.black_score = reply.score
                else:
                    running.red_score = reply.score

    def on_game(self, played: PlayedGame) -> None:
        with self._lock:
            self._running.pop(played.scheduled.number, None)
        if not played.finished:
            self.stopped.append(played)
            if not self.quiet:
                print(f"Game {played.scheduled.number}: stopped after {plural(len(played.record.moves), 'ply', 'plies')}"
                      " (not counted, not written)", flush=True)
            return
        self.finished.append(played)
        if self.pgn is not None:
            self.pgn.append(played)
        self._count(played)
        if not self.quiet:
            self._print_game(played)
        if self.after_game is not None:
            self.after_game(played)
        if self.sprt_status is not None and self.sprt_status.verdict is not Verdict.CONTINUE and self.runner:
            self.runner.stop()

    def _count(self, played: PlayedGame) -> None:
        if len(self.names) != 2:
            return
        score = game_score(played.record.outcome, RED if played.scheduled.red == 0 else BLACK)
        if score is None:
            return
        self.results.add(score, played.scheduled.pair if self.pentanomial else None)
        if self.sprt is not None:
            counts = self.results.pentanomial if self.pentanomial else self.results.trinomial
            self.sprt_status = self.sprt.status(counts)

    def _print_game(self, played: PlayedGame) -> None:
        record = played.record
        winner = {"red": record.red, "black": record.black}.get(record.winner_side)
        verdict = f"{winner} wins" if winner else "draw"
        opening = played.scheduled.opening
        where = f" from {opening.label}" if opening is not None and opening.label != "start position" else ""
        print(printable(f"Game {played.scheduled.number}: {record.red} (red) vs {record.black} (black){where}, "
                        f"{plural(len(record.moves), 'ply', 'plies')}: {verdict}: {record.outcome.text}"), flush=True)
        for line in fold_remarks(record.remarks):  # an engine's words (its stderr when it crashed) among them
            print(f"  {printable(line)}", flush=True)
        if len(self.names) == 2:
            print(self.score_line(), flush=True)
            if self.sprt_status is not None:
                print(str(self.sprt_status), flush=True)

    def score_line(self) -> str:
        """cutechess-cli's ``Score of A vs B: W - L - D  [score] games``."""
        tally = self.results.tally
        return printable(f"Score of {self.names[0]} vs {self.names[1]}: {tally.wins} - {tally.losses} - "
                         f"{tally.draws}  [{tally.share:.3f}] {tally.games}")

    # --- the live panel ---------------------------------------------------------------------------
    def _panel(self) -> Any:
        from rich.text import Text

        with self._lock:
            running = sorted(self._running.values(), key=lambda item: item.game.number)
        done = len(self.finished)
        elapsed = time.monotonic() - self.started
        total = "?" if self.total is None else str(self.total)
        head = f"[{done}/{total}] elapsed {_clock(elapsed)}"
        if self.total is not None and done:
            head += f", ~{_clock(elapsed / done * max(self.total - done, 0))} left"
        if len(self.names) == 2 and done:
            head += f" | {self.score_line()}"
        if self.sprt_status is not None:
            head += f" | llr {self.sprt_status.llr:.2f} [{self.sprt.lower_bound:.2f}, {self.sprt.upper_bound:.2f}]" \
                if self.sprt is not None else ""
        lines = [head]
        now = time.monotonic()
        for item in running:
            red, black = self.names[item.game.red], self.names[item.game.black]
            scores = f"{_score(item.red_score)} / {_score(item.black_score)}"
            lines.append(f"  Game {item.game.number}: {red} vs {black}, ply {item.ply}, "
                         f"eval red / black (Red's view) {scores}, {_clock(now - item.started)}")
        return Text("\n".join(printable(line) for line in lines))

    def __enter__(self) -> MatchReport:
        if self.live:
            from rich.console import Console
            from rich.live import Live

            self._live_display = Live(console=Console(stderr=True), get_renderable=self._panel,
                                      refresh_per_second=2, transient=True,
                                      redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
            self._live_display.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._live_display is not None:
            self._live_display.stop()
            self._live_display = None


def _score(score: Optional[PovScore]) -> str:
    return "-" if score is None else str(score.red())


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"


@contextmanager
def stop_on_signals(runner: GamesRunner) -> Iterator[list[int]]:
    """While inside: the first SIGINT (Ctrl+C) or SIGTERM stops ``runner`` within one move and
    is noted in the yielded list; a second raises KeyboardInterrupt (the runner then ends its
    engines at once). Handlers are installed whatever the signals' inherited disposition (a
    background job starts with SIGINT ignored) and restored on the way out. Outside the main
    thread nothing is installed."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def handle(number: int, _frame: object) -> None:
        received.append(number)
        if len(received) > 1:
            raise KeyboardInterrupt
        runner.stop()
        report_error(f"{signal.Signals(number).name}: stopping after the current move (again to stop at once)")

    previous = {number: signal.signal(number, handle) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


__all__ = ["MatchReport", "PgnAppender", "fold_remarks", "plural", "stop_on_signals"]
