"""At the window's first start after an install: the built-in engine compiled in the background,
with its progress in the status bar (see :mod:`xqdesk.engines.compiled_code`).

The compilation runs in a process of its own (``python -m xqdesk.engines.compiled_code builtin``),
so the window stays responsive; an engine started meanwhile waits for it rather than compiling
beside it, and the status bar says how far it is and how long it still takes.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from xqdesk.engines.compiled_code import Progress, is_ready, parse_progress_line
from xqdesk.engines.spec import host_environment
from xqdesk.ui.i18n import tr

READY_MESSAGE_MS = 8000


class EnginePreparation(QObject):
    """Compiles the built-in engine in the background and shows its progress in ``status_bar``."""

    def __init__(self, status_bar: QStatusBar, kind: str = "builtin") -> None:
        super().__init__(status_bar)
        self.status_bar = status_bar
        self.kind = kind
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setMaximumWidth(160)
        self.process: QProcess | None = None
        self._last_line = ""

    def start(self) -> bool:
        """Start the compilation unless the code is ready; whether it started."""
        if is_ready(self.kind):
            return False
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
        self._show(Progress(self.kind, 0.0, 0.0, "", 0.0))
        process.start(sys.executable, ["-m", "xqdesk.engines.compiled_code", self.kind])
        return True

    def is_running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning

    def stop(self) -> None:
        """End the compilation (when the window closes); it starts again next time."""
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
        text = tr("Preparing the built-in engine for this computer (first start only)")
        if progress.fraction > 0:
            text += " · " + tr("about {seconds} s left").format(seconds=f"{progress.seconds_left():.0f}")
        self.label.setText(text)
        self.bar.setValue(int(progress.fraction * 100))

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        self._read()
        self.status_bar.removeWidget(self.label)
        self.status_bar.removeWidget(self.bar)
        if code == 0:
            self.status_bar.showMessage(tr("The built-in engine is ready."), READY_MESSAGE_MS)
        elif self._last_line:
            self.status_bar.showMessage(tr("Could not prepare the built-in engine ahead: {reason}")
                                        .format(reason=self._last_line), READY_MESSAGE_MS)
