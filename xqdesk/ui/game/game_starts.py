"""Starting games in the window: the New game dialog's choices, the quick starts, and the position
editor's "Start game"."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QWidget

from xqdesk.engines.registry import discover_engines
from xqdesk.fen import STARTING_FEN
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineProfile, SavedSettings, Settings
from xqdesk.ui.board.position_editor import PositionEditorDialog
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.game.live_game import LiveSettings
from xqdesk.ui.game.seat_dialogs import (
    BUILTIN_PROFILES,
    NewGameDialog,
    available_engines,
    engine_clock_setting,
    engine_problem,
    engine_strength,
    mode_for_seats,
)


def live_settings(settings: Settings) -> LiveSettings:
    """What the live game plays under, as the window's settings say: the one way settings reach it
    (the window's constructor, then :meth:`~xqdesk.ui.game.live_game.LiveGame.configure`)."""
    return LiveSettings(engine_clock=engine_clock_setting(settings), engine_delay=settings.engine_delay)


class GameStarts(QObject):
    """Starts games on ``controller``; ``face_person(red_is_engine)`` turns the board so a person
    playing an engine plays from the bottom, ``before_editor_game`` runs before the editor's game,
    and ``confirm_discard()`` says whether the game on show may be replaced (unsaved moves or
    comments are saved or given up first)."""

    def __init__(self, controller: GameController, settings: SavedSettings, face_person: Callable[[bool], None],
                 before_editor_game: Callable[[], None], parent: QWidget,
                 confirm_discard: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        self._confirm_discard = confirm_discard
        self._controller = controller
        self._settings = settings
        self._face_person = face_person
        self._before_editor_game = before_editor_game
        self._window = parent
        self.position_editor: PositionEditorDialog | None = None
        """The position editor while it is open."""

    def start(self, red: EngineProfile | None, black: EngineProfile | None,
              start_fen: str = STARTING_FEN, time_controls: dict[Color, TimeControl] | None = None) -> None:
        """A new game with these seats (None: a person) and clocks (by default an engine gets the
        engine clock, a person none); the person plays from the bottom."""
        mode = mode_for_seats(red, black)
        self._controller.new_game(mode, red=red, black=black, start_fen=start_fen, time_controls=time_controls)
        if mode is Mode.PERSON_VS_ENGINE:
            self._face_person(red is not None)
            strength = engine_strength(red or black)
            if strength:
                self._controller.status_message.emit(strength)  # the opponent says what it is

    def start_asking(self, red: EngineProfile | None, black: EngineProfile | None,
                     start_fen: str = STARTING_FEN, time_controls: dict[Color, TimeControl] | None = None) -> bool:
        """:meth:`start` as the user asked for it: unsaved moves or comments are saved or given up
        first (False: the user kept the game, nothing started)."""
        if not self._confirm_discard():
            return False
        self.start(red, black, start_fen, time_controls)
        return True

    def choose(self) -> None:
        """*File → New game*: ask for the seats, clocks, delay and start; remember the choices."""
        settings = self._settings.current
        dialog = NewGameDialog(available_engines(settings), settings.engine_clock, settings.person_clock,
                               settings.engine_delay, can_continue=True, parent=self._window)
        if dialog.exec() != QDialog.DialogCode.Accepted or not self._confirm_discard():
            return
        red, black = dialog.seats()
        controls = dialog.time_controls()
        remembered = {"engine_clock" if seat is not None else "person_clock": controls[color].text()
                      for color, seat in ((RED, red), (BLACK, black))}
        settings = self._settings.update(engine_delay=dialog.delay.value(), **remembered)
        self._controller.live.configure(live_settings(settings))
        start = self._controller.board().fen() if dialog.from_here.isChecked() else STARTING_FEN
        self.start(red, black, start, controls)

    def default_engine(self) -> EngineProfile:
        """The engine the quick-start actions seat: the user's first that can start (one whose
        program is gone is passed over, and so is a full-strength engine the first start found
        installed: it is there for analysis), else the built-in level 3."""
        found = discover_engines()
        usable = [profile for profile in self._settings.current.engines
                  if engine_problem(profile) is None and profile not in found]
        return usable[0] if usable else BUILTIN_PROFILES[1]

    def edit_position(self) -> None:
        """Open the position editor on the viewed position; its "Start game" starts a game there."""
        dialog = PositionEditorDialog(self._controller.board().fen(), self._window,
                                      engines=available_engines(self._settings.current))
        dialog.accepted.connect(lambda: self._start_from_editor(dialog.fen, *dialog.seats()))
        dialog.finished.connect(lambda _result: setattr(self, "position_editor", None))
        self.position_editor = dialog
        dialog.show()

    def _start_from_editor(self, fen: str | None, red: EngineProfile | None = None,
                           black: EngineProfile | None = None) -> None:
        if fen is None or not self._confirm_discard():
            return
        self._before_editor_game()
        self.start(red, black, fen)
