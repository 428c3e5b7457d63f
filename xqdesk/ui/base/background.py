"""Long work off the GUI thread, with a progress bar and a *Cancel* button in the status bar.

:class:`BackgroundJob` runs ``work(progress)`` in a thread of its own: the work reports how far
it is with ``progress.report(done, total)`` and stops early when ``progress.cancelled()`` (or
:class:`JobCancelled`, raised by ``progress.check()``). Exactly one of ``finished(result)``,
``failed(reason)`` or ``cancelled()`` arrives in the GUI thread when it ends. Progress reports
are forwarded at most every :data:`REPORT_INTERVAL_S` (the last one always), so a fast loop
never floods the window's thread with signals.

:class:`JobProgressBar` is the status bar's view of one job: what it does, how far it is, and a
*Cancel* button.
"""
from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from xqdesk.ui.base.i18n import tr

REPORT_INTERVAL_S = 0.05
"""At most this often a job's progress reaches the window."""

Result = TypeVar("Result")

_collector_rests = 0
_collector_lock = threading.Lock()


def rest_collector() -> None:
    """While a job makes many objects (reading games, indexing them), Python's cyclic collector,
    walking all of them as they grow, would hold the interpreter for a fifth of a second at a
    time and freeze the window: it rests until every job that asked has called
    :func:`wake_collector`."""
    global _collector_rests
    with _collector_lock:
        _collector_rests += 1
        gc.disable()


def wake_collector() -> None:
    """The job that called :func:`rest_collector` is done; the last one lets the collector run."""
    global _collector_rests
    with _collector_lock:
        _collector_rests = max(0, _collector_rests - 1)
        if not _collector_rests:
            gc.enable()


class JobCancelled(Exception):
    """Raised by :meth:`JobProgress.check` once the job has been cancelled."""


class JobProgress:
    """What a job's work is handed: where to report progress and how to learn of a cancel."""

    def __init__(self, job: BackgroundJob[Any]) -> None:
        self._job = job
        self._last_report = 0.0

    def report(self, done: int, total: int) -> None:
        """``done`` of ``total`` steps are done (forwarded at most every REPORT_INTERVAL_S, and
        always when ``done == total``)."""
        now = time.monotonic()
        if done >= total or now - self._last_report >= REPORT_INTERVAL_S:
            self._last_report = now
            self._job._progressed_in_thread.emit(done, total)

    def cancelled(self) -> bool:
        return self._job.is_cancelled()

    def check(self) -> None:
        """Raise JobCancelled when the job has been cancelled."""
        if self._job.is_cancelled():
            raise JobCancelled


class ThreadedObject(QObject):
    """A QObject whose :meth:`_run` runs once in a thread of its own, named ``thread_name``:
    :meth:`start` it, ask :meth:`is_running`, :meth:`wait` for it."""

    def __init__(self, thread_name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._thread.start()

    def is_running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait for the thread to end; True when it has."""
        if self._thread.ident is not None:
            self._thread.join(timeout)
        return not self._thread.is_alive()


class BackgroundJob(ThreadedObject, Generic[Result]):
    """``work(progress) -> result`` in its own thread; see the module docstring for the signals,
    which are all emitted in the thread the job was made in (the window's), so any callable may
    take them. ``description`` says what it does (shown beside its progress bar)."""

    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    # emitted by the work's thread; the job's own methods (queued to its thread) pass them on
    _progressed_in_thread = Signal(int, int)
    _ended_in_thread = Signal(str, object)

    def __init__(self, description: str, work: Callable[[JobProgress], Result],
                 errors: tuple[type[BaseException], ...] = (OSError,), parent: QObject | None = None) -> None:
        super().__init__("background-job", parent)
        self.description = description
        self._work = work
        self._errors = errors
        self._cancel = threading.Event()
        self._progressed_in_thread.connect(self._pass_progress)
        self._ended_in_thread.connect(self._pass_end)

    def _pass_progress(self, done: int, total: int) -> None:
        self.progressed.emit(done, total)

    def _pass_end(self, how: str, value: object) -> None:
        if how == "finished":
            self.finished.emit(value)
        elif how == "failed":
            self.failed.emit(value)
        else:
            self.cancelled.emit()

    def cancel(self) -> None:
        """Ask the work to stop; ``cancelled`` follows once it has (unless it had just ended)."""
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def _run(self) -> None:
        try:
            result = self._work(JobProgress(self))
        except JobCancelled:
            self._ended_in_thread.emit("cancelled", None)
            return
        except self._errors as error:
            self._ended_in_thread.emit("failed", str(error))
            return
        except Exception as error:  # noqa: BLE001 - a bug must still end the job (its bar, its cursor)
            self._ended_in_thread.emit("failed", f"internal error: {type(error).__name__}: {error}")
            return
        self._ended_in_thread.emit("cancelled" if self._cancel.is_set() else "finished", result)


class JobProgressBar(QWidget):
    """A job's description, its progress bar and a *Cancel* button (which cancels the job)."""

    def __init__(self, job: BackgroundJob[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self.label = QLabel(job.description)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy until the first report
        self.bar.setMaximumWidth(180)
        self.bar.setTextVisible(True)
        self.cancel_button = QToolButton()
        self.cancel_button.setText(tr("Cancel"))
        self.cancel_button.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        job.progressed.connect(self._on_progress)

    def _on_progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.label.setText(tr("Cancelling…"))
        self.job.cancel()
