"""The game's information above the move list: who plays Red and Black, the event, site, date and
round, and the result with the reason the game ended.

It reads the :class:`~xqdesk.ui.game.game_controller.GameController` (the record's headers and its
outcome) and never changes anything.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from xqdesk.game import Game
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import RED
from xqdesk.ui.base.i18n import follow_language, tr, tr_outcome, tr_player
from xqdesk.ui.game.game_controller import GameController

UNKNOWN_PLAYER = "?"
"""Shown for a side whose name the record does not give (a course history names nobody)."""

RED_NAME_STYLE = "color: #b22222; font-weight: bold;"
BLACK_NAME_STYLE = "color: #202020; font-weight: bold;"


def player_name(game: Game, side: str) -> str:
    """The name of ``side`` ('Red' or 'Black') in ``game``'s headers, with the team when given."""
    name = tr_player(game.headers.get(side, "").strip()) or UNKNOWN_PLAYER
    team = game.headers.get(f"{side}Team", "").strip()
    return f"{name} ({team})" if team else name


def event_text(game: Game) -> str:
    """Event, site, date and round, those the record gives, in one line."""
    headers = game.headers
    parts = [headers.get(tag, "").strip() for tag in ("Event", "Site", "Date")]
    round_number = headers.get("Round", "").strip()
    if round_number:
        parts.append(tr("Round {number}").format(number=round_number))
    return " · ".join(part for part in parts if part and part != "?")


def winner_text(outcome: Outcome) -> str:
    """'Red wins', 'Black wins', 'Draw' or, for a game aborted, 'No result' in the current language."""
    if outcome.termination is Termination.ABORTED:
        return tr("No result")
    if outcome.winner is None:
        return tr("Draw")
    return tr("Red wins") if outcome.winner == RED else tr("Black wins")


def result_text(outcome: Outcome | None) -> str:
    """``'1-0 — Red wins: Black's general is captured'``, or ``'0-1 — Red resigns, Black wins!'``
    when the reason names the winner itself (never twice); '' while the game goes on."""
    if outcome is None:
        return ""
    winner, reason = winner_text(outcome), tr_outcome(outcome.text)
    if outcome.termination is Termination.ABORTED:  # no winner and no draw: the reason says it
        return f"{outcome.result()} — {reason or winner}"
    if reason.strip(" .!") in ("", winner):  # a record that says only "Draw" says it once
        return f"{outcome.result()} — {winner}"
    if winner.lower() in reason.lower():  # "Red resigns, Black wins!" names the winner already
        return f"{outcome.result()} — {reason}"
    return f"{outcome.result()} — " + tr("{winner}: {reason}").format(winner=winner, reason=reason)


class GameInfoPanel(QWidget):
    """Red's and Black's names, the event line and the result line of the controller's game."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self.red_label = QLabel()
        self.red_label.setStyleSheet(RED_NAME_STYLE)
        self.black_label = QLabel()
        self.black_label.setStyleSheet(BLACK_NAME_STYLE)
        self.event_label = QLabel()
        self.result_label = QLabel()
        self.result_label.setStyleSheet("font-weight: bold;")
        for label in (self.red_label, self.black_label, self.event_label, self.result_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            # wrapped lines take the height they need: the move list below gives way, never the text
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for label in (self.red_label, self.black_label, self.event_label, self.result_label):
            layout.addWidget(label)
        controller.game_changed.connect(self.refresh)
        controller.position_changed.connect(self.refresh)
        controller.game_over.connect(lambda _outcome: self.refresh())
        follow_language(self, self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show the controller's game as it stands now."""
        game = self._controller.game()
        self.red_label.setText(tr("{side}: {name}").format(side=tr("Red"), name=player_name(game, "Red")))
        self.black_label.setText(tr("{side}: {name}").format(side=tr("Black"), name=player_name(game, "Black")))
        events = event_text(game)
        self.event_label.setText(events)
        self.event_label.setVisible(bool(events))
        result = result_text(self._controller.outcome())
        self.result_label.setText(result)
        self.result_label.setVisible(bool(result))
