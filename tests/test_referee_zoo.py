"""The referee against a zoo of faulty and ordinary course players, each in its own process.

Every faulty player plays Red against a random mover, so its fault shows on the first move. Each
game must end with the course's text within the move clock plus one second, and leave nothing
running (the autouse fixture in conftest checks for child processes).
"""
import sys
import threading
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.engines.errors import EngineStartError
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.play.referee import play_game
from xqdesk.engines.spec import EngineSpec, parse_spec
from xqdesk.engines.transport.process import Direction, LineProcess, live_process_groups
from xqdesk.outcome import Termination

PLAYERS = Path(__file__).parent / "players"
CLOCK = 1.0
MARGIN = HANG_GUARD
"""Seconds a verdict may come after the clock runs out: a guard against a hang, generous enough for
a machine at any load (how soon a verdict comes is measured by bench/engine_overhead.py)."""
RED_ILLEGAL = "Red moves illegally, Black wins!"


def seat(spec_text: str, **kwargs) -> EnginePlayer:
    player = EnginePlayer(parse_spec(spec_text), **kwargs)
    player.start()
    return player


def play(red: EnginePlayer, black: EnginePlayer, max_moves: int = 0):
    """Play one game (stopped after ``max_moves`` moves when given); returns (record, seconds)."""
    stop = threading.Event()

    def count(board, move, seconds):
        if max_moves and len(board.move_stack) >= max_moves:
            stop.set()

    started = time.monotonic()
    try:
        record = play_game(red, black, move_time_limit=CLOCK, on_move=count, stop=stop)
    finally:
        red.close()
        black.close()
    return record, time.monotonic() - started


@pytest.mark.parametrize("name, reason", [
    ("raises", "policy raised ValueError: boom in policy (player.py, line 11)"),
    ("exits", "policy raised SystemExit (sys.exit(3))"),
    ("returns_none", "policy returned None, not a sequence of four integers"),
    ("garbage", "policy returned 'h2e2', not a sequence of four integers"),
    ("off_board", "policy returned (10, 0, 9, 0), which is off the board"),
    ("illegal", "a0a4 (9, 0, 5, 0) in "),
    ("moves_opponent", "a6a5 (3, 0, 4, 0) in "),
])
def test_faulty_player_loses_with_the_course_text_and_reason(name, reason):
    record, seconds = play(seat(f"player:{PLAYERS / name}"), seat("random"))
    assert record.outcome.text.startswith(RED_ILLEGAL + " (")
    assert reason in record.outcome.text
    assert record.outcome.winner is False and record.moves == ()
    assert seconds < CLOCK + MARGIN


def test_wrong_side_and_illegal_moves_say_why():
    record, _ = play(seat(f"player:{PLAYERS / 'moves_opponent'}"), seat("random"))
    assert "belongs to the side not to move" in record.outcome.text
    record, _ = play(seat(f"player:{PLAYERS / 'illegal'}"), seat("random"))
    assert "cannot move that way" in record.outcome.text


@pytest.mark.parametrize("name", ["sleeps", "loops"])
def test_slow_player_times_out_and_is_killed(name):
    red = seat(f"player:{PLAYERS / name}")
    record, seconds = play(red, seat("random"))
    assert record.outcome.text == "Red timeout, Black wins!"
    assert record.outcome.termination is Termination.TIMEOUT
    assert CLOCK <= seconds < CLOCK + MARGIN
    assert not live_process_groups()


def test_hard_exit_is_a_crash_that_loses():
    record, seconds = play(seat(f"player:{PLAYERS / 'hard_exits'}"), seat("random"))
    assert record.outcome.text.startswith(RED_ILLEGAL)
    assert "exited with code 4" in record.outcome.text
    assert seconds < CLOCK + MARGIN


