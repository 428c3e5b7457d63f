"""A banner across the top of the window for messages that must not be missed (a game's end, an
engine that failed, a file that could not be opened or saved).

Unlike the status bar it does not time out: it stays until the user dismisses it (its × button)
or the window clears it because the message no longer applies (a new game, another file).
"""
from __future__ import annotations

import enum

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from xqdesk.ui.base.i18n import follow_language, tr


class BannerKind(enum.Enum):
    """How a message looks: an error (red) or news such as a game's end (blue)."""

    ERROR = "error"
    INFO = "info"


STYLES = {
    BannerKind.ERROR: "background: #fbe3e1; border: 1px solid #c0251b; color: #7a140d;",
    BannerKind.INFO: "background: #e3edfb; border: 1px solid #2a5db0; color: #13305e;",
}


class MessageBanner(QFrame):
    """One message at a time, shown until dismissed; ``dismissed`` when the user closes it."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-banner")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._kind = BannerKind.INFO
        self._lines: list[str] = []
        self.retranslate()
        follow_language(self, self.retranslate)
        self.hide()

    def retranslate(self) -> None:
        self.close_button.setToolTip(tr("Dismiss"))

    def show_message(self, text: str, kind: BannerKind = BannerKind.INFO) -> None:
        """Show ``text`` until dismissed or cleared, below the messages already on show (an
        engine's failure and the game's end it caused are both kept); an error makes it red."""
        lines = self._lines if not self.isHidden() else []
        if text not in lines:
            lines = lines + [text]
        self._lines = lines
        if self.isHidden() or kind is BannerKind.ERROR:
            self._kind = kind
        self.setStyleSheet(f"QFrame#message-banner {{{STYLES[self._kind]} border-radius: 4px;}}")
        self.label.setText("\n".join(lines))
        self.show()

    def text(self) -> str:
        """The message on show ('' when none)."""
        return self.label.text() if not self.isHidden() else ""

    def kind(self) -> BannerKind:
        return self._kind

    def clear(self) -> None:
        """Take the message away (it no longer applies)."""
        self.label.clear()
        self._lines = []
        self.hide()

    def dismiss(self) -> None:
        """The user closed the message."""
        self.clear()
        self.dismissed.emit()
