"""Engines in the window: the analysis engines and the tablebase, the engine panel showing them or
the game's engine seats, their candidate moves as arrows on the board, the score graph, and the
evaluation bar (the engines' score, else the review's)."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget

from xqdesk.engine_comment import engine_scores
from xqdesk.game import Game
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.score import PovScore, Score
from xqdesk.ui.analysis.engine_panel import EnginePanel
from xqdesk.ui.analysis.engine_view import score_text
from xqdesk.ui.analysis.score_graph import red_view_pawns
from xqdesk.ui.analysis.tablebase_pane import TablebasePane
from xqdesk.ui.base.i18n import side_word, tr
from xqdesk.ui.base.settings import EngineKind, EngineProfile, SavedSettings, ScoreView
from xqdesk.ui.board.board_view import Arrow, BoardView
from xqdesk.ui.board.eval_bar import EvalBar
from xqdesk.ui.engines.engine_worker import SearchProgress
from xqdesk.ui.game.game_controller import GameController, Mode
from xqdesk.ui.game.seat_dialogs import (
    ANALYSIS_PROFILE,
    TABLEBASE_PROFILE_NAME,
    AnalysisEnginesDialog,
    available_engines,
)

SECOND_ENGINE_ARROW_RANK = 3
"""The second analysis engine's arrow takes this rank's colour, apart from the first's lines."""


