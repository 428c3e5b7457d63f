"""The main window: a shell that assembles the board, clocks and move list, the docks, menus and
toolbar, and hands each feature to its own object.

The game is the :class:`GameController`'s; whole-game review is :attr:`MainWindow.reviews`'s
(:mod:`xqdesk.ui.review.review_session`), the engine panel, analysis and the evaluation bar
:attr:`MainWindow.analysis`'s (:mod:`xqdesk.ui.analysis.analysis_session`), the opening explorer and index
building :attr:`MainWindow.explorer`'s (:mod:`xqdesk.ui.explorer.explorer_session`), pictures, GIF and PDF
:attr:`MainWindow.pictures`'s (:mod:`xqdesk.ui.exports.picture_exports`, written in the background by
:attr:`MainWindow.exports`), the clipboard :attr:`MainWindow.clipboard`'s, files
:attr:`MainWindow.files`'s, game starts :attr:`MainWindow.starts`'s, the board's view options
:attr:`MainWindow.view`'s and the fog-of-war and tournament windows :attr:`MainWindow.windows`'.
The window turns menu actions into their calls and keeps no game state of its own.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow, QSplitter, QTabWidget, QVBoxLayout, QWidget

from xqdesk.drawings import parse_drawings, with_drawings
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.about import show_about
from xqdesk.ui.analysis.analysis_session import AnalysisSession
from xqdesk.ui.analysis.engine_panel import EnginePanel
from xqdesk.ui.analysis.tablebase_pane import TablebasePane
from xqdesk.ui.base.i18n import Language, current_language, language_notifier, set_language, side_word, tr, tr_outcome
from xqdesk.ui.base.message_banner import BannerKind, MessageBanner
from xqdesk.ui.base.settings import EngineProfile, SavedSettings, Settings, open_store
from xqdesk.ui.base.sounds import SoundEvent, SoundPlayer, event_for_move
from xqdesk.ui.board.board_view import Arrow, BoardView
from xqdesk.ui.board.eval_bar import EvalBar
from xqdesk.ui.board.themes import theme_named
from xqdesk.ui.board.view_options import ViewOptions
from xqdesk.ui.dock_sizes import DockSizes
from xqdesk.ui.engines.engines_dialog import EnginesDialog
from xqdesk.ui.explorer.explorer_panel import ExplorerPanel
from xqdesk.ui.explorer.explorer_session import ExplorerSession
from xqdesk.ui.exports.export_jobs import GameExports
from xqdesk.ui.exports.picture_exports import PictureExports
from xqdesk.ui.game.clock import ClockDisplay
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.game.game_starts import GameStarts, live_settings
from xqdesk.ui.record.clipboard import GameClipboard
from xqdesk.ui.record.comment_editor import CommentEditor
from xqdesk.ui.record.files import FileManager
from xqdesk.ui.record.game_info import GameInfoPanel, result_text
from xqdesk.ui.record.move_list import MoveList
from xqdesk.ui.record.variation_list import VariationList
from xqdesk.ui.record.variation_tree import VariationTree
from xqdesk.ui.review.review_session import ReviewSession
from xqdesk.ui.review.review_summary import ReviewSummary
from xqdesk.ui.window_menus import build_menus, build_toolbar
from xqdesk.ui.windows.extra_windows import ExtraWindows

STATUS_TIMEOUT_MS = 10_000


def _column(*widgets: QWidget, stretch: QWidget) -> QWidget:
    """``widgets`` one above the other; ``stretch`` takes the height the others leave."""
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.setContentsMargins(4, 4, 4, 4)
    for widget in widgets:
        layout.addWidget(widget, 1 if widget is stretch else 0)
    return column


def _dock(name: str, widget: QWidget) -> QDockWidget:
    dock = QDockWidget()
    dock.setObjectName(name)
    dock.setWidget(widget)
    return dock


class MainWindow(QMainWindow):
    """The xqdesk window. ``settings_store`` defaults to the user's QSettings; tests pass an INI file."""

    closed = Signal()

    def __init__(self, settings_store: QSettings | None = None, autosave_path: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.saved_settings = SavedSettings(settings_store if settings_store is not None else open_store())
        if self.settings.language != current_language().value:
            set_language(self.settings.language)
        self.controller = GameController(self, settings=live_settings(self.settings))
        self._build_widgets()
        self.files = FileManager(self, self.controller, autosave_path=autosave_path)
        self.reviews = ReviewSession(self.controller, self.saved_settings, self.score_graph, self.move_list,
                                     self.review_summary, self)
        self.analysis = AnalysisSession(self.controller, self.saved_settings, self.engine_panel, self.board_view,
                                        self.tablebase_pane, self.eval_bar, self.reviews.score, self)
        self.exports = GameExports(self.statusBar(), self)
        self.pictures = PictureExports(self.controller, self.board_view, self.move_list, self.saved_settings,
                                       self.exports, self)
        self.clipboard = GameClipboard(self.controller, self.move_list, self, self.files.confirm_discard)
        self.view = ViewOptions(self.board_view, self.eval_bar, self.saved_settings, self)
        self.windows = ExtraWindows(self.saved_settings, self)
        self.explorer = ExplorerSession(self.controller, self.saved_settings, self.explorer_panel, self.explorer_dock,
                                        self, self.files.confirm_discard)
        self.starts = GameStarts(self.controller, self.saved_settings, self.view.set_flipped,
                                 self.engine_panel.shutdown, self, self.files.confirm_discard)
        self.dock_sizes = DockSizes(self, self.engine_dock, self.engine_panel, self.explorer_dock)
        self._shut_down = False
        self._shown: tuple[str, tuple[Move, ...]] | None = None
        self._actions: dict[str, QAction] = {}
        self._build_actions()
        self._menus = build_menus(self.menuBar(), self._actions, self.set_language)
        self._menus["Recent files"].aboutToShow.connect(self._fill_recent_menu)
        self.view.fill_theme_menu(self._menus["Board theme"])
        self.explorer_panel.book_shown.connect(self.view.show_book)
        self.addToolBar(build_toolbar(self._actions, self.style()))
        self.statusBar().addPermanentWidget(self.reviews.progress)
        self._connect()
        self.setAcceptDrops(True)
        self.retranslate()
        self.resize(1100, 760)
        self._refresh()

    # --- settings ----------------------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """The settings in use (see :attr:`saved_settings`)."""
        return self.saved_settings.current

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.saved_settings.current = settings

    def update_settings(self, **changes: Any) -> None:
        """Change and save settings."""
        self.saved_settings.update(**changes)

    # --- building ------------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        """The board, the side column (clocks, game info, moves, variations, comment, tablebase),
        the banner, and the engine and explorer docks, set up from the settings."""
        settings = self.settings
        self.board_view = BoardView()
        self.board_view.set_flipped(settings.flip_board)
        self.board_view.set_theme(theme_named(settings.theme))
        self.board_view.set_coordinates(settings.show_coordinates)
        self.sounds = SoundPlayer(muted=settings.muted)
        self.banner = MessageBanner()
        self.clock_display = ClockDisplay(self.controller.clock())
        self.game_info = GameInfoPanel(self.controller)
        self.move_list = MoveList(self.controller)
        try:
            self.move_list.set_notation(Notation(settings.notation))
        except ValueError:
            self.move_list.set_notation(Notation.CHINESE)
        self.variation_list = VariationList(self.controller)
        self.variation_tree = VariationTree(self.controller)
        self.review_summary = ReviewSummary()
        self.review_summary.ply_chosen.connect(self.controller.go_to)
        self.eval_bar = EvalBar()
        self.eval_bar.set_flipped(settings.flip_board)
        self.comment_editor = CommentEditor(self.controller)
        self.tablebase_pane = TablebasePane()
        self.tablebase_pane.set_directory(settings.tablebase_path)
        self.engine_panel = EnginePanel()
        self.engine_panel.set_score_view(settings.score_view)
        self.engine_panel.set_lines(max(1, settings.analysis_lines))
        self.score_graph = self.engine_panel.graph
        self.explorer_panel = ExplorerPanel()
        self.explorer_panel.set_database(settings.explorer_database)
        self._set_notation(self.move_list.notation())
        self.moves_tabs = QTabWidget()
        self.moves_tabs.setDocumentMode(True)
        self.moves_tabs.addTab(self.move_list, "")
        self.moves_tabs.addTab(self.variation_tree, "")
        # the notation serves both tabs: in their corner, not a row of its own above the moves
        self.moves_tabs.setCornerWidget(self.move_list.notation_bar, Qt.Corner.TopRightCorner)
        side = _column(self.clock_display, self.game_info, self.review_summary, self.moves_tabs, self.variation_list,
                       self.comment_editor, self.tablebase_pane, stretch=self.moves_tabs)
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
        self.engine_dock = _dock("engine-dock", self.engine_panel)
        self.engine_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                                     | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.engine_dock.setAllowedAreas(Qt.DockWidgetArea.AllDockWidgetAreas)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.engine_dock)
        self.explorer_dock = _dock("explorer-dock", self.explorer_panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.explorer_dock)
        self.explorer_dock.setVisible(settings.show_explorer)

    def _action(self, key: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
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
        controller, files, analysis, reviews, explorer, starts = (self.controller, self.files, self.analysis,
                                                                  self.reviews, self.explorer, self.starts)
        for key, slot, shortcut in (
            ("New game", self.starts.choose, QKeySequence.StandardKey.New),
            ("Open…", files.choose_and_open, QKeySequence.StandardKey.Open),
            ("Open match folder…", files.choose_and_open_folder, None),
            ("Save", files.save, QKeySequence.StandardKey.Save),
            ("Save as…", files.choose_and_save, QKeySequence.StandardKey.SaveAs),
            ("Export position…", self.pictures.choose_and_export_position, None),
            ("Export game as GIF…", self.pictures.choose_and_export_gif, None),
            ("Export game as PDF…", self.pictures.choose_and_export_pdf, None),
            ("Copy position picture", self.pictures.copy_position_picture, None),
            ("Choose position index…", explorer.choose_database, None),
            ("Add games to the position index…", explorer.choose_and_index_files, None),
            ("Quit", self.close, QKeySequence.StandardKey.Quit),
            ("Copy FEN", self.clipboard.copy_fen, None),
            ("Paste FEN", self.clipboard.paste_fen, None),
            ("Copy moves", self.clipboard.copy_moves, QKeySequence.StandardKey.Copy),
            ("Paste moves", self.clipboard.paste_moves, QKeySequence.StandardKey.Paste),
            ("Paste game", files.paste_game, "Ctrl+Shift+V"),
            ("Edit position…", self.starts.edit_position, None),
            ("Manage engines…", self.manage_engines, None),
            ("Analysis engines…", analysis.choose_engines, None),
            ("Tablebase directory…", analysis.choose_tablebase_directory, None),
            ("Person vs person", lambda: starts.start_asking(None, None), None),
            ("Play Red against the engine", lambda: starts.start_asking(None, starts.default_engine()), None),
            ("Play Black against the engine", lambda: starts.start_asking(starts.default_engine(), None), None),
            ("Engine vs engine", lambda: starts.start_asking(starts.default_engine(), starts.default_engine()), None),
            ("Fog of war…", self.windows.open_fog, None),
            ("Engine tournament…", self.windows.open_tournament, None),
            ("Analysis", lambda: analysis.start(analysis.engines()), None),
            ("Stop analysis", analysis.stop, None),
            ("Replay", lambda: controller.set_mode(Mode.REPLAY), None),
            ("Take back", controller.take_back, "Ctrl+Z"),
            ("Hint", controller.hint, "Ctrl+H"),
            ("Resign", controller.resign, None),
            ("Review game…", reviews.choose, None),
            ("Cancel review", reviews.cancel, None),
            ("Next mistake", reviews.next_mistake, "Ctrl+J"),
            ("First move", controller.to_start, "Home"),
            ("Previous move", controller.back, "Left"),
            ("Next move", controller.forward, "Right"),
            ("Last move", controller.to_end, "End"),
            ("Pause", self.pause_game, None),
            ("Resume", self.resume_game, None),
            ("Stop game", controller.stop_game, None),
            ("Game list", lambda: files.show_game_list(), None),
            ("Open previous autosave", files.restore_previous_autosave, None),
            ("About xqdesk…", self.show_about, None),
        ):
            self._action(key, slot, shortcut)
        self._action("Play through", self.toggle_autoplay, "Space", checkable=True)
        self._action("Mute sounds", lambda: self.set_muted(self._actions["Mute sounds"].isChecked()), checkable=True)
        self._actions["Mute sounds"].setChecked(self.settings.muted)
        self._actions.update(self.view.actions)
        self._actions["Opening explorer"] = explorer.toggle_action
        self._actions["Engine panel"] = self.engine_dock.toggleViewAction()

    def show_about(self) -> None:
        """*Help → About xqdesk*: version, licences and the opening book's source."""
        self.about_box = show_about(self)

    def _connect(self) -> None:
        controller = self.controller
        self.board_view.move_chosen.connect(controller.play_move)
        self.board_view.move_refused.connect(self.show_status)
        self.board_view.drawings_edited.connect(
            lambda drawings: controller.set_comment(with_drawings(controller.comment(), drawings)))
        controller.position_changed.connect(self._refresh)
        controller.game_changed.connect(self.reviews.on_game_changed)  # after the analysis has cleared the graph
        controller.status_message.connect(self.show_status)
        controller.hint_ready.connect(self._show_hint)
        controller.game_over.connect(self._on_game_over)
        controller.engine_thinking.connect(self._on_engine_thinking)
        controller.alert.connect(lambda text: self.show_important(text, BannerKind.ERROR))
        controller.seats_changed.connect(self.clear_messages)  # a new game, record or mode: old news goes
        controller.move_made.connect(self._on_move_made)
        controller.paused_changed.connect(lambda _paused: self._refresh())
        for session in (self.reviews, self.analysis):
            session.changed.connect(self._refresh)
        for reporter in (self.reviews, self.explorer, self.pictures, self.clipboard):
            reporter.status.connect(self.show_status)
        self.reviews.shown.connect(self.analysis.show_review_score)
        self.exports.finished.connect(lambda path: self.show_status(tr("Wrote {path}").format(path=path)))
        self.exports.problem.connect(self.show_status)
        self.move_list.notation_changed.connect(self._on_notation_changed)
        self.score_graph.ply_clicked.connect(controller.go_to)
        self.engine_panel.analysis_requested.connect(lambda: self.analysis.start(self.analysis.engines()))
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

    # --- reacting to the game ------------------------------------------------------------------
    def _refresh(self) -> None:
        controller = self.controller
        moves = tuple(controller.line_moves()[:controller.ply()])
        shown = (controller.game().start_fen, moves)
        if shown != self._shown:  # a new position: engines restart, old arrows go
            self._shown = shown
            self.board_view.set_position(controller.board(), controller.last_move())
            self.analysis.position_shown(*shown)
            self.explorer_panel.set_position(*shown)
            self.tablebase_pane.show_board(controller.board())
        self.board_view.set_drawings(parse_drawings(controller.comment()))
        self.board_view.set_movable_colors(controller.movable_colors())
        self.board_view.set_refusal(controller.why_not_movable())
        live = controller.is_live()
        people = any(controller.seat(color) is None for color in (RED, BLACK))
        review, reviewing = self.reviews.review, self.reviews.worker is not None
        enabled = {"Take back": controller.can_take_back(),
                   "Resign": live and people, "Review game…": not reviewing and controller.length() > 0,
                   "Cancel review": reviewing, "Next mistake": review is not None and bool(review.errors()),
                   "Hint": True,  # the controller refuses a hint with the reason when it cannot help
                   "Pause": live and not controller.is_paused(), "Resume": live and controller.is_paused(),
                   "Stop game": live}
        for key, on in enabled.items():
            self._actions[key].setEnabled(on)
        self.view.retranslate()
        headers = controller.game().headers
        self.setWindowTitle(f"{tr('xqdesk')} — {headers.get('Red', tr('Red'))} – {headers.get('Black', tr('Black'))}")

    def _on_move_made(self, move: Move) -> None:
        """A move was added: stale messages go, and its sound plays (check, capture or move)."""
        self.statusBar().clearMessage()
        self.sounds.play(event_for_move(self.controller.board(), move))

    def _on_engine_thinking(self, color: Color, thinking: bool) -> None:
        if thinking:
            profile = self.controller.seat(color)
            name = profile.name if profile is not None else tr("Engine")
            self.show_status(f"{name} ({side_word(color)}): {tr('Thinking…')}")

    def _on_notation_changed(self, notation: Notation) -> None:
        self._set_notation(notation)
        self.update_settings(notation=notation.value)

    def _set_notation(self, notation: Notation) -> None:
        """Write moves in ``notation`` everywhere (the move list's choice)."""
        for widget in (self.engine_panel, self.explorer_panel, self.board_view, self.variation_list,
                       self.variation_tree, self.tablebase_pane):
            widget.set_notation(notation)
        self.controller.notation = notation

    def _on_game_over(self, outcome: Outcome) -> None:
        self.show_status(tr("Game over: {text}").format(text=tr_outcome(outcome.text)))
        self.show_important(tr("Game over: {text}").format(text=result_text(outcome)), BannerKind.INFO)
        self.sounds.play(SoundEvent.GAME_END)
        self._refresh()

    def _show_hint(self, move: Move) -> None:
        text = format_move(self.controller.board(), move, self.move_list.notation())
        self.board_view.set_arrows([Arrow(move, 0, "")])
        self.show_status(f"{tr('Hint')}: {text}")

    # --- messages --------------------------------------------------------------------------------
    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_TIMEOUT_MS)

    def show_important(self, text: str, kind: BannerKind = BannerKind.ERROR) -> None:
        """A message that must not be missed: in the banner until dismissed, and in the status bar."""
        self.banner.show_message(text, kind)
        self.statusBar().showMessage(text, STATUS_TIMEOUT_MS)

    def clear_messages(self) -> None:
        """Take away messages that no longer apply (the banner and the status bar)."""
        self.banner.clear()
        self.statusBar().clearMessage()

    # --- commands --------------------------------------------------------------------------------
    def start_game(self, red: EngineProfile | None, black: EngineProfile | None,
                   start_fen: str = STARTING_FEN, time_controls: dict[Color, TimeControl] | None = None) -> None:
        """A new game with these seats (None: a person); see :meth:`GameStarts.start`."""
        self.starts.start(red, black, start_fen, time_controls)

    def pause_game(self) -> None:
        if self.controller.pause():
            self.show_status(tr("The game is paused"))

    def resume_game(self) -> None:
        if self.controller.resume():
            self.statusBar().clearMessage()

    def manage_engines(self) -> None:
        dialog = EnginesDialog(self.settings, self.saved_settings.store, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.settings = replace(self.settings, engines=dialog.profiles())

    # --- the view ---------------------------------------------------------------------------------
    def set_muted(self, muted: bool) -> None:
        self.sounds.muted = muted
        self._actions["Mute sounds"].setChecked(muted)
        self.update_settings(muted=muted)

    def toggle_autoplay(self) -> None:
        if self.controller.is_autoplaying():
            self.controller.stop_autoplay()
        else:
            self.controller.start_autoplay(max(0.05, self.settings.engine_delay))
        self._actions["Play through"].setChecked(self.controller.is_autoplaying())

    def set_language(self, language: Language) -> None:
        set_language(language)
        self.update_settings(language=language.value)

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
        self.dock_sizes.size_once()  # dock sizes only take once the window is laid out

    def may_close(self) -> bool:
        """Whether the window may close: unsaved changes are saved or given up first."""
        return self.files.confirm_discard()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._shut_down and not self.may_close():
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)
        self.closed.emit()

    def shutdown(self) -> None:
        """Stop engines and timers and write the autosave (safe to call more than once; the
        window then closes without asking about unsaved changes)."""
        self._shut_down = True
        self.windows.shutdown()
        self.reviews.shutdown()
        self.files.autosave.write_now()
        self.exports.shutdown()
        self.explorer.shutdown()
        self.engine_panel.shutdown()
        self.controller.shutdown()
        self.sounds.close()
