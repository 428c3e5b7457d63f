"""The engines' compiled code prepared in the background, with its progress in the status bar
(see :mod:`xqdesk.engines.compiled_code`).

At the window's first start after an install the built-in engine is prepared; an engine of
another kind (``mcts``, ``zero``, the tablebase solver) is prepared when the window first starts
one. Each preparation runs in a process of its own (``python -m xqdesk.engines.compiled_code
KIND``), so the window stays responsive; an engine started meanwhile waits for it rather than
compiling beside it, and the status bar says what is being prepared, how far it is and how long
it still takes.
"""
from __future__ import annotations

import sys
from typing import Callable, Optional

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from xqdesk.engines.compiled_code import KIND_OF_CODE, Progress, is_ready, parse_progress_line
from xqdesk.engines.spec import EngineSpec, host_environment, host_kind
from xqdesk.ui.base.i18n import tr

READY_MESSAGE_MS = 8000

_current: Optional[EnginePreparation] = None


def code_kind(spec: EngineSpec) -> Optional[str]:
    """The compiled code ``spec``'s engine runs (None: none of xqdesk's, e.g. an outside engine)."""
    return KIND_OF_CODE.get(host_kind(spec.command) or "")


def announce_engine(spec: EngineSpec) -> None:
    """An engine is about to start: the window's preparation (if one is installed) prepares its
    code in view when that is not ready, so the wait for its first move is explained."""
    if _current is not None:
        kind = code_kind(spec)
        if kind is not None:
            _current.prepare(kind)


def prepare_in_view(kind: str, then: Callable[[], None]) -> bool:
    """Whether ``kind``'s code is not ready and the window's preparation now prepares it in view;
    ``then`` runs once that has ended (also when it failed). False: ready, or no window to show
    it (the caller then runs the code at once, which compiles it in place if need be)."""
    if _current is None or is_ready(kind):
        return False
    _current.prepare(kind)
    _current.when_done(kind, then)
    return True


def engine_name(kind: str) -> str:
    """``kind``'s code as the status bar names it, in the interface language."""
    return {"builtin": tr("the built-in engine"), "egtb": tr("the tablebase solver")}.get(
        kind, tr("the {name} engine").format(name=kind))


class EnginePreparation(QObject):
    """Prepares engine code kinds one after another in a background process and shows each one's
    progress in ``status_bar``. :meth:`install` makes it the one :func:`announce_engine` uses."""

    def __init__(self, status_bar: QStatusBar, kind: str = "builtin") -> None:
        super().__init__(status_bar)
        self.status_bar = status_bar
        self.kind = kind
        """The kind being prepared (or the first to prepare)."""
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setMaximumWidth(160)
        self.process: QProcess | None = None
        self._waiting: list[str] = []
        self._callbacks: dict[str, list[Callable[[], None]]] = {}
        self._last_line = ""

    def install(self) -> None:
        """Make this the preparation that engines started in the window announce themselves to."""
        global _current
        _current = self

    def start(self) -> bool:
        """Start preparing :attr:`kind` unless its code is ready; whether it started."""
        return self.prepare(self.kind)

    def prepare(self, kind: str) -> bool:
        """Prepare ``kind`` now, or after the one under way; whether anything is to be done."""
        if is_ready(kind) or kind in self._waiting or (self.is_running() and kind == self.kind):
            return False
        if self.is_running():
            self._waiting.append(kind)
            return True
        self._run(kind)
        return True

    def when_done(self, kind: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the preparation of ``kind`` has ended."""
        self._callbacks.setdefault(kind, []).append(callback)

    def _run(self, kind: str) -> None:
        self.kind = kind
        self._last_line = ""
        environment = QProcessEnvironment()
        for name, value in host_environment().items():
            environment.insert(name, value)
        process = QProcess(self)
        process.setProcessEnvironment(environment)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        process.readyReadStandardOutput.connect(self._read)
        process.finished.connect(self._finished)
        self.process = process
        self.status_bar.addPermanentWidget(self.label)
        self.status_bar.addPermanentWidget(self.bar)
        self.label.show()
        self.bar.show()
        self._show(Progress(kind, 0.0, 0.0, "", 0.0))
        process.start(sys.executable, ["-m", "xqdesk.engines.compiled_code", kind])

    def is_running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning

    def stop(self) -> None:
        """End the preparation (when the window closes); it starts again next time."""
        global _current
        if _current is self:
            _current = None
        self._waiting.clear()
        self._callbacks.clear()
        if self.is_running() and self.process is not None:
            self.process.kill()
            self.process.waitForFinished(3000)

    def _read(self) -> None:
        if self.process is None:
            return
        while self.process.canReadLine():
            line = bytes(self.process.readLine().data()).decode("utf-8", "replace")
            progress = parse_progress_line(line)
            if progress is not None:
                self._show(progress)
            elif line.strip():
                self._last_line = line.strip()

    def _show(self, progress: Progress) -> None:
        text = tr("Preparing {engine} for this computer (first start only)").format(engine=engine_name(progress.kind))
        if progress.fraction > 0:
            text += " · " + tr("about {seconds} s left").format(seconds=f"{progress.seconds_left():.0f}")
        self.label.setText(text)
        self.bar.setValue(int(progress.fraction * 100))

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        self._read()
        self.status_bar.removeWidget(self.label)
        self.status_bar.removeWidget(self.bar)
        name = engine_name(self.kind)
        if code == 0:
            message = tr("{engine} is ready.").format(engine=name)
            self.status_bar.showMessage(message[:1].upper() + message[1:], READY_MESSAGE_MS)
        elif self._last_line:
            self.status_bar.showMessage(tr("Could not prepare {engine} ahead: {reason}")
                                        .format(engine=name, reason=self._last_line), READY_MESSAGE_MS)
        for callback in self._callbacks.pop(self.kind, []):
            callback()
        if self._waiting:
            self._run(self._waiting.pop(0))