def test_memory_hog_is_stopped_by_the_cap():
    record, seconds = play(seat(f"player:{PLAYERS / 'hog'}", memory_limit_mb=300), seat("random"))
    # On a busy machine the clock may run out before the cap is reached: both end the game.
    if record.outcome.termination is Termination.TIMEOUT:
        assert record.outcome.text == "Red timeout, Black wins!"
    else:
        assert record.outcome.text.startswith(RED_ILLEGAL) and "MemoryError" in record.outcome.text
    assert seconds < CLOCK + MARGIN


@pytest.mark.parametrize("name", ["chatty", "returns_list", "numpy_ints", "mutates_board", "reads_data",
                                  "relative_import", "ordinary"])
def test_well_behaved_oddities_play_on(name):
    record, _ = play(seat(f"player:{PLAYERS / name}"), seat(f"player:{PLAYERS / name}"), max_moves=8)
    assert record.outcome.termination is Termination.ABORTED, record.outcome.text
    assert len(record.moves) == 8


def test_data_file_is_read_by_relative_path():
    red = seat(f"player:{PLAYERS / 'reads_data'}")
    assert "BookReader" in red.name
    record, _ = play(red, seat("random"), max_moves=1)
    assert record.history[0] == (7, 7, 7, 4, 0)


def test_two_players_with_their_own_utils_at_once():
    red, black = seat(f"player:{PLAYERS / 'own_utils_a'}"), seat(f"player:{PLAYERS / 'own_utils_b'}")
    assert "utils-a" in red.name and "utils-b" in black.name
    record, _ = play(red, black, max_moves=4)
    assert record.outcome.termination is Termination.ABORTED
    assert len(record.moves) == 4


def test_killed_engine_is_restarted_for_the_next_game():
    red, black = seat(f"player:{PLAYERS / 'sleeps'}"), seat("random")
    try:
        for _ in range(2):
            record = play_game(red, black, move_time_limit=0.3)
            assert record.outcome.text == "Red timeout, Black wins!"
        assert red.restarts == 1
    finally:
        red.close()
        black.close()


@pytest.mark.parametrize("name, message", [
    ("ctor_raises", "RuntimeError: cannot find my weights"),
    ("syntax_error", "SyntaxError"),
    ("no_player_class", "defines no class Player"),
])
def test_players_that_cannot_load_fail_before_any_game(name, message):
    player = EnginePlayer(parse_spec(f"player:{PLAYERS / name}"))
    with pytest.raises(EngineStartError, match=message):
        player.start()


def test_missing_player_is_reported_before_starting_anything(tmp_path):
    with pytest.raises(EngineStartError, match="no such player"):
        parse_spec(f"player:{tmp_path / 'player_9'}")


def script_engine(name: str) -> EnginePlayer:
    script = PLAYERS / "uci_scripts" / f"{name}.py"
    player = EnginePlayer(EngineSpec(name, (sys.executable, str(script))))
    player.start()
    return player


def test_garbage_on_the_protocol_loses_with_the_reason():
    record, seconds = play(script_engine("garbage_engine"), seat("random"))
    assert record.outcome.text == f"{RED_ILLEGAL} (not a move: 'banana' (expected like 'h2e2'))"
    assert seconds < CLOCK + MARGIN


@pytest.mark.parametrize("stderr_lag", [0.0, 0.4])
def test_engine_crash_loses_with_its_last_words(monkeypatch, stderr_lag):
    """Also when its stderr is read only after its exit is seen (``stderr_lag``: what a busy machine
    did once, and the verdict came without the traceback)."""
    pump = LineProcess._pump

    def lagging_pump(stream, sink, log, direction):
        if direction is Direction.STDERR:
            time.sleep(stderr_lag)
        pump(stream, sink, log, direction)

    monkeypatch.setattr(LineProcess, "_pump", staticmethod(lagging_pump))
    record, _ = play(seat("random"), script_engine("crash_engine"))
    assert record.outcome.text.startswith("Black moves illegally, Red wins! (engine 'Crasher' exited with code 1")
    assert "RuntimeError: segment of imagination" in record.outcome.text
    assert len(record.moves) == 1
