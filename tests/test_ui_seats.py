"""One asynchronous seat: a person, an engine behind its worker thread and a fog agent are all
asked with ``ask(board, turn, reply_to)`` and answer the same way, on the GUI thread; a cancelled
ask never answers; the live game asks whoever is to move; its settings come in one way."""
from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import Turn
from xqdesk.engines.play.seat import PersonAsker
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import parse_spec
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.settings import EngineKind, EngineProfile, Settings, open_store, save_settings
from xqdesk.ui.engines.engine_worker import EngineWorker
from xqdesk.ui.game.game_controller import GameController
from xqdesk.ui.game.live_game import LiveGame, LiveSettings
from xqdesk.ui.game.seats import EngineSeat, PersonInWindow, window_seats
from xqdesk.ui.main_window import MainWindow
from xqdesk.ui.windows.fog_window import FogEngineSeat, FogGameWindow

pytestmark = pytest.mark.engines

WEAK_ENGINE = EngineProfile("Built-in level 1", EngineKind.BUILTIN, level=1)
TURN = Turn(RED, 10.0, SearchLimits(movetime=0.2))


def started(qtbot, seat) -> list[str]:
    """Start ``seat`` and wait until it is ready; the failures it reported (none, one hopes)."""
    failures: list[str] = []
    seat.start(lambda: None, failures.append)
    qtbot.waitUntil(lambda: seat.is_ready() or bool(failures), timeout=HANG_GUARD_MS)
    return failures


def test_a_person_seat_answers_only_the_ask_in_progress():
    seat = PersonAsker("Ann")
    replies: list[MoveReply] = []
    turns: list[Board] = []
    seat.on_turn = turns.append
    move = Move.from_iccs("h2e2")
    seat.offer(move)  # not asked: nobody waits for it
    assert replies == [] and not seat.is_asked()
    seat.ask(Board(), TURN, replies.append)
    assert seat.is_asked() and len(turns) == 1
    seat.offer(move)
    seat.offer(Move.from_iccs("b2e2"))  # answered already: the second is nobody's
    assert [reply.move for reply in replies] == [move] and not seat.is_asked()
    seat.ask(Board(), TURN, replies.append)
    seat.cancel()
    seat.offer(move)
    assert len(replies) == 1 and seat.is_human and seat.reply_grace == 0.0 and seat.is_ready()


def test_an_engine_seat_carries_its_reply_onto_the_gui_thread_and_drops_a_cancelled_one(qtbot):
    seat = EngineSeat(EngineWorker(parse_spec("greedy")), "greedy")
    try:
        assert not seat.is_human and seat.reply_grace > 0 and not seat.is_ready()
        assert started(qtbot, seat) == []
        replies: list[tuple[MoveReply, str]] = []
        seat.new_game()
        seat.ask(Board(), TURN, lambda reply: replies.append((reply, threading.current_thread().name)))
        qtbot.waitUntil(lambda: bool(replies), timeout=HANG_GUARD_MS)
        reply, thread = replies[0]
        assert reply.move is not None and Board().is_legal(reply.move)
        assert thread == threading.main_thread().name
        worker = seat.worker
        assert worker is not None
        with qtbot.waitSignal(worker.reply_dropped, timeout=HANG_GUARD_MS):  # asked, then cancelled at once
            seat.ask(Board(), TURN, lambda reply: replies.append((reply, "cancelled")))
            seat.cancel()
        qtbot.wait(300)
        assert len(replies) == 1
        seat.ask(Board(), TURN, lambda reply: replies.append((reply, "second")))  # the seat goes on answering
        qtbot.waitUntil(lambda: len(replies) == 2, timeout=HANG_GUARD_MS)
        assert replies[1][1] == "second"
    finally:
        seat.close()


