"""A person is a seat like any other: moves offered from outside, the same clock, the same verdicts
(in the referee's loop and through ``xqdesk play`` at a terminal)."""
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.person_seat import PersonSeat
from xqdesk.engines.play.referee import play_game
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl

pytestmark = pytest.mark.engines

UNTIMED = {RED: TimeControl.unlimited(), BLACK: TimeControl.unlimited()}


def feed(seat: PersonSeat, *actions: str) -> threading.Thread:
    """Answer each time ``seat`` is asked: an ICCS move, or 'resign'."""
    def answer() -> None:
        for action in actions:
            assert seat.wait_until_asked(30)
            assert seat.position() is not None
            if action == "resign":
                seat.resign()
            else:
                seat.offer(Move.from_iccs(action))
    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return thread


def test_two_people_play_and_one_resigns() -> None:
    red, black = PersonSeat("Ann"), PersonSeat("Bo")
    feeders = [feed(red, "h2e2", "resign"), feed(black, "h9g7")]
    record = play_game(red, black, time_controls=UNTIMED)
    for thread in feeders:
        thread.join(5)
    assert record.moves == (Move.from_iccs("h2e2"), Move.from_iccs("h9g7"))
    assert record.outcome.text == "Red resigns, Black wins!"
    assert (record.red, record.black) == ("Ann", "Bo")


def test_a_person_who_does_not_move_in_time_loses_as_an_engine_would() -> None:
    red, black = PersonSeat(), PersonSeat()
    started = time.monotonic()
    record = play_game(red, black, time_controls={RED: TimeControl.per_move(0.3), BLACK: TimeControl.unlimited()})
    assert record.outcome.text == "Red timeout, Black wins!"
    assert time.monotonic() - started < HANG_GUARD  # the verdict comes at the deadline, not never


def test_an_illegal_offer_gets_the_course_verdict() -> None:
    red, black = PersonSeat(), PersonSeat()
    feed(red, "a0a5")  # a chariot cannot jump its own pawn
    record = play_game(red, black, time_controls=UNTIMED)
    assert record.outcome.text.startswith("Red moves illegally, Black wins! (a0a5")


def test_a_listener_receives_offers_at_once_for_event_driven_games() -> None:
    replies: list[MoveReply] = []
    seat = PersonSeat(listener=replies.append)
    seat.offer(Move.from_iccs("h2e2"))
    seat.resign()
    assert replies == [MoveReply(move=Move.from_iccs("h2e2")), MoveReply(resigned=True)]


def play(*args: str, stdin: str | None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", "play", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).parent.parent)


def test_xqdesk_play_reads_moves_in_any_notation_and_refuses_nonsense() -> None:
    done = play("--black", "builtin:Level=1", "--engine-tc", "2s", stdin="炮二平五\nzz\nmoves\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("Red: h2e2") for line in lines)
    assert any(line.startswith("Black: ") for line in lines)
    assert "not a move here: cannot read move 'zz'" in done.stdout
    assert "e2e6" in done.stdout  # the list of legal moves
    assert lines[-1] == "Red resigns, Black wins!"  # the input ended: the person gave up


def test_xqdesk_play_times_a_person_out_when_the_game_sets_a_clock() -> None:
    process = subprocess.Popen([sys.executable, "-m", "xqdesk", "play", "--black", "random", "--person-tc", "1s"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=Path(__file__).parent.parent)
    try:
        process.wait(timeout=HANG_GUARD)  # stdin stays open: the person just never types
    finally:
        process.kill()
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        process.stdin.close()
    out, err = process.stdout.read(), process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    assert process.returncode == 0, err
    assert out.splitlines()[-1] == "Red timeout, Black wins!"
