"""*Game → Fog of war*: play either colour against a fog agent, or watch two agents, seeing only
what one side sees.

The game runs on the window's :class:`~xqdesk.ui.game.live_game.LiveGame`, the same one seat per
colour the main window plays on, under the fog ruleset and with the fog variant's observation hook
(as the command line's fog referee runs on the game runner): after the start and every ply each
agent is shown what its side sees. An agent is an :class:`FogEngineSeat`, an engine seat whose
worker thread sends it every view its side had (``position fog …``) under its own move time and
move clock; the person is the window's person seat, answered by a click on the board view. The
window keeps the full game but shows it from the chosen view: while a person plays, their own
side's (unseen squares under fog); when the game ends the fog lifts and every ply can be replayed
from Red's view, Black's view or the full board. Watching two agents, any view may be chosen at
any time.
"""
from __future__ import annotations

import time
from typing import Optional

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from xqdesk.board import Board
from xqdesk.engines.fog.referee import format_fog_position
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import FOG_KINDS, parse_spec
from xqdesk.fen import STARTING_FEN
from xqdesk.game import ChildNode
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.i18n import follow_language, tr, tr_outcome
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.board.board_view import BoardView
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.live_game import LiveGame, LiveSettings
from xqdesk.ui.game.seats import EngineSeat, LiveSeat, PersonInWindow
from xqdesk.variants.fog.game import start_board
from xqdesk.variants.fog.observation import Observation, observe

SEAT_CHOICES = ("Play Red", "Play Black", "Watch two agents")
VIEW_CHOICES = ("Red's view", "Black's view", "Full board")
STARTING_TICK_MS = 500
"""While the agents start, the status line counts the seconds this often."""
FULL_BOARD = None


UNTIMED = {RED: TimeControl.unlimited(), BLACK: TimeControl.unlimited()}
"""The game's clocks: none (each agent keeps its own move clock; a person has all the time)."""


class FogEngineSeat(EngineSeat):
    """A fog agent playing ``color`` in its own engine process: it is shown every view of its
    side (:meth:`see`, from the observation hook) and asked with all of them as ``position fog
    …``, under its own move time (``limits``) and move clock (``time_limit``)."""

    def __init__(self, color: Color, agent: str, limits: SearchLimits, time_limit: float) -> None:
        super().__init__(EngineWorker(parse_spec(agent)), agent, limits=limits, time_limit=time_limit)
        self.color = color
        self._seen: list[Observation] = []

    def new_game(self) -> None:
        super().new_game()
        self._seen = []

    def see(self, observation: Observation) -> None:
        self._seen.append(observation)

    def position_line(self, board: Board) -> Optional[str]:
        observation = observe(board, self.color)
        seen = self._seen if self._seen and self._seen[-1] == observation else [*self._seen, observation]
        return format_fog_position(seen)


def agent_profile(agent: str) -> EngineProfile:
    """How the live game names a seated fog agent (``fog-pbsa`` …); its seat starts it."""
    spec = parse_spec(agent)
    return EngineProfile(agent, EngineKind.COMMAND, spec.command[0], arguments=spec.command[1:])