def test_the_live_game_asks_a_person_and_an_engine_the_same_way(qtbot):
    """A person (Red) and the built-in engine (Black) on one live game: each is asked when it is
    to move; the person's click and the engine's reply are both recorded by the runner."""
    made: dict[bool, object] = {}
    factory = window_seats()

    def seats(color, profile):
        made[color] = factory(color, profile)
        return made[color]

    live = LiveGame(lambda: True, seats, LiveSettings(engine_clock=TimeControl.per_move(5.0)))
    try:
        played = []
        live.move_played.connect(played.append)
        live.start(None, WEAK_ENGINE, Board(), {}, None)
        assert isinstance(made[RED], PersonInWindow) and isinstance(made[BLACK], EngineSeat)
        assert live.worker(RED) is None and live.worker(BLACK) is made[BLACK].worker
        assert live.runner is not None and live.runner.clocks[BLACK].control == TimeControl.per_move(5.0)
        assert live.runner.clocks[RED].control == TimeControl.unlimited()
        qtbot.waitUntil(lambda: made[BLACK].is_ready(), timeout=HANG_GUARD_MS)
        live.begin_turn()
        assert made[RED].is_asked() and not live.is_thinking(RED)  # a person is asked, not shown thinking
        live.offer(Move.from_iccs("h2e2"))
        assert live.is_thinking(BLACK)
        qtbot.waitUntil(lambda: len(played) == 2, timeout=HANG_GUARD_MS)
        assert played[0].move == Move.from_iccs("h2e2") and made[RED].is_asked()
        live.take_back(0)  # the person's ask is cancelled with the rest
        assert not made[RED].is_asked()
    finally:
        live.shutdown()


def test_the_live_games_settings_come_in_one_way(qtbot, tmp_path):
    controller = GameController(settings=LiveSettings(engine_clock=TimeControl.per_move(3.0), engine_delay=0.25))
    try:
        assert controller.live.settings == LiveSettings(TimeControl.per_move(3.0), 0.25)
        controller.live.configure(LiveSettings(engine_clock=TimeControl.unlimited()))
        assert controller.live.settings == LiveSettings(TimeControl.unlimited(), 0.0)
    finally:
        controller.shutdown()
    store = open_store(str(tmp_path / "settings.ini"))  # the window hands its settings over when it is made
    save_settings(replace(Settings(), engine_clock="4s", engine_delay=0.0), store)
    window = MainWindow(settings_store=store, autosave_path=str(tmp_path / "autosave.pgn"))
    qtbot.addWidget(window)
    try:
        assert window.controller.live.settings == LiveSettings(TimeControl.parse("4s"), 0.0)
    finally:
        window.shutdown()


def test_the_fog_window_plays_on_the_live_game_with_its_observation_hook(qtbot):
    """Two fog agents on the fog window's live game: no game thread of the window's own; each
    agent is shown one view of its side at the start and after every ply."""
    fog = FogGameWindow()
    qtbot.addWidget(fog)
    try:
        fog.seat_choice.setCurrentIndex(2)
        fog.red_agent.setCurrentText("fog-greedy")
        fog.black_agent.setCurrentText("fog-random")
        fog.move_time.setValue(1)
        fog.start()
        assert "fog-game" not in {thread.name for thread in threading.enumerate()}
        red, black = fog.live.player(RED), fog.live.player(BLACK)
        assert isinstance(red, FogEngineSeat) and isinstance(black, FogEngineSeat)
        qtbot.waitUntil(lambda: len(fog.moves()) >= 3 or fog.outcome() is not None, timeout=HANG_GUARD_MS)
        plies = len(fog.live.runner.played) if fog.live.runner is not None else None
        if plies is not None and fog.outcome() is None:
            assert len(red._seen) == len(black._seen) == plies + 1
            line = red.position_line(fog.live.runner.board())
            assert line is not None and line.startswith("position fog ")
        assert fog.live.seat(RED) is not None and fog.live.seat(BLACK) is not None
        fog.stop()
        assert not fog.is_playing() and fog.live.player(RED) is None
    finally:
        fog.shutdown()
