"""The main window: board, clocks and move list, score graph, menus and toolbar, status bar.

The window wires widgets to the :class:`GameController` and turns menu actions into controller
calls; it holds no game state of its own.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDockWidget, QDoubleSpinBox, QFileDialog, QFormLayout,
    QInputDialog, QLabel, QMainWindow, QMenu, QProgressDialog, QSplitter, QStyle, QTabWidget, QToolBar,
    QToolButton, QVBoxLayout, QWidget,
)

from xqdesk.board import Board
from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.game import Game
from xqdesk.time_control import TimeControl
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move, parse_line
from xqdesk.outcome import Outcome
from xqdesk.engines.search_types import SearchLimits
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.review import GameReview, read_review, write_review
from xqdesk.score import PovScore, Score
from xqdesk.ui.board_view import Arrow, BoardView
from xqdesk.ui.clock import ClockDisplay
from xqdesk.ui.engine_panel import EnginePanel, score_text
from xqdesk.ui.engine_worker import SearchProgress
from xqdesk.ui.engines_dialog import EnginesDialog
from xqdesk.ui.eval_bar import EvalBar
from xqdesk.ui.explorer_panel import ExplorerPanel
from xqdesk.ui.export_jobs import GameExports, PdfDialog
from xqdesk.ui.index_builder import BuildResult, IndexBuilder
from xqdesk.ui.comment_editor import CommentEditor
from xqdesk.ui.files import FileManager
from xqdesk.ui.fog_window import FogGameWindow
from xqdesk.ui.game_info import GameInfoPanel
from xqdesk.ui.game_controller import GameController, Mode
from xqdesk.ui.i18n import Language, current_language, language_notifier, set_language, tr, tr_outcome
from xqdesk.ui.game_info import result_text
from xqdesk.ui.message_banner import BannerKind, MessageBanner
from xqdesk.ui.sounds import SoundEvent, SoundPlayer, event_for_move
from xqdesk.ui.themes import THEMES, theme_named
from xqdesk.ui.move_list import MoveList
from xqdesk.ui.pictures import DEFAULT_GIF_DELAY, copy_picture, line_scenes, save_picture
from xqdesk.ui.position_editor import PositionEditorDialog
from xqdesk.ui.reasons import tr_reason
from xqdesk.ui.review_dialog import ReviewDialog, ReviewProgress
from xqdesk.ui.review_worker import ReviewWorker
from xqdesk.ui.score_graph import red_view_pawns
from xqdesk.ui.tablebase_pane import TablebasePane
from xqdesk.ui.tournament_window import TournamentWindow
from xqdesk.ui.review_summary import ReviewSummary
from xqdesk.ui.variation_list import VariationList
from xqdesk.ui.variation_tree import VariationTree
from xqdesk.ui.settings import (
    EngineKind, EngineProfile, ScoreView, Settings, load_settings, open_store, save_settings,
)

STATUS_TIMEOUT_MS = 10_000
PICTURE_WIDTH = 720
"""Width in pixels of the pictures the window exports (PNG, GIF frames, the clipboard)."""
PICTURE_FILTERS = ("PNG (*.png)", "SVG (*.svg)")
INDEX_FILTER = "*.xqdb *.db *.sqlite"
TOOLBAR_ICONS = {
    "First move": QStyle.StandardPixmap.SP_MediaSkipBackward,
    "Previous move": QStyle.StandardPixmap.SP_MediaSeekBackward,
    "Next move": QStyle.StandardPixmap.SP_MediaSeekForward,
    "Last move": QStyle.StandardPixmap.SP_MediaSkipForward,
    "Play through": QStyle.StandardPixmap.SP_MediaPlay,
}
"""Toolbar buttons shown as icons, so the toolbar fits an 800-px window without overflowing."""

ENGINE_DOCK_HEIGHT = 300
ENGINE_DOCK_SHARE = 0.22
"""The engine dock's first height: ENGINE_DOCK_HEIGHT, or this share of a shorter window."""
EXPLORER_DOCK_WIDTH = 430
"""The explorer dock's first width."""
SECOND_ENGINE_ARROW_RANK = 3
"""The second analysis engine's arrow takes this rank's colour, apart from the first's lines."""

BUILTIN_PROFILES = tuple(EngineProfile(f"Built-in level {level}", EngineKind.BUILTIN, level=level)
                         for level in (1, 3, 5))
"""Engines offered even before any is set up."""

ANALYSIS_PROFILE = EngineProfile("Built-in", EngineKind.BUILTIN, level=20)
"""The engine that analyses when none is chosen: the built-in one at full strength."""
TABLEBASE_PROFILE_NAME = "Tablebase"
"""The name the tablebase directory of the settings has among the analysis engines."""


def available_engines(settings: Settings) -> tuple[EngineProfile, ...]:
    """The user's engines that can start (an engine whose program or player is gone is never
    offered), then the built-in levels not already among them."""
    usable = tuple(profile for profile in settings.engines if engine_problem(profile) is None)
    names = {profile.name for profile in usable}
    return usable + tuple(p for p in BUILTIN_PROFILES if p.name not in names)


def engine_problem(profile: EngineProfile) -> str | None:
    """Why ``profile`` cannot be started as it is set up (None: nothing known against it)."""
    if profile.kind is EngineKind.BUILTIN:
        return None
    path = Path(profile.path)
    if not path.exists():
        return f"{profile.path!r} does not exist"
    if profile.kind is EngineKind.UCI and not (path.is_file() and os.access(path, os.X_OK)):
        return f"{profile.path!r} is not an executable program"
    return None


TIME_CONTROL_PRESETS = ("10s", "none", "15m+5s", "20m|30s", "5m+3s", "30s")
"""Time controls offered in the New game dialog (any other can be typed; see TimeControl.parse)."""


def _engine_clock(settings: Settings) -> TimeControl:
    """The clock an engine seat gets by default (the course's 10 s when the setting is unreadable)."""
    try:
        return TimeControl.parse(settings.engine_clock)
    except ValueError:
        return TimeControl.per_move(10.0)


