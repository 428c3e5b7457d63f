"""The comment pane: the comment after the viewed move (at the start, the game's opening comment),
editable; every edit is written into the game through the controller, so saving keeps it.

A review's machine commands (``[%eval 1.97,5] [%best g7h5]``) are not shown: the pane edits the
words only, and the commands stay in the record as they were (:func:`xqdesk.review.with_text`)."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from xqdesk.review import strip_commands, with_text
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.game.game_controller import GameController

EDITOR_LINES = 3
"""Lines of text the pane shows without scrolling."""


class CommentEditor(QWidget):
    """A text box bound to the comment of the controller's viewed move. Its title (what the
    comment is on: this move, or the game) is the empty box's placeholder and its tooltip, not a
    line of its own: on a laptop screen that line is a move row."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._loading = False
        self.title = QLabel()
        self.title.setVisible(False)  # said by the placeholder and the tooltip
        self.editor = QPlainTextEdit()
        self.editor.setTabChangesFocus(True)
        line_height = self.editor.fontMetrics().lineSpacing()
        self.editor.setFixedHeight(line_height * EDITOR_LINES + 12)
        self.editor.textChanged.connect(self._on_edited)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.editor)
        controller.position_changed.connect(self.load)
        controller.game_changed.connect(self.load)
        follow_language(self, self.retranslate)
        self.retranslate()
        self.load()

    def text(self) -> str:
        return self.editor.toPlainText()

    def retranslate(self) -> None:
        title = tr("Comment on this move") if self._controller.ply() else tr("Comment on the game")
        self.title.setText(title)
        self.editor.setToolTip(title)
        self.editor.setPlaceholderText(tr("{title} (type to add one)").format(title=title))

    def load(self) -> None:
        """Show the viewed move's comment (unless it is already the text being edited)."""
        comment = strip_commands(self._controller.comment())
        self.retranslate()
        if comment == self.editor.toPlainText():
            return
        self._loading = True
        try:
            self.editor.setPlainText(comment)
        finally:
            self._loading = False

    def _on_edited(self) -> None:
        if not self._loading:
            self._controller.set_comment(with_text(self._controller.comment(), self.editor.toPlainText()))