class AnalysisSession(QObject):
    """What the engine panel shows and the arrows its engines draw; ``changed`` when the window's
    actions should be looked at again."""

    changed = Signal()

    def __init__(self, controller: GameController, settings: SavedSettings, panel: EnginePanel, board: BoardView,
                 tablebase: TablebasePane, eval_bar: EvalBar, review_score: Callable[[], Score | None],
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._settings = settings
        self.panel = panel
        self._board = board
        self._tablebase = tablebase
        self._eval_bar = eval_bar
        self._review_score = review_score
        self._window = parent
        self._arrows: dict[int, list[Arrow]] = {}
        self._progress: dict[int, SearchProgress] = {}
        self._seat_scores: dict[int, Score] = {}
        """Red's view of the positions (by ply) as the seated engines scored them in a game."""
        panel.progress_shown.connect(self._on_progress)
        panel.score_view_changed.connect(self._on_score_view_changed)
        panel.lines_changed.connect(lambda lines: settings.update(analysis_lines=lines))
        controller.engine_scored.connect(self._on_engine_scored)
        controller.seats_changed.connect(self._on_seats_changed)
        controller.game_changed.connect(self._on_game_changed)
        self._graphed_game: Game | None = None
        """The game whose scores the graph holds (another one replacing it clears the graph)."""

    # --- the engines ------------------------------------------------------------------------------
    def engines(self) -> list[EngineProfile]:
        """The engines chosen for analysis in the settings (at most two), else the full-strength built-in."""
        known = {profile.name: profile for profile in self.candidates()}
        chosen = [known[name] for name in self._settings.current.analysis_engines[:2] if name in known]
        return chosen or [ANALYSIS_PROFILE]

    def candidates(self) -> tuple[EngineProfile, ...]:
        """Engines that can analyse: the full-strength built-in, the user's, the built-in levels,
        and the tablebase when a directory is set."""
        settings = self._settings.current
        tables = (self.tablebase_profile(),) if settings.tablebase_path else ()
        return ((ANALYSIS_PROFILE,) + tuple(p for p in available_engines(settings) if p.name != ANALYSIS_PROFILE.name)
                + tables)

    def tablebase_profile(self) -> EngineProfile:
        """The tablebase directory of the settings as an analysis engine."""
        return EngineProfile(TABLEBASE_PROFILE_NAME, EngineKind.TABLEBASE, self._settings.current.tablebase_path)

    def choose_tablebase_directory(self) -> None:
        settings = self._settings.current
        path = QFileDialog.getExistingDirectory(self._window, tr("Choose the tablebase directory"),
                                                settings.tablebase_path or settings.last_directory)
        if path:
            self.set_tablebase_directory(path)

    def set_tablebase_directory(self, path: str) -> None:
        """Use the endgame tables in ``path`` (empty: none) for the tablebase pane and analysis."""
        self._settings.update(tablebase_path=path)
        self._tablebase.set_directory(path)
        self._tablebase.show_board(self._controller.board())

    def choose_engines(self) -> None:
        dialog = AnalysisEnginesDialog(self.candidates(), self.engines(), self._window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        engines = dialog.engines()
        self._settings.update(analysis_engines=tuple(profile.name for profile in engines))
        self.start(engines)

    def start(self, profiles: list[EngineProfile]) -> None:
        """Analyse the viewed position with one or two engines; they follow every move and step."""
        self._controller.set_mode(Mode.ANALYSIS)
        self.panel.set_engines([profile.to_spec() for profile in profiles[:2]])
        self.panel.graph.set_series_names([profile.name for profile in profiles[:2]] if len(profiles) > 1 else [])
        self.panel.start_analysis()
        self.changed.emit()

    def stop(self) -> None:
        self.panel.stop_analysis()

    # --- what they show ---------------------------------------------------------------------------
    def position_shown(self, start_fen: str, moves: tuple) -> None:
        """A new position is on the board: engines restart on it, old arrows go."""
        self._board.set_arrows([])
        self._arrows.clear()
        self._progress.clear()
        self.panel.set_position(start_fen, moves)
        self.show_review_score()

    def show_review_score(self) -> None:
        """The evaluation bar shows the review's score of the position, or in a game a seated
        engine's score of it, while no engine reports one."""
        if not self._progress:
            score = self._review_score()
            self._eval_bar.show_score(score if score is not None else self._seat_scores.get(self._controller.ply()))

    def _on_progress(self, index: int, progress: SearchProgress) -> None:
        """Candidate moves as arrows: the first engine's MultiPV lines, the second engine's best,
        each labelled with its score from the engine panel's point of view."""
        board = self._controller.board()
        view = self.panel.score_view
        rows = [row for row in progress.rows if row.pv and board.is_legal(row.pv[0])]
        if index == 0:
            arrows = [Arrow(row.pv[0], rank, score_text(row.score, view, board.turn))
                      for rank, row in enumerate(rows)]
        else:
            arrows = [Arrow(row.pv[0], SECOND_ENGINE_ARROW_RANK, score_text(row.score, view, board.turn), engine=1)
                      for row in rows[:1]]
        self._progress[index] = progress
        self._arrows[index] = arrows
        if index == 0 or 0 not in self._progress:  # the first engine's score, else the second's
            best = progress.rows[0].score if progress.rows else progress.latest.score
            if best is not None:
                self._eval_bar.show_score(best.red())
        if self._settings.current.show_engine_arrows:
            self._board.set_arrows(self._arrows.get(0, []) + self._arrows.get(1, []))

    def _on_score_view_changed(self, view: ScoreView) -> None:
        """Save the choice and label the arrows on the board from the new point of view."""
        self._settings.update(score_view=view)
        for index, progress in list(self._progress.items()):
            self._on_progress(index, progress)

    def _on_game_changed(self) -> None:
        """The graph spans the game's moves; a game replacing another clears the other's scores
        and the names of the engines that drew them, and draws the scores its record holds (a
        match's move comments, ``{+0.35/12 0.98s}``: one series per side's engine)."""
        game, graph = self._controller.game(), self.panel.graph
        replaced, self._graphed_game = game is not self._graphed_game, game
        graph.set_ply_count(self._controller.length() + 1)
        if replaced or self._controller.length() == 0:
            graph.clear()
            self._seat_scores.clear()
        for ply in [ply for ply in self._seat_scores if ply > self._controller.length()]:
            del self._seat_scores[ply]  # taken back: another move may come there
        if replaced:
            graph.set_series_names([])
            self._show_recorded_scores(game)

    def _show_recorded_scores(self, game: Game) -> None:
        recorded = engine_scores(game)
        if not recorded:
            return
        graph = self.panel.graph
        graph.set_series_names([f"{side_word(color)}: {game.headers.get(tag) or '?'}"
                                for color, tag in ((RED, "Red"), (BLACK, "Black"))])
        for ply, score in recorded.items():
            graph.set_score(ply, red_view_pawns(score), 0 if score.turn == RED else 1)

    def _on_engine_scored(self, ply: int, score: PovScore, mover: Color) -> None:
        """An engine seat's score: each seated engine draws its own series (the engine panel's
        index of that engine), so two engines' views never zig-zag in one line."""
        seated = [c for c in (RED, BLACK) if self._controller.worker(c) is not None]
        self.panel.graph.set_score(ply, red_view_pawns(score), seated.index(mover) if mover in seated else 0)
        red = score.red()
        self._seat_scores[ply] = self._seat_scores[ply + 1] = red  # the position searched, and after its move
        if not self._progress and self._controller.ply() in (ply, ply + 1):
            self._eval_bar.show_score(red)

    def _on_seats_changed(self) -> None:
        """Show the seated engines in the engine panel (the controller owns them); their
        progress reaches the arrows through the panel, which undoes its connections to a
        worker when it stops showing it."""
        controller = self._controller
        seated = [worker for worker in (controller.worker(RED), controller.worker(BLACK)) if worker is not None]
        if controller.mode().is_play or seated:
            self.panel.shutdown()
            for index, worker in enumerate(seated[:2]):
                self.panel.attach(index, worker)
        if controller.mode().is_play:
            self.panel.graph.set_series_names(
                [f"{side_word(color)}: {profile.name}"
                 for color in (RED, BLACK) if (profile := controller.seat(color)) is not None])
        self.changed.emit()