class NewGameDialog(QDialog):
    """Choose who plays Red and Black (a person or an engine), each side's clock and the start
    position. A side's clock follows its seat (``engine_clock`` for an engine, ``person_clock``
    for a person) until the user edits it."""

    def __init__(self, engines: tuple[EngineProfile, ...], engine_clock: str, person_clock: str, delay: float,
                 can_continue: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("New game"))
        self._engines = engines
        self._default_clocks = {True: engine_clock, False: person_clock}
        self.red_box, self.black_box = QComboBox(), QComboBox()
        self.red_clock, self.black_clock = QComboBox(), QComboBox()
        for box, clock in ((self.red_box, self.red_clock), (self.black_box, self.black_clock)):
            box.addItem(tr("Person"), None)
            for profile in engines:
                box.addItem(profile.name, profile)
            clock.setEditable(True)
            clock.addItems(TIME_CONTROL_PRESETS)
            clock.setToolTip(tr("Seconds a move ('10s'), game time plus increment ('15m+5s'), "
                                "main time then byo-yomi ('20m|30s'), or 'none'"))
            clock.setCurrentText(person_clock)
            box.currentIndexChanged.connect(
                lambda _index, seat=box, chosen=clock: chosen.setCurrentText(
                    self._default_clocks[seat.currentData() is not None]))
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #c0251b;")
        self.delay = QDoubleSpinBox()
        self.delay.setRange(0.0, 60.0)
        self.delay.setDecimals(2)
        self.delay.setValue(delay)
        self.from_here = QCheckBox(tr("New game from this position"))
        self.from_here.setEnabled(can_continue)
        form = QFormLayout()
        form.addRow(tr("Red"), self.red_box)
        form.addRow(tr("Red's clock"), self.red_clock)
        form.addRow(tr("Black"), self.black_box)
        form.addRow(tr("Black's clock"), self.black_clock)
        form.addRow(tr("Delay between moves"), self.delay)
        form.addRow(self.from_here)
        form.addRow(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def seats(self) -> tuple[EngineProfile | None, EngineProfile | None]:
        return self.red_box.currentData(), self.black_box.currentData()

    def time_controls(self) -> dict[Color, TimeControl]:
        """Each side's clock as typed; ValueError says which side's text is wrong and why."""
        controls = {}
        for color, clock in ((RED, self.red_clock), (BLACK, self.black_clock)):
            try:
                controls[color] = TimeControl.parse(clock.currentText())
            except ValueError as error:
                side = tr("Red") if color == RED else tr("Black")
                raise ValueError(f"{side}: {error}") from None
        return controls

    def accept(self) -> None:
        """Accept only when both clocks read as time controls (else say why and stay open)."""
        try:
            self.time_controls()
        except ValueError as error:
            self.error_label.setText(str(error))
            return
        super().accept()


class AnalysisEnginesDialog(QDialog):
    """Choose the one or two engines that analyse side by side."""

    def __init__(self, engines: tuple[EngineProfile, ...], chosen: list[EngineProfile],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Analysis engines…"))
        self.first_box, self.second_box = QComboBox(), QComboBox()
        self.second_box.addItem(tr("(no engine)"), None)
        for profile in engines:
            self.first_box.addItem(profile.name, profile)
            self.second_box.addItem(profile.name, profile)
        for box, index in ((self.first_box, 0), (self.second_box, 1)):
            if index < len(chosen):
                found = box.findText(chosen[index].name)
                if found >= 0:
                    box.setCurrentIndex(found)
        form = QFormLayout()
        form.addRow(tr("Engine"), self.first_box)
        form.addRow(tr("Second engine"), self.second_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def engines(self) -> list[EngineProfile]:
        chosen = [self.first_box.currentData(), self.second_box.currentData()]
        return [profile for profile in chosen if profile is not None]


def move_tokens(text: str) -> list[str]:
    """The moves of a pasted move list (any notation): its words less move numbers and ellipses."""
    return [token for token in text.replace("\n", " ").split()
            if not token.rstrip(".").isdigit() and token not in ("…", "...")]


def mode_for_seats(red: EngineProfile | None, black: EngineProfile | None) -> Mode:
    """The play mode that seats ``red`` and ``black`` make (None: a person)."""
    engines = (red is not None) + (black is not None)
    return (Mode.PERSON_VS_PERSON, Mode.PERSON_VS_ENGINE, Mode.ENGINE_VS_ENGINE)[engines]


class MainWindow(QMainWindow):
    """The xqdesk window. ``settings_store`` defaults to the user's QSettings; tests pass an INI file."""

    closed = Signal()

    def __init__(self, settings_store: QSettings | None = None, autosave_path: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = settings_store if settings_store is not None else open_store()
        self.settings = load_settings(self._store)
        if self.settings.language != current_language().value:
            set_language(self.settings.language)
        self.controller = GameController(self, engine_delay=self.settings.engine_delay)
        self.controller.engine_clock = _engine_clock(self.settings)
        self.board_view = BoardView()
        self.board_view.set_flipped(self.settings.flip_board)
        self.board_view.set_theme(theme_named(self.settings.theme))
        self.sounds = SoundPlayer(muted=self.settings.muted)
        self.banner = MessageBanner()
        self.clock_display = ClockDisplay(self.controller.clock())
        self.game_info = GameInfoPanel(self.controller)
        self.move_list = MoveList(self.controller)
        try:
            self.move_list.set_notation(Notation(self.settings.notation))
        except ValueError:
            self.move_list.set_notation(Notation.CHINESE)
        self.variation_list = VariationList(self.controller)
        self.variation_list.set_notation(self.move_list.notation())
        self.variation_tree = VariationTree(self.controller)
        self.variation_tree.set_notation(self.move_list.notation())
        self.review_summary = ReviewSummary()
        self.review_summary.ply_chosen.connect(self.controller.go_to)
        self.eval_bar = EvalBar()
        self.eval_bar.set_flipped(self.settings.flip_board)
        self.board_view.set_notation(self.move_list.notation())
        self.controller.notation = self.move_list.notation()
        self.comment_editor = CommentEditor(self.controller)
        self.tablebase_pane = TablebasePane()
        self.tablebase_pane.set_notation(self.move_list.notation())
        self.tablebase_pane.set_directory(self.settings.tablebase_path)
        self.engine_panel = EnginePanel()
        self.engine_panel.set_notation(self.move_list.notation())
        self.engine_panel.set_score_view(self.settings.score_view)
        self.engine_panel.set_lines(max(1, self.settings.analysis_lines))
        self.score_graph = self.engine_panel.graph
        self.position_editor: PositionEditorDialog | None = None
        self.files = FileManager(self, self.controller, autosave_path=autosave_path)
        self.exports = GameExports(self.statusBar(), self)
        self.exports.finished.connect(lambda path: self.show_status(tr("Wrote {path}").format(path=path)))
        self.exports.problem.connect(self.show_status)

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 4, 4, 4)
        side_layout.addWidget(self.clock_display)
        side_layout.addWidget(self.game_info)
        side_layout.addWidget(self.review_summary)
        self.moves_tabs = QTabWidget()
        self.moves_tabs.setDocumentMode(True)
        self.moves_tabs.addTab(self.move_list, "")
        self.moves_tabs.addTab(self.variation_tree, "")
        # the notation serves both tabs: in their corner, not a row of its own above the moves
        self.moves_tabs.setCornerWidget(self.move_list.notation_bar, Qt.Corner.TopRightCorner)
        side_layout.addWidget(self.moves_tabs, 1)
        side_layout.addWidget(self.variation_list)
        side_layout.addWidget(self.comment_editor)
        side_layout.addWidget(self.tablebase_pane)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.board_view)
        self.eval_bar.attach(self.board_view)  # in the board's left margin
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([720, 380])
        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.setContentsMargins(0, 0, 0, 0)
        central_layout.setSpacing(2)
        central_layout.addWidget(self.banner)
        central_layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.engine_dock = QDockWidget()
        self.engine_dock.setObjectName("engine-dock")
        self.engine_dock.setWidget(self.engine_panel)
        self.engine_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                                     | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.engine_dock.setAllowedAreas(Qt.DockWidgetArea.AllDockWidgetAreas)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.engine_dock)
        self.explorer_panel = ExplorerPanel()
        self.explorer_panel.set_notation(self.move_list.notation())
        self.explorer_dock = QDockWidget()
        self.explorer_dock.setObjectName("explorer-dock")
        self.explorer_dock.setWidget(self.explorer_panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.explorer_dock)
        self.explorer_dock.setVisible(self.settings.show_explorer)
        self.explorer_panel.set_database(self.settings.explorer_database)
        self.board_view.set_coordinates(self.settings.show_coordinates)
        self._docks_sized = False
        self._graphed_game: Game | None = None
        """The game whose scores the graph holds (another one replacing it clears the graph)."""
        self._engine_dock_height = ENGINE_DOCK_HEIGHT
        """The engine dock's height while it has something to show (it folds to a line otherwise)."""
        self._shut_down = False
        self.setAcceptDrops(True)

        self._actions: dict[str, QAction] = {}
        self._engine_arrows: dict[int, list[Arrow]] = {}
        self._engine_progress: dict[int, SearchProgress] = {}
        self._shown: tuple[str, tuple[Move, ...]] | None = None
        self._menus: dict[str, QMenu] = {}
        self.fog_window: FogGameWindow | None = None
        self.pdf_dialog: PdfDialog | None = None
        self.tournament_window: TournamentWindow | None = None
        self.index_builder: IndexBuilder | None = None
        self._build_progress: QProgressDialog | None = None
        self.review: GameReview | None = None
        """The review of the game on show (run here or read from its record), if any."""
        self.review_worker: ReviewWorker | None = None
        self.review_progress = ReviewProgress()
        self.review_progress.hide()
        self.review_progress.cancel_requested.connect(self.cancel_review)
        self.statusBar().addPermanentWidget(self.review_progress)
        self._build_actions()
        self._build_window_actions()
        self._build_menus()
        self._build_theme_menu()
        self._build_toolbar()
        self._connect()
        self._connect_messages_and_sounds()
        self.retranslate()
        self.resize(1100, 760)
        self._refresh()

    # --- building ------------------------------------------------------------------------------
    def _action(self, key: str, slot: Callable[[], object], shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                checkable: bool = False) -> QAction:
        action = QAction(self)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        self._actions[key] = action
        return action

    def action(self, key: str) -> QAction:
        """The window's action named ``key`` (English source text of its label)."""
        return self._actions[key]

    def _build_actions(self) -> None:
        controller = self.controller
        self._action("New game", self.choose_new_game, QKeySequence.StandardKey.New)
        self._action("Open…", self.files.choose_and_open, QKeySequence.StandardKey.Open)
        self._action("Open match folder…", self.files.choose_and_open_folder)
        self._action("Save", self.files.save, QKeySequence.StandardKey.Save)
        self._action("Save as…", self.files.choose_and_save, QKeySequence.StandardKey.SaveAs)
        self._action("Export position…", self.choose_and_export_position)
        self._action("Export game as GIF…", self.choose_and_export_gif)
        self._action("Export game as PDF…", self.choose_and_export_pdf)
        self._action("Copy position picture", self.copy_position_picture)
        self._action("Show coordinates", self.toggle_coordinates, checkable=True)
        self._action("Opening explorer", self.toggle_explorer, "Ctrl+E", checkable=True)
        self._action("Choose position index…", self.choose_explorer_database)
        self._action("Add games to the position index…", self.choose_and_index_files)
        self._action("Quit", self.close, QKeySequence.StandardKey.Quit)
        self._action("Copy FEN", self.copy_fen)
        self._action("Paste FEN", self.paste_fen)
        self._action("Copy moves", self.copy_moves, QKeySequence.StandardKey.Copy)
        self._action("Paste moves", self.paste_moves, QKeySequence.StandardKey.Paste)
        self._action("Paste game", self.files.paste_game, "Ctrl+Shift+V")
        self._action("Edit position…", self.edit_position)
        self._action("Manage engines…", self.manage_engines)
        self._action("Analysis engines…", self.choose_analysis_engines)
        self._action("Tablebase directory…", self.choose_tablebase_directory)
        self._action("Person vs person", lambda: self.start_game_asking(None, None))
        self._action("Play Red against the engine", lambda: self.start_game_asking(None, self.default_engine()))
        self._action("Play Black against the engine", lambda: self.start_game_asking(self.default_engine(), None))
        self._action("Engine vs engine",
                     lambda: self.start_game_asking(self.default_engine(), self.default_engine()))
        self._action("Fog of war…", self.open_fog_window)
        self._action("Engine tournament…", self.open_tournament_window)
        self._action("Analysis", lambda: self.start_analysis(self.analysis_engines()))
        self._action("Stop analysis", self.stop_analysis)
        self._action("Replay", lambda: controller.set_mode(Mode.REPLAY))
        self._action("Take back", controller.take_back, "Ctrl+Z")
        self._action("Hint", controller.hint, "Ctrl+H")
        self._action("Resign", controller.resign)
        self._action("Review game…", self.choose_review)
        self._action("Cancel review", self.cancel_review)
        self._action("Next mistake", self.next_mistake, "Ctrl+J")
        self._action("Flip board", self.toggle_flip, "Ctrl+F", checkable=True)
        self._action("First move", controller.to_start, "Home")
        self._action("Previous move", controller.back, "Left")
        self._action("Next move", controller.forward, "Right")
        self._action("Last move", controller.to_end, "End")
        self._action("Play through", self.toggle_autoplay, "Space", checkable=True)
        self._actions["Flip board"].setChecked(self.board_view.is_flipped())
        self._actions["Show coordinates"].setChecked(self.board_view.has_coordinates())
        self._actions["Opening explorer"].setChecked(self.settings.show_explorer)

    def _build_window_actions(self) -> None:
        """Actions of the window's everyday use: pausing an engine game, the game list, the engine
        panel's visibility, sound."""
        self._action("Pause", self.pause_game)
        self._action("Resume", self.resume_game)
        self._action("Stop game", self.stop_game)
        self._action("Game list", lambda: self.files.show_game_list())
        self._action("Open previous autosave", self.files.restore_previous_autosave)
        self._action("Mute sounds", lambda: self.set_muted(self._actions["Mute sounds"].isChecked()), checkable=True)
        self._actions["Mute sounds"].setChecked(self.settings.muted)
        panel = self.engine_dock.toggleViewAction()
        self._actions["Engine panel"] = panel

    def _build_theme_menu(self) -> None:
        """*View → Board theme*: one checkable entry a theme, the chosen one remembered."""
        menu = self._menus["Board theme"]
        self._theme_actions: dict[str, QAction] = {}
        for theme in THEMES:
            action = menu.addAction("")
            action.setCheckable(True)
            action.setChecked(theme.key == self.board_view.theme().key)
            action.triggered.connect(lambda _checked=False, key=theme.key: self.set_theme(key))
            self._theme_actions[theme.key] = action

    def _connect_messages_and_sounds(self) -> None:
        controller = self.controller
        controller.alert.connect(lambda text: self.show_important(text, BannerKind.ERROR))
        controller.seats_changed.connect(self.clear_messages)  # a new game, record or mode: old news goes
        controller.move_made.connect(self._on_move_made)
        controller.paused_changed.connect(lambda _paused: self._refresh())

    def _refresh_game_actions(self) -> None:
        """Hint is always offered (the controller refuses it with the reason when it cannot help);
        pause, resume and stop follow the live game."""
        controller = self.controller
        live = controller.mode().is_play and controller.outcome() is None
        self._actions["Hint"].setEnabled(True)
        self._actions["Pause"].setEnabled(live and not controller.is_paused())
        self._actions["Resume"].setEnabled(live and controller.is_paused())
        self._actions["Stop game"].setEnabled(live)
        for key, action in getattr(self, "_theme_actions", {}).items():
            action.setText(theme_named(key).label())

    def _on_move_made(self, move: Move) -> None:
        """A move was added: stale messages go, and its sound plays (check, capture or move)."""
        self.statusBar().clearMessage()
        self.sounds.play(event_for_move(self.controller.board(), move))

    def show_important(self, text: str, kind: BannerKind = BannerKind.ERROR) -> None:
        """A message that must not be missed: in the banner until dismissed, and in the status bar."""
        self.banner.show_message(text, kind)
        self.statusBar().showMessage(text, STATUS_TIMEOUT_MS)

    def clear_messages(self) -> None:
        """Take away messages that no longer apply (the banner and the status bar)."""
        self.banner.clear()
        self.statusBar().clearMessage()

    def set_theme(self, key: str) -> None:
        """Draw the board in the theme ``key`` and remember it."""
        theme = theme_named(key)
        self.board_view.set_theme(theme)
        for name, action in self._theme_actions.items():
            action.setChecked(name == theme.key)
        self.update_settings(theme=theme.key)

    def set_muted(self, muted: bool) -> None:
        self.sounds.muted = muted
        self._actions["Mute sounds"].setChecked(muted)
        self.update_settings(muted=muted)

    def pause_game(self) -> None:
        if self.controller.pause():
            self.show_status(tr("The game is paused"))

    def resume_game(self) -> None:
        if self.controller.resume():
            self.statusBar().clearMessage()

    def stop_game(self) -> None:
        self.controller.stop_game()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        layout: dict[str, list[str | None]] = {
            "&File": ["New game", None, "Open…", "Open match folder…", "Recent files", "Game list",
                      "Open previous autosave", None, "Save",
                      "Save as…", None, "Export position…", "Export game as GIF…", "Export game as PDF…", None, "Quit"],
            "&Edit": ["Copy FEN", "Paste FEN", "Copy moves", "Paste moves", "Paste game", "Copy position picture",
                      None, "Edit position…"],
            "&Game": ["Person vs person", "Play Red against the engine", "Play Black against the engine",
                      "Engine vs engine", "Engine tournament…", "Fog of war…", "Analysis", "Stop analysis", "Replay", None, "Take back",
                      "Hint", "Resign", None, "Review game…", "Cancel review", "Next mistake", None, "Pause", "Resume",
                      "Stop game"],
            "E&ngines": ["Manage engines…", "Analysis engines…", "Tablebase directory…"],
            "&View": ["Flip board", "Show coordinates", None, "First move", "Previous move", "Next move", "Last move",
                      "Play through", None, "Opening explorer", "Choose position index…",
                      "Add games to the position index…", None, "Engine panel", "Board theme", "Mute sounds"],
            "&Language": [],
        }
        for title, keys in layout.items():
            menu = bar.addMenu("")
            self._menus[title] = menu
            for key in keys:
                if key is None:
                    menu.addSeparator()
                elif key == "Recent files":
                    self._menus[key] = menu.addMenu("")
                    self._menus[key].aboutToShow.connect(self._fill_recent_menu)
                elif key == "Board theme":
                    self._menus[key] = menu.addMenu("")
                else:
                    menu.addAction(self._actions[key])
        for language in Language:
            action = self._menus["&Language"].addAction(language.native_name)
            action.triggered.connect(lambda _checked=False, lang=language: self.set_language(lang))

    def _build_toolbar(self) -> None:
        toolbar = QToolBar()
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        small = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        toolbar.setIconSize(QSize(small, small))  # as tall as the text buttons beside them
        for key in ("New game", "Open…", None, "First move", "Previous move", "Next move", "Last move",
                    "Play through", None, "Take back", "Hint", "Resign", "Flip board"):
            if key is None:
                toolbar.addSeparator()
                continue
            action = self._actions[key]
            toolbar.addAction(action)
            icon = self.style().standardIcon(TOOLBAR_ICONS[key]) if key in TOOLBAR_ICONS else None
            if icon is not None and not icon.isNull():  # the stepping buttons as icons, text as tooltip
                action.setIcon(icon)
                button = toolbar.widgetForAction(action)
                if isinstance(button, QToolButton):
                    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.addToolBar(toolbar)

    def _connect(self) -> None:
        controller = self.controller
        self.board_view.move_chosen.connect(controller.play_move)
        self.board_view.move_refused.connect(self.show_status)
        controller.position_changed.connect(self._refresh)
        controller.game_changed.connect(self._on_game_changed)
        controller.status_message.connect(self.show_status)
        controller.hint_ready.connect(self._show_hint)
        controller.game_over.connect(self._on_game_over)
        controller.engine_scored.connect(self._on_engine_scored)
        controller.engine_thinking.connect(self._on_engine_thinking)
        controller.seats_changed.connect(self._on_seats_changed)
        self.move_list.notation_changed.connect(self._on_notation_changed)
        self.engine_panel.score_view_changed.connect(self._on_score_view_changed)
        self.engine_panel.progress_shown.connect(self._on_engine_progress)
        self.engine_panel.lines_changed.connect(lambda lines: self.update_settings(analysis_lines=lines))
        self.engine_panel.occupied_changed.connect(self._on_engine_panel_occupied)
        self.engine_panel.analysis_requested.connect(lambda: self.start_analysis(self.analysis_engines()))
        self.score_graph.ply_clicked.connect(controller.go_to)
        self.explorer_panel.move_chosen.connect(self.play_explorer_move)
        self.explorer_panel.game_chosen.connect(self.open_explorer_game)
        self.explorer_panel.status.connect(self.show_status)
        self.explorer_dock.visibilityChanged.connect(self._on_explorer_visibility)
        language_notifier().language_changed.connect(self.retranslate)

    def retranslate(self, _language: str = "") -> None:
        """Set every text again in the current language."""
        self.setWindowTitle(tr("xqdesk"))
        self.explorer_dock.setWindowTitle(tr("Opening explorer"))
        self.moves_tabs.setTabText(0, tr("Moves"))
        self.moves_tabs.setTabText(1, tr("Variation tree"))
        for key, action in self._actions.items():
            action.setText(tr(key))
        for key, menu in self._menus.items():
            menu.setTitle(tr(key))
        self._refresh()

    def may_close(self) -> bool:
        """Whether the window may close: unsaved changes are saved or given up first."""
        return self.files.confirm_discard()

    # --- reacting to the game ------------------------------------------------------------------
    def _refresh(self) -> None:
        controller = self.controller
        moves = tuple(controller.line_moves()[:controller.ply()])
        shown = (controller.game().start_fen, moves)
        if shown != self._shown:  # a new position: engines restart, old arrows go
            self._shown = shown
            self.board_view.set_position(controller.board(), controller.last_move())
            self.board_view.set_arrows([])
            self._engine_arrows.clear()
            self._engine_progress.clear()
            self.engine_panel.set_position(*shown)
            self.eval_bar.show_score(self._review_score(controller.ply()))
            self.explorer_panel.set_position(*shown)
            self.tablebase_pane.show_board(controller.board())
        self.board_view.set_movable_colors(controller.movable_colors())
        self.board_view.set_refusal(controller.why_not_movable())
        playing = controller.mode().is_play and controller.outcome() is None
        self._actions["Take back"].setEnabled(controller.mode() is not Mode.REPLAY and controller.length() > 0)
        self._actions["Resign"].setEnabled(playing and bool(self._person_colors()))
        reviewing = self.review_worker is not None
        self._actions["Review game…"].setEnabled(not reviewing and controller.length() > 0)
        self._actions["Cancel review"].setEnabled(reviewing)
        self._actions["Next mistake"].setEnabled(self.review is not None and bool(self.review.errors()))
        self._refresh_game_actions()
        title = f"{tr('xqdesk')} — {self._players_text()}"
        self.setWindowTitle(title)

    def _review_score(self, ply: int) -> Score | None:
        """The review's score (Red's view) of the position on show, when the main line is shown."""
        review = self.review
        if review is None or self.controller.variation_depth() or ply > len(review.moves):
            return None
        return review.start.score if ply == 0 else review.moves[ply - 1].after

    def _person_colors(self) -> set[Color]:
        return {color for color in (RED, BLACK) if self.controller.seat(color) is None}

    def _players_text(self) -> str:
        headers = self.controller.game().headers
        return f"{headers.get('Red', tr('Red'))} – {headers.get('Black', tr('Black'))}"

    def _on_game_changed(self) -> None:
        game = self.controller.game()
        replaced = game is not self._graphed_game  # another game's scores are not this one's
        self._graphed_game = game
        self.score_graph.set_ply_count(self.controller.length() + 1)
        if replaced or self.controller.length() == 0:
            self.score_graph.clear()
        if replaced:  # the engines that named the curves played or analysed another game
            self.score_graph.set_series_names([])
        self._show_review(read_review(self.controller.game()) if self.controller.game().comment else None)

    # --- whole-game review ------------------------------------------------------------------------
    def choose_review(self) -> None:
        """*Game → Review game…*: ask how, then review the main line in the background."""
        engines = (ANALYSIS_PROFILE,) + available_engines(self.settings)
        dialog = ReviewDialog(engines, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start_review(dialog.engine(), dialog.limits(), dialog.sides())

    def start_review(self, profile: EngineProfile, limits: SearchLimits,
                     sides: tuple[Color, ...] = (RED, BLACK)) -> ReviewWorker | None:
        """Review the game's main line with ``profile``'s engine; the window stays usable, a
        progress bar shows how far it is, and the result is stored in the game when it comes."""
        if self.review_worker is not None or not self.controller.game().mainline():
            return None
        worker = ReviewWorker(profile.to_spec(), limits, self.controller.game(), sides, self)
        worker.progress.connect(self.review_progress.set_progress)
        worker.finished.connect(self._on_review_finished)
        worker.failed.connect(lambda message: self._end_review(tr("Review failed: {reason}").format(reason=message)))
        worker.cancelled.connect(lambda: self._end_review(tr("Review cancelled")))
        self.review_worker = worker
        self.review_progress.set_progress(0, len(worker.moves) + 1)
        self.review_progress.show()
        worker.start()
        self._refresh()
        return worker

    def cancel_review(self) -> None:
        """Stop the running review (nothing is stored)."""
        if self.review_worker is not None:
            self.review_worker.cancel()

    def _on_review_finished(self, review: GameReview, annotator: str) -> None:
        worker = self.review_worker
        game = self.controller.game()
        if worker is None or game.mainline_moves() != worker.moves:
            self._end_review(tr("The game changed during the review: its result was not stored"))
            return
        write_review(game, review, annotator)
        self._end_review(tr("Review done: {count} marked moves").format(count=len(review.errors())))
        self._show_review(review)

    def _end_review(self, message: str) -> None:
        worker, self.review_worker = self.review_worker, None
        if worker is not None:
            worker.shutdown()
            worker.deleteLater()
        self.review_progress.hide()
        self.show_status(message)
        self._refresh()

    def _show_review(self, review: GameReview | None) -> None:
        self.review = review
        self.score_graph.set_review(review)
        self.review_summary.set_review(review)
        if not self._engine_progress:
            self.eval_bar.show_score(self._review_score(self.controller.ply()))
        self.move_list.refresh_marks()
        self._refresh()

    def next_mistake(self) -> None:
        """Go to the next inaccuracy, mistake or blunder of the review after the move on show
        (from the first again after the last)."""
        if self.review is None or not self.review.errors():
            self.show_status(tr("No marked moves"))
            return
        plies = [move.ply for move in self.review.errors()]
        while self.controller.variation_depth():  # the review is of the main line: back to it
            self.controller.leave_variation()
        ply = self.controller.ply()
        self.controller.go_to(next((marked for marked in plies if marked > ply), plies[0]))

    def _on_engine_scored(self, ply: int, score: PovScore, mover: Color) -> None:
        """An engine seat's score: each seated engine draws its own series (the engine panel's
        index of that engine), so two engines' views never zig-zag in one line."""
        self.score_graph.set_score(ply, red_view_pawns(score), self._seat_series(mover))

    def _seat_series(self, color: Color) -> int:
        seated = [c for c in (RED, BLACK) if self.controller.worker(c) is not None]
        return seated.index(color) if color in seated else 0

    def _on_engine_thinking(self, color: Color, thinking: bool) -> None:
        if thinking:
            profile = self.controller.seat(color)
            name = profile.name if profile is not None else tr("Engine")
            self.show_status(f"{name} ({tr('Red') if color == RED else tr('Black')}): {tr('Thinking…')}")

    def _on_seats_changed(self) -> None:
        """Show the seated engines in the engine panel (the controller owns them); their
        progress reaches the arrows through the panel, which undoes its connections to a
        worker when it stops showing it."""
        controller = self.controller
        seated = [worker for worker in (controller.worker(RED), controller.worker(BLACK)) if worker is not None]
        if controller.mode().is_play or seated:
            self.engine_panel.shutdown()
            for index, worker in enumerate(seated[:2]):
                self.engine_panel.attach(index, worker)
        if controller.mode().is_play:
            self.score_graph.set_series_names(
                [f"{tr('Red') if color == RED else tr('Black')}: {profile.name}"
                 for color in (RED, BLACK) if (profile := controller.seat(color)) is not None])
        self._refresh()

    def _on_engine_progress(self, index: int, progress: SearchProgress) -> None:
        """Candidate moves as arrows: the first engine's MultiPV lines, the second engine's best,
        each labelled with its score from the engine panel's point of view."""
        board = self.controller.board()
        view = self.engine_panel.score_view
        rows = [row for row in progress.rows if row.pv and board.is_legal(row.pv[0])]
        if index == 0:
            arrows = [Arrow(row.pv[0], rank, score_text(row.score, view, board.turn))
                      for rank, row in enumerate(rows)]
        else:
            arrows = [Arrow(row.pv[0], SECOND_ENGINE_ARROW_RANK, score_text(row.score, view, board.turn), engine=1)
                      for row in rows[:1]]
        self._engine_progress[index] = progress
        self._engine_arrows[index] = arrows
        if index == 0 or 0 not in self._engine_progress:  # the first engine's score, else the second's
            best = progress.rows[0].score if progress.rows else progress.latest.score
            if best is not None:
                self.eval_bar.show_score(best.red())
        self.show_engine_lines(self._engine_arrows.get(0, []) + self._engine_arrows.get(1, []))

    def _on_score_view_changed(self, view: ScoreView) -> None:
        """Save the choice and label the arrows on the board from the new point of view."""
        self.update_settings(score_view=view)
        for index, progress in list(self._engine_progress.items()):
            self._on_engine_progress(index, progress)

    def _on_notation_changed(self, notation: Notation) -> None:
        self.engine_panel.set_notation(notation)
        self.explorer_panel.set_notation(notation)
        self.board_view.set_notation(notation)
        self.controller.notation = notation
        self.variation_list.set_notation(notation)
        self.variation_tree.set_notation(notation)
        self.tablebase_pane.set_notation(notation)
        self.update_settings(notation=notation.value)

    def _on_game_over(self, outcome: Outcome) -> None:
        self.show_status(tr("Game over: {text}").format(text=tr_outcome(outcome.text)))
        self.show_important(tr("Game over: {text}").format(text=result_text(outcome)), BannerKind.INFO)
        self.sounds.play(SoundEvent.GAME_END)
        self._refresh()

    def _show_hint(self, move: Move) -> None:
        board = self.controller.board()
        text = format_move(board, move, self.move_list.notation())
        self.board_view.set_arrows([Arrow(move, 0, "")])
        self.show_status(f"{tr('Hint')}: {text}")

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_TIMEOUT_MS)

    def show_engine_lines(self, arrows: list[Arrow]) -> None:
        """Draw engine candidate moves (MultiPV) on the board."""
        if self.settings.show_engine_arrows:
            self.board_view.set_arrows(arrows)

    # --- commands --------------------------------------------------------------------------------
    def analysis_engines(self) -> list[EngineProfile]:
        """The engines chosen for analysis in the settings (at most two), else the full-strength built-in."""
        known = {profile.name: profile for profile in self.analysis_candidates()}
        chosen = [known[name] for name in self.settings.analysis_engines[:2] if name in known]
        return chosen or [ANALYSIS_PROFILE]

    def analysis_candidates(self) -> tuple[EngineProfile, ...]:
        """Engines that can analyse: the full-strength built-in, the user's, the built-in levels,
        and the tablebase when a directory is set."""
        tables = (self.tablebase_profile(),) if self.settings.tablebase_path else ()
        return ((ANALYSIS_PROFILE,) + tuple(p for p in available_engines(self.settings) if p.name != ANALYSIS_PROFILE.name)
                + tables)

    def tablebase_profile(self) -> EngineProfile:
        """The tablebase directory of the settings as an analysis engine."""
        return EngineProfile(TABLEBASE_PROFILE_NAME, EngineKind.TABLEBASE, self.settings.tablebase_path)

    def choose_tablebase_directory(self) -> None:
        path = QFileDialog.getExistingDirectory(self, tr("Choose the tablebase directory"),
                                                self.settings.tablebase_path or self.settings.last_directory)
        if path:
            self.set_tablebase_directory(path)

    def set_tablebase_directory(self, path: str) -> None:
        """Use the endgame tables in ``path`` (empty: none) for the tablebase pane and analysis."""
        self.update_settings(tablebase_path=path)
        self.tablebase_pane.set_directory(path)
        self.tablebase_pane.show_board(self.controller.board())

    def choose_analysis_engines(self) -> None:
        dialog = AnalysisEnginesDialog(self.analysis_candidates(), self.analysis_engines(), self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        engines = dialog.engines()
        self.update_settings(analysis_engines=tuple(profile.name for profile in engines))
        self.start_analysis(engines)

    def start_analysis(self, profiles: list[EngineProfile]) -> None:
        """Analyse the viewed position with one or two engines; they follow every move and step."""
        self.controller.set_mode(Mode.ANALYSIS)
        self.engine_panel.set_engines([profile.to_spec() for profile in profiles[:2]])
        self.score_graph.set_series_names([profile.name for profile in profiles[:2]] if len(profiles) > 1 else [])
        self.engine_panel.start_analysis()
        self._refresh()

    def stop_analysis(self) -> None:
        self.engine_panel.stop_analysis()

    def edit_position(self) -> None:
        """Open the position editor on the viewed position; its "Start game" starts a game there."""
        dialog = PositionEditorDialog(self.controller.board().fen(), self, engines=available_engines(self.settings))
        dialog.accepted.connect(lambda: self._start_from_editor(dialog.fen, *dialog.seats()))
        dialog.finished.connect(lambda _result: setattr(self, "position_editor", None))
        self.position_editor = dialog
        dialog.show()

    def _start_from_editor(self, fen: str | None, red: EngineProfile | None = None,
                           black: EngineProfile | None = None) -> None:
        if fen is None or not self.files.confirm_discard():
            return
        self.engine_panel.shutdown()
        self.start_game(red, black, fen)

    def manage_engines(self) -> None:
        dialog = EnginesDialog(self.settings, self._store, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.settings = replace(self.settings, engines=dialog.profiles())

    def default_engine(self) -> EngineProfile:
        """The engine the quick-start actions seat: the user's first that can start (one whose
        program is gone is passed over), else the built-in level 3."""
        usable = [profile for profile in self.settings.engines if engine_problem(profile) is None]
        return usable[0] if usable else BUILTIN_PROFILES[1]

    def start_game(self, red: EngineProfile | None, black: EngineProfile | None,
                   start_fen: str = STARTING_FEN, time_controls: dict[Color, TimeControl] | None = None) -> None:
        """A new game with these seats (None: a person) and clocks (by default an engine gets the
        engine clock, a person none); the person plays from the bottom."""
        mode = mode_for_seats(red, black)
        self.controller.new_game(mode, red=red, black=black, start_fen=start_fen, time_controls=time_controls)
        if mode is Mode.PERSON_VS_ENGINE:
            self.set_flipped(red is not None)

    def start_game_asking(self, red: EngineProfile | None, black: EngineProfile | None,
                          start_fen: str = STARTING_FEN,
                          time_controls: dict[Color, TimeControl] | None = None) -> bool:
        """:meth:`start_game` as the user asked for it: unsaved moves or comments are saved or
        given up first (False: the user kept the game, nothing started)."""
        if not self.files.confirm_discard():
            return False
        self.start_game(red, black, start_fen, time_controls)
        return True

    def choose_new_game(self) -> None:
        dialog = NewGameDialog(available_engines(self.settings), self.settings.engine_clock,
                               self.settings.person_clock, self.settings.engine_delay, can_continue=True, parent=self)
        if dialog.exec() != QDialog.DialogCode.Accepted or not self.files.confirm_discard():
            return
        red, black = dialog.seats()
        controls = dialog.time_controls()
        remembered = {"engine_clock" if seat is not None else "person_clock": controls[color].text()
                      for color, seat in ((RED, red), (BLACK, black))}
        self.update_settings(engine_delay=dialog.delay.value(), **remembered)
        self.controller.engine_clock = _engine_clock(self.settings)
        self.controller.engine_delay = dialog.delay.value()
        start = self.controller.board().fen() if dialog.from_here.isChecked() else STARTING_FEN
        self.start_game(red, black, start, controls)

    def toggle_flip(self) -> None:
        self.set_flipped(not self.board_view.is_flipped())

    def set_flipped(self, flipped: bool) -> None:
        self.board_view.set_flipped(flipped)
        self.eval_bar.set_flipped(flipped)
        self._actions["Flip board"].setChecked(flipped)
        self.update_settings(flip_board=flipped)

    def toggle_coordinates(self) -> None:
        """Show or hide the file numbers, on the board and in the pictures it exports."""
        shown = not self.board_view.has_coordinates()
        self.board_view.set_coordinates(shown)
        self._actions["Show coordinates"].setChecked(shown)
        self.update_settings(show_coordinates=shown)

    # --- the opening explorer ------------------------------------------------------------------
    def toggle_explorer(self) -> None:
        self.explorer_dock.setVisible(not self.explorer_dock.isVisible())

    def _on_explorer_visibility(self, visible: bool) -> None:
        if self.isVisible():  # a hidden window hides its docks too: that is no choice of the user's
            self._actions["Opening explorer"].setChecked(visible)
            if visible != self.settings.show_explorer:
                self.update_settings(show_explorer=visible)

    def set_explorer_database(self, path: str) -> None:
        """Explore the position index at ``path`` (made by ``xqdesk index``), and show the pane."""
        self.update_settings(explorer_database=path)
        self.explorer_panel.set_database(path)
        self.explorer_dock.setVisible(True)

    def choose_explorer_database(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, tr("Choose position index…"), self.settings.last_directory,
            f"{tr('Position indexes')} ({INDEX_FILTER});;{tr('All files')} (*)")
        if path:
            self.set_explorer_database(path)

    def choose_and_index_files(self) -> None:
        """Add record files to the position index in use (a new one is asked for when none is)."""
        paths, _filter = QFileDialog.getOpenFileNames(
            self, tr("Add games to the position index…"), self.settings.last_directory,
            f"{tr('Game records')} (*.pgn *.PGN *.xqf *.XQF *.txt *.fen *.FEN);;{tr('All files')} (*)")
        if not paths:
            return
        database = self.settings.explorer_database
        if not database:
            database, _filter = QFileDialog.getSaveFileName(self, tr("New position index"),
                                                            self.settings.last_directory,
                                                            f"{tr('Position indexes')} (*.xqdb)")
            if not database:
                return
            if "." not in database.rsplit("/", 1)[-1]:
                database += ".xqdb"
        self.index_files(database, paths)

    def index_files(self, database: str, paths: list[str]) -> IndexBuilder | None:
        """Build or update the index ``database`` from ``paths`` in the background, with a progress
        dialog whose Cancel stops it; the explorer then uses it. None while another build runs."""
        if self.index_builder is not None and self.index_builder.is_running():
            self.show_status(tr("A position index is being built already"))
            return None
        builder = IndexBuilder(database, paths, self)
        progress = QProgressDialog(tr("Indexing games…"), tr("Cancel"), 0, 0, self)
        progress.setWindowTitle(tr("Add games to the position index…"))
        progress.setMinimumDuration(0)
        progress.canceled.connect(builder.cancel)
        builder.file_done.connect(self._on_file_indexed)  # a method of the window: queued to its thread
        builder.games_done.connect(self._on_games_indexed)
        builder.finished.connect(self._on_index_built)
        self.index_builder, self._build_progress = builder, progress
        progress.show()
        builder.start()
        return builder

    def _on_games_indexed(self, done: int, total: int) -> None:
        if self._build_progress is not None:
            self._build_progress.setRange(0, total)
            self._build_progress.setValue(done)

    def _on_file_indexed(self, name: str, games: int) -> None:
        if self._build_progress is not None:
            self._build_progress.setLabelText(tr("Indexed {name}: {games} games").format(name=name, games=games))

    def _on_index_built(self, result: BuildResult) -> None:
        if self._build_progress is not None:
            self._build_progress.close()
            self._build_progress.deleteLater()
            self._build_progress = None
        report = result.report
        if result.error:
            self.show_status(tr("Could not read the position index: {reason}").format(reason=result.error))
            return
        text = tr("Indexed {files} files, {games} games; {skipped} unchanged skipped").format(
            files=report.files_added, games=report.games, skipped=report.files_skipped)
        if report.cancelled:
            text += " — " + tr("cancelled")
        self.show_status(text)
        self.set_explorer_database(result.database)

    def play_explorer_move(self, move: Move) -> None:
        """A move double-clicked in the explorer: the recorded next move is stepped to; another
        is played as in analysis (a new variation where the record goes on)."""
        controller = self.controller
        if not controller.at_end() and move in controller.alternatives():
            controller.choose_alternative(controller.alternatives().index(move))
            return
        if controller.mode() is Mode.REPLAY:
            controller.set_mode(Mode.ANALYSIS)
        controller.play_move(move)

    def open_explorer_game(self, game: Game, ply: int) -> None:
        """A game double-clicked in the explorer, opened at the move where it reached the position
        (unsaved changes are saved or given up first)."""
        if not self.files.confirm_discard():
            return
        try:
            self.controller.load_game(game, Mode.REPLAY, ply=ply)
        except XqdeskError as error:
            self.show_status(tr("Could not open {path}: {reason}").format(path=game.headers.get("Event", ""),
                                                                          reason=error))

    # --- pictures --------------------------------------------------------------------------------
    def export_position(self, path: str) -> bool:
        """Write the board as shown (orientation, coordinates, arrows, last move) to a PNG or SVG."""
        try:
            save_picture(self.board_view.scene(), path, PICTURE_WIDTH)
        except (OSError, XqdeskError) as error:
            self.show_status(tr("Could not save {path}: {reason}").format(path=path, reason=error))
            return False
        self.show_status(tr("Wrote {path}").format(path=path))
        return True

    def choose_and_export_position(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, tr("Export position…"), self.settings.last_directory,
                                                   ";;".join(PICTURE_FILTERS))
        if path:
            if not path.lower().endswith((".png", ".svg")):
                path += ".svg" if chosen == PICTURE_FILTERS[1] else ".png"
            self.export_position(path)

    def copy_position_picture(self) -> None:
        copy_picture(self.board_view.scene(), PICTURE_WIDTH)
        self.show_status(tr("Copy position picture"))

    def export_gif(self, path: str, delay: float) -> bool:
        """Write the line on show, from the start to its end, as an animated GIF (``delay`` s a
        move) in the background; ``exports.finished`` says when it is written. False when it
        could not start."""
        controller = self.controller
        scene = self.board_view.scene()
        try:
            scenes = line_scenes(controller.game(), controller.line_moves(), flipped=scene.flipped,
                                 coordinates=scene.coordinates)
        except XqdeskError as error:
            self.show_status(tr("Could not save {path}: {reason}").format(path=path, reason=error))
            return False
        return self.exports.export_gif(scenes, path, PICTURE_WIDTH, delay)

    def export_pdf(self, path: str, diagram_plies: list[int], notation: Notation | None = None) -> bool:
        """Print the game's main line to a PDF in the background, with diagrams after
        ``diagram_plies`` (0: the start), as the board is shown (orientation, coordinates)."""
        scene = self.board_view.scene()
        return self.exports.export_pdf(self.controller.game(), path, notation or self.move_list.notation(),
                                       diagram_plies, flipped=scene.flipped, coordinates=scene.coordinates)

    def choose_and_export_pdf(self) -> None:
        dialog = PdfDialog(self.controller.game(), self.controller.ply(), self.move_list.notation(), self)
        self.pdf_dialog = dialog
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            plies, notation = dialog.diagram_plies(), dialog.notation()
        finally:
            self.pdf_dialog = None
            dialog.deleteLater()
        path, _filter = QFileDialog.getSaveFileName(self, tr("Export game as PDF…"), self.settings.last_directory,
                                                    "PDF (*.pdf)")
        if path:
            self.export_pdf(path if path.lower().endswith(".pdf") else path + ".pdf", plies, notation)

    def choose_and_export_gif(self) -> None:
        delay, accepted = QInputDialog.getDouble(self, tr("Export game as GIF…"), tr("Seconds between moves"),
                                                 DEFAULT_GIF_DELAY, 0.05, 60.0, 2)
        if not accepted:
            return
        path, _filter = QFileDialog.getSaveFileName(self, tr("Export game as GIF…"), self.settings.last_directory,
                                                    "GIF (*.gif)")
        if path:
            self.export_gif(path if path.lower().endswith(".gif") else path + ".gif", delay)

    def toggle_autoplay(self) -> None:
        if self.controller.is_autoplaying():
            self.controller.stop_autoplay()
        else:
            self.controller.start_autoplay(max(0.05, self.settings.engine_delay))
        self._actions["Play through"].setChecked(self.controller.is_autoplaying())

    def set_language(self, language: Language) -> None:
        set_language(language)
        self.update_settings(language=language.value)

    def update_settings(self, **changes) -> None:
        """Change and save settings."""
        self.settings = replace(self.settings, **changes)
        save_settings(self.settings, self._store)

    def copy_fen(self) -> None:
        QGuiApplication.clipboard().setText(self.controller.board().fen())
        self.show_status(tr("Copy FEN"))

    def paste_fen(self) -> bool:
        """*Edit → Paste FEN*: analyse the clipboard's position; moves after it (``<FEN> moves
        h2e2 h9g7``, any notation) are played. A bad FEN or move is said and changes nothing;
        unsaved changes are saved or given up first. Whether the position was taken."""
        fen, _moves_word, moves_text = QGuiApplication.clipboard().text().strip().partition(" moves ")
        try:
            board = Board(fen.strip())
        except XqdeskError as error:
            self.show_status(tr("Invalid FEN: {reason}").format(reason=tr_reason(str(error))))
            return False
        try:
            moves = parse_line(board, move_tokens(moves_text))
        except XqdeskError as error:
            self.show_status(tr("Illegal move: {reason}").format(reason=tr_reason(str(error))))
            return False
        if not self.files.confirm_discard():
            return False
        self.controller.new_game(Mode.ANALYSIS, start_fen=board.fen())
        for move in moves:
            self.controller.play_move(move)
        return True

    def copy_moves(self) -> None:
        texts = self.move_list.move_texts()
        board = self.controller.game().start_board()
        lines = []
        number = board.fullmove_number
        slot = 1 if board.turn == BLACK else 0
        for text in texts:
            if slot % 2 == 0:
                lines.append(f"{number}. {text}")
            else:
                lines[-1:] = [f"{lines[-1]} {text}" if lines else f"{number}. … {text}"]
                number += 1
            slot += 1
        QGuiApplication.clipboard().setText("\n".join(lines))
        self.show_status(tr("Copy moves"))

    def paste_moves(self) -> None:
        """Play the clipboard's moves (any notation, move numbers allowed) from the viewed position
        in analysis mode."""
        try:
            moves = parse_line(self.controller.board(), move_tokens(QGuiApplication.clipboard().text()))
        except XqdeskError as error:
            self.show_status(tr("Illegal move: {reason}").format(reason=error))
            return
        if self.controller.mode() is not Mode.ANALYSIS:
            self.controller.set_mode(Mode.ANALYSIS)
        for move in moves:
            self.controller.play_move(move)

    def _fill_recent_menu(self) -> None:
        menu = self._menus["Recent files"]
        menu.clear()
        for path in self.settings.recent_files:
            action = menu.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: self.files.open_path_asking(p))

    # --- drag and drop, closing ------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.files.open_path_asking(url.toLocalFile())
                event.acceptProposedAction()
                return

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if not self._docks_sized:  # dock sizes only take once the window is laid out
            self._docks_sized = True
            self._engine_dock_height = min(ENGINE_DOCK_HEIGHT, int(self.height() * ENGINE_DOCK_SHARE))
            if self.engine_panel.is_occupied():
                self.resizeDocks([self.engine_dock], [self._engine_dock_height], Qt.Orientation.Vertical)
            self.resizeDocks([self.explorer_dock], [EXPLORER_DOCK_WIDTH], Qt.Orientation.Horizontal)

    def _on_engine_panel_occupied(self, occupied: bool) -> None:
        """The engine panel folded (nothing to show: the move list gets the height) or unfolded
        (the dock gets back the height it had, or its first one)."""
        dock = self.engine_dock
        if dock.isFloating() or self.dockWidgetArea(dock) not in (Qt.DockWidgetArea.BottomDockWidgetArea,
                                                                  Qt.DockWidgetArea.TopDockWidgetArea):
            return
        if not occupied:
            if self._docks_sized and dock.height() > 2 * self.engine_panel.maximumHeight():
                self._engine_dock_height = dock.height()  # as the user left it
            return
        if self._docks_sized:
            QTimer.singleShot(0, self, lambda: self.resizeDocks([dock], [self._engine_dock_height],
                                                                Qt.Orientation.Vertical))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._shut_down and not self.may_close():
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)
        self.closed.emit()

    def open_fog_window(self) -> FogGameWindow:
        """*Game → Fog of war*: the fog-of-war window (one, kept while the main window lives)."""
        if self.fog_window is None:
            self.fog_window = FogGameWindow(self)
        self.fog_window.show()
        self.fog_window.raise_()
        return self.fog_window

    def open_tournament_window(self) -> TournamentWindow:
        """*Game → Engine tournament…*: the tournament window (one, kept while the main window lives)."""
        if self.tournament_window is None:
            self.tournament_window = TournamentWindow(available_engines(self.settings), self.settings.last_directory,
                                                      self)
        self.tournament_window.show()
        self.tournament_window.raise_()
        return self.tournament_window

    def shutdown(self) -> None:
        """Stop engines and timers and write the autosave (safe to call more than once; the
        window then closes without asking about unsaved changes)."""
        self._shut_down = True
        if self.fog_window is not None:
            self.fog_window.shutdown()
        if self.tournament_window is not None:
            self.tournament_window.shutdown()
        if self.review_worker is not None:
            self.review_worker.shutdown()
            self.review_worker = None
        self.files.autosave_now()
        self.exports.shutdown()
        if self.index_builder is not None:
            self.index_builder.cancel()
            self.index_builder.wait()
        self.explorer_panel.shutdown()
        self.engine_panel.shutdown()
        self.controller.shutdown()
        self.sounds.close()
