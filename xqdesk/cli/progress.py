"""Progress of a long command on the terminal: a rich bar (or, when the amount of work is not
known, a spinner) with the elapsed time, on stderr, shown only when stderr is a terminal — never
in a pipe, a log file or a test's captured output. The command's own output on stdout goes on
as usual (above the bar when both are the terminal)."""
from __future__ import annotations

import sys
from typing import Any, Optional


class CommandProgress:
    """``with CommandProgress("checking games", total=N) as progress: … progress.advance()``;
    ``total`` None shows a spinner. ``describe`` changes the text (a new phase of the work)."""

    def __init__(self, description: str, total: Optional[int] = None) -> None:
        self.description = description
        self.total = total
        self.shown = sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> CommandProgress:
        if self.shown:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                                      transient=True, redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def advance(self, amount: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, amount)

    def update(self, done: int, total: int) -> None:
        """Set how much of how much is done (a reader's bytes, say)."""
        if self._progress is not None:
            self._progress.update(self._task, completed=done, total=total)

    def describe(self, description: str, total: Optional[int] = None) -> None:
        """A new phase: its text, and its amount of work (None: a spinner), counted from 0."""
        if self._progress is not None:
            self._progress.reset(self._task, description=description, total=total)

    def __exit__(self, *exc_info: object) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