class FogGameWindow(QDialog):
    """The fog-of-war window (see the module docstring)."""

    game_finished = Signal(object)  # Outcome
    agents_starting = Signal(int, int, str)  # agents ready, agents, the one starting now ('' : all ready)

    def __init__(self, parent: Optional[QWidget] = None, start_fen: str = STARTING_FEN) -> None:
        super().__init__(parent)
        self.setModal(False)
        self._start_fen = start_fen
        self._moves: list[Move] = []
        self._ply = 0
        self._person: Optional[Color] = None
        self._outcome: Optional[Outcome] = None
        self._awaiting = False
        """Whether the person's seat is waiting for their move."""
        self._agent_limits = (SearchLimits(movetime=2.0), 11.0)
        """The move time and the move clock of the agents of the game being set up."""
        self.live = LiveGame(lambda: True, self._make_seat, LiveSettings(engine_clock=TimeControl.unlimited()),
                             parent=self, on_position=self._show_views, start_in_turn=True)
        """The game (see the module docstring); its seats are made by :meth:`_make_seat`."""
        self.live.move_played.connect(self._on_moved)
        self.live.finished.connect(self._on_finished)
        self.live.seats_starting.connect(self._on_starting)
        self._starting: tuple[int, int, str] | None = None
        self._starting_since = 0.0
        self._starting_timer = QTimer(self)
        self._starting_timer.setInterval(STARTING_TICK_MS)
        self._starting_timer.timeout.connect(self._show_starting)

        self.seat_choice = QComboBox()
        self.red_agent = QComboBox()
        self.black_agent = QComboBox()
        for combo in (self.red_agent, self.black_agent):
            combo.addItems(FOG_KINDS)
            combo.setCurrentText("fog-pbsa")
        self.move_time = QSpinBox()
        self.move_time.setRange(1, 60)
        self.move_time.setValue(2)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.start)
        self.view_choice = QComboBox()
        self.view_choice.currentIndexChanged.connect(lambda _index: self._show())
        self.back_button = QPushButton("◀")
        self.forward_button = QPushButton("▶")
        self.back_button.clicked.connect(lambda: self.step(-1))
        self.forward_button.clicked.connect(lambda: self.step(1))
        self.ply_label = QLabel()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.start_progress = QProgressBar()
        self.start_progress.setTextVisible(False)
        self.start_progress.setMaximumHeight(8)
        self.start_progress.setVisible(False)
        self.board_view = BoardView()
        self.board_view.move_chosen.connect(self._on_person_move)
        self.board_view.move_refused.connect(self.status.setText)
        self._labels: dict[str, QLabel] = {key: QLabel() for key in ("You", "Red agent", "Black agent",
                                                                     "Seconds per move", "View")}

        setup = QHBoxLayout()
        for key, widget in (("You", self.seat_choice), ("Red agent", self.red_agent),
                            ("Black agent", self.black_agent), ("Seconds per move", self.move_time)):
            setup.addWidget(self._labels[key])
            setup.addWidget(widget)
        setup.addWidget(self.start_button)
        replay = QHBoxLayout()
        replay.addWidget(self._labels["View"])
        replay.addWidget(self.view_choice)
        replay.addWidget(self.back_button)
        replay.addWidget(self.forward_button)
        replay.addWidget(self.ply_label)
        replay.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(setup)
        layout.addWidget(self.board_view, 1)
        layout.addLayout(replay)
        layout.addWidget(self.start_progress)
        layout.addWidget(self.status)
        self.seat_choice.currentIndexChanged.connect(lambda _index: self._update_controls())
        self.retranslate()
        follow_language(self, self.retranslate)
        self.resize(640, 800)
        self._show()

    # --- texts ---------------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Fog of war"))
        for combo, choices in ((self.seat_choice, SEAT_CHOICES), (self.view_choice, VIEW_CHOICES)):
            index = max(combo.currentIndex(), 0)
            combo.blockSignals(True)
            combo.clear()
            combo.addItems([tr("Play Red"), tr("Play Black"), tr("Watch two agents")] if choices is SEAT_CHOICES
                           else [tr("Red's view"), tr("Black's view"), tr("Full board")])
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        self._labels["You"].setText(tr("You"))
        self._labels["Red agent"].setText(tr("Red agent"))
        self._labels["Black agent"].setText(tr("Black agent"))
        self._labels["Seconds per move"].setText(tr("Seconds per move"))
        self._labels["View"].setText(tr("View"))
        self.start_button.setText(tr("Start"))
        self._update_controls()
        self._show()

    # --- the game ------------------------------------------------------------------------------

    def person_side(self) -> Optional[Color]:
        """The colour the person plays in the game on (None when two agents play)."""
        return self._person

    def is_playing(self) -> bool:
        """A game runs (its agents may still be starting) and has no outcome yet."""
        return self._outcome is None and self.live.is_on()

    def start(self) -> None:
        """Start a game with the choices made above the board (ends a game in progress)."""
        self.stop()
        choice = self.seat_choice.currentIndex()
        self._person = RED if choice == 0 else BLACK if choice == 1 else None
        self._moves, self._ply, self._outcome, self._awaiting = [], 0, None, False
        self._agent_limits = (SearchLimits(movetime=float(self.move_time.value())),
                              float(self.move_time.value()) * 3 + 5)
        seats = {color: None if color == self._person else agent_profile(combo.currentText())
                 for color, combo in ((RED, self.red_agent), (BLACK, self.black_agent))}
        if self._person is not None:
            self.view_choice.setCurrentIndex(0 if self._person == RED else 1)
        self.status.setText(tr("Starting the agents…"))
        self.live.start(seats[RED], seats[BLACK], start_board(self._start_fen), {}, UNTIMED)
        self._update_controls()
        self._show()
        self.live.begin_turn()

    def _make_seat(self, color: Color, profile: Optional[EngineProfile]) -> LiveSeat:
        """The seat of ``color``: the person (None) or the fog agent ``profile`` names."""
        if profile is None:
            return PersonInWindow(tr("You"), on_turn=self._on_your_turn)
        limits, time_limit = self._agent_limits
        return FogEngineSeat(color, profile.name, limits, time_limit)

    def _show_views(self, board: Board) -> None:
        """The observation hook: each agent sees what its side sees (at the start, after every ply)."""
        for color in (RED, BLACK):
            seat = self.live.player(color)
            if isinstance(seat, FogEngineSeat):
                seat.see(observe(board, color))

    def stop(self) -> None:
        """End a game in progress; its agents are closed (the next game starts fresh ones)."""
        self.live.shutdown()
        self._awaiting = False
        self._update_controls()

    def shutdown(self) -> None:
        self.stop()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.stop()
        super().closeEvent(event)

    # --- what the thread reports ---------------------------------------------------------------
    def _on_starting(self, done: int, total: int, name: str) -> None:
        """The agents start one by one (a learning agent loads for seconds): say which, how far."""
        if done >= total:
            self._starting = None
            self._starting_timer.stop()
            self.start_progress.setVisible(False)
            if self.status.text().startswith(tr("Starting the agents…")):
                self.status.setText("")
            self.agents_starting.emit(done, total, name)
            return
        if self._starting is None:
            self._starting_since = time.monotonic()
            self._starting_timer.start()
        self._starting = (done, total, name)
        self.start_progress.setRange(0, total)
        self.start_progress.setValue(done)
        self.start_progress.setVisible(True)
        self._show_starting()
        self.agents_starting.emit(done, total, name)

    def _show_starting(self) -> None:
        if self._starting is None:
            return
        done, total, name = self._starting
        if self._person is not None:  # one agent: the side the person does not play
            side = tr("Black") if self._person == RED else tr("Red")
        else:  # two agents start in turn, Red's first
            side = tr("Red") if done == 0 else tr("Black")
        self.status.setText(tr("Starting the agents… {side}: {name} ({done} of {total} ready, {seconds} s)").format(
            side=side, name=name, done=done, total=total, seconds=int(time.monotonic() - self._starting_since)))

    def starting_state(self) -> tuple[int, int, str] | None:
        """While the agents start: how many are ready, of how many, and the one starting now."""
        return self._starting

    def _on_moved(self, node: ChildNode) -> None:
        at_end = self._ply == len(self._moves)
        self._moves.append(node.move)
        if at_end:
            self._ply = len(self._moves)
        self.status.setText("")
        self._show()

    def _on_your_turn(self, board: Board) -> None:
        """The person's seat is asked for a move (the board is the full one: only its view is shown)."""
        self._awaiting = True
        self.status.setText(tr("Your move"))
        self._ply = len(self._moves)
        self._show()

    def _on_finished(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._awaiting = False
        self.status.setText(tr_outcome(outcome.text))
        self.view_choice.setCurrentIndex(2)  # the fog lifts
        self._update_controls()
        self._show()
        QTimer.singleShot(0, self, self._close_agents)
        self.game_finished.emit(outcome)

    def _close_agents(self) -> None:
        """The game is over: its agents' processes end (a new game starts fresh ones)."""
        if self._outcome is not None:
            self.live.shutdown()

    def _on_person_move(self, move: Move) -> None:
        if self._awaiting and self.is_playing():
            self._awaiting = False
            self.board_view.set_movable_colors(set())
            self.live.offer(move)

    # --- showing -------------------------------------------------------------------------------

    def outcome(self) -> Optional[Outcome]:
        return self._outcome

    def moves(self) -> list[Move]:
        return list(self._moves)

    def view_side(self) -> Optional[Color]:
        """Whose view is shown (None: the full board)."""
        return (RED, BLACK, FULL_BOARD)[max(self.view_choice.currentIndex(), 0)]

    def set_view(self, side: Optional[Color]) -> None:
        self.view_choice.setCurrentIndex(2 if side is None else 0 if side == RED else 1)

    def step(self, plies: int) -> None:
        """Replay: go ``plies`` back or forward."""
        self._ply = max(0, min(len(self._moves), self._ply + plies))
        self._show()

    def ply(self) -> int:
        return self._ply

    def _board_at(self, ply: int) -> Board:
        board = start_board(self._start_fen)
        for move in self._moves[:ply]:
            board.push(move)
        return board

    def _update_controls(self) -> None:
        playing = self.is_playing()
        person_plays = playing and self._person is not None
        self.view_choice.setEnabled(not person_plays)
        self.back_button.setEnabled(not person_plays)
        self.forward_button.setEnabled(not person_plays)
        choice = self.seat_choice.currentIndex()
        self.red_agent.setEnabled(choice != 0)
        self.black_agent.setEnabled(choice != 1)

    def _show(self) -> None:
        if self.is_playing() and self._person is not None:
            self.set_view(self._person)  # a person sees only their side while playing
            self._ply = len(self._moves)
        board = self._board_at(self._ply)
        side = self.view_side()
        last = self._moves[self._ply - 1] if self._ply else None
        if side is None:
            self.board_view.set_fog(None)
        else:
            view = observe(board, side)
            self.board_view.set_fog({sq for sq, cell in enumerate(view.cells) if cell is None})
            if last is not None and board.turn == side:
                last = None  # the other side's move is not shown: it may be out of sight
        self.board_view.set_position(board, last)
        self.board_view.set_flipped(side == BLACK or (side is None and self._person == BLACK))
        your_turn = (self._awaiting and self._person is not None and board.turn == self._person
                     and self._ply == len(self._moves) and self.is_playing())
        self.board_view.set_movable_colors({self._person} if your_turn and self._person is not None else set())
        self.ply_label.setText(tr("Ply {ply} of {plies}").format(ply=self._ply, plies=len(self._moves)))
