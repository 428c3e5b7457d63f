"""The one game runner, without Qt and without waiting: turns, clocks, verdicts, engine limits."""
import pytest

from xqdesk.board import Board
from xqdesk.engines.play.game_player import MoveReply
from xqdesk.engines.play.game_runner import GameRunner, engine_budget
from xqdesk.move import Move
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK, RED
from xqdesk.time_control import TimeControl

pytestmark = pytest.mark.engines

COURSE_CLOCK = {RED: TimeControl.per_move(10), BLACK: TimeControl.per_move(10)}


def test_moves_are_played_and_timed() -> None:
    runner = GameRunner(Board(), COURSE_CLOCK)
    turn = runner.start_turn(0.0)
    assert turn is not None and turn.color == RED and turn.time_limit == 10.0
    assert turn.limits.movetime == engine_budget(10.0) == 9.5
    assert runner.submit(MoveReply(move=Move.from_iccs("h2e2")), 3.0) is None
    assert runner.moves == (Move.from_iccs("h2e2"),) and runner.move_times == (3.0,)
    assert runner.start_turn(3.0).color == BLACK  # type: ignore[union-attr]


@pytest.mark.parametrize("reply, text", [
    (MoveReply(timed_out=True), "Red timeout, Black wins!"),
    (MoveReply(error="policy raised ZeroDivisionError: division by zero"),
     "Red moves illegally, Black wins! (policy raised ZeroDivisionError: division by zero)"),
    (MoveReply(), "Red moves illegally, Black wins! (no move)"),
    (MoveReply(move=Move.from_iccs("a0a5")), "Red moves illegally, Black wins! (a0a5 (9, 0, 4, 0) in "
     "'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1': the piece cannot move that way)"),
])
def test_every_fault_gets_the_course_text_whoever_made_it(reply: MoveReply, text: str) -> None:
    runner = GameRunner(Board(), COURSE_CLOCK)
    runner.start_turn(0.0)
    outcome = runner.submit(reply, 1.0)
    assert outcome is not None and outcome.text == text
    assert runner.start_turn(2.0) is None and runner.outcome == outcome


def test_a_reply_after_the_deadline_is_a_timeout_and_the_timer_says_so_first() -> None:
    late = GameRunner(Board(), COURSE_CLOCK)
    late.start_turn(0.0)
    outcome = late.submit(MoveReply(move=Move.from_iccs("h2e2")), 10.2)
    assert outcome is not None and outcome.termination is Termination.TIMEOUT and late.moves == ()
    ticked = GameRunner(Board(), COURSE_CLOCK)
    ticked.start_turn(0.0)
    assert ticked.check_time(9.9) is None
    assert ticked.check_time(10.1).text == "Red timeout, Black wins!"  # type: ignore[union-attr]


def test_a_side_without_a_clock_never_loses_on_time() -> None:
    runner = GameRunner(Board(), {RED: TimeControl.unlimited(), BLACK: TimeControl.per_move(3)})
    runner.start_turn(0.0)
    assert runner.check_time(3600.0) is None
    assert runner.submit(MoveReply(move=Move.from_iccs("h2e2")), 3600.0) is None
    assert runner.start_turn(3600.0).limits.movetime == engine_budget(3)  # type: ignore[union-attr]


def test_engines_under_a_game_clock_are_told_both_clocks() -> None:
    runner = GameRunner(Board(), {RED: TimeControl.game(900, 5), BLACK: TimeControl.byo_yomi(600, 30)})
    runner.start_turn(0.0)
    runner.submit(MoveReply(move=Move.from_iccs("h2e2")), 100.0)
    limits = runner.start_turn(0.0).limits  # type: ignore[union-attr]
    assert (limits.red_time, limits.black_time, limits.red_increment, limits.black_increment) == (805.0, 600.0, 5.0, 30.0)
    assert limits.movetime is None


def test_in_byo_yomi_an_engine_is_told_its_period_as_a_move_time() -> None:
    runner = GameRunner(Board(), {RED: TimeControl.byo_yomi(1, 30), BLACK: TimeControl.byo_yomi(1, 30)})
    runner.start_turn(0.0)
    runner.submit(MoveReply(move=Move.from_iccs("h2e2")), 20.0)  # into Red's byo-yomi
    runner.start_turn(0.0)
    runner.submit(MoveReply(move=Move.from_iccs("h9g7")), 0.5)
    turn = runner.start_turn(0.0)
    assert turn is not None and turn.time_limit == 30.0 and turn.limits.movetime == engine_budget(30.0)


def test_the_rules_end_the_game_after_the_move_that_ends_it() -> None:
    mate_in_one = Board("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1")
    runner = GameRunner(mate_in_one, COURSE_CLOCK)
    runner.start_turn(0.0)
    outcome = runner.submit(MoveReply(move=Move.from_iccs("b0b9")), 1.0)
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES and outcome.winner == RED


def test_take_back_returns_to_an_earlier_move() -> None:
    runner = GameRunner(Board(), COURSE_CLOCK)
    for iccs in ("h2e2", "h9g7"):
        runner.start_turn(0.0)
        runner.submit(MoveReply(move=Move.from_iccs(iccs)), 1.0)
    runner.start_turn(0.0)
    runner.take_back(2, 0.5)
    assert runner.moves == () and runner.turn is None and runner.start_turn(1.0).color == RED  # type: ignore[union-attr]


def test_a_move_without_a_turn_is_refused() -> None:
    with pytest.raises(RuntimeError, match="none was asked for"):
        GameRunner(Board(), COURSE_CLOCK).submit(MoveReply(move=Move.from_iccs("h2e2")), 0.0)


def test_the_runner_writes_the_record_moves_times_remarks_and_the_outcome_once() -> None:
    start = Board()
    start.push(Move.from_iccs("h2e2"))  # the start position's own history: a move without a time
    runner = GameRunner(start, COURSE_CLOCK, headers={"Red": "a", "Black": "b"})
    runner.start_turn(0.0)
    runner.submit(MoveReply(move=Move.from_iccs("h9g7"), remark="b offers a draw"), 2.5)
    runner.start_turn(3.0)
    runner.submit(MoveReply(move=Move.from_iccs("a0a5")), 4.0)  # illegal: Red loses
    game = runner.game
    assert game.headers == {"Red": "a", "Black": "b"} and game.start_fen == Board().fen()
    assert game.mainline_moves() == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    first, played = game.mainline()
    assert first.seconds is None and (played.seconds, played.comment) == (2.5, "b offers a draw")
    assert runner.first_ply == 1 and runner.moves == (Move.from_iccs("h9g7"),)
    assert runner.remarks == ((0, "b offers a draw"),)
    assert game.outcome is runner.outcome and game.outcome is not None and game.outcome.winner == BLACK
    runner.take_back(1, 5.0)
    assert game.mainline_moves() == [Move.from_iccs("h2e2")] and game.outcome is None


def test_a_fast_clock_keeps_a_margin_of_a_time_slice_from_what_the_engine_is_told():
    """A tenth of a short allowance is less than one time slice of a busy machine: the margin is
    at least 50 ms (never more than half the allowance)."""
    assert engine_budget(0.3) == pytest.approx(0.25)
    assert engine_budget(0.1) == pytest.approx(0.05)
    assert engine_budget(0.06) == pytest.approx(0.03)
    assert engine_budget(1.0) == pytest.approx(0.9)
