"""The game model: positions along the main line, replay re-checks, outcome checks."""
from __future__ import annotations

import pytest

from xqdesk.errors import IllegalMoveError
from xqdesk.fen import STARTING_FEN
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import COURSE, STANDARD


def _moves(*texts: str) -> list[Move]:
    return [Move.from_iccs(text) for text in texts]


def test_positions_along_the_main_line() -> None:
    game = Game.from_moves(_moves("h2e2", "h9g7", "h0g2"))
    assert game.board_at(0).fen() == STARTING_FEN
    assert game.board_at(2).fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert [board.fen() for board in game.boards()] == [game.board_at(ply).fen() for ply in range(4)]
    assert game.end_board().fen() == game.board_at(3).fen()
    assert len(game) == 3
    with pytest.raises(IndexError):
        game.board_at(4)


def test_course_history_of_a_game() -> None:
    game = Game.from_moves(_moves("h2e2", "h9g7", "e2e6"))
    assert game.course_history() == [(7, 7, 7, 4, 0), (0, 7, 2, 6, 0), (7, 4, 3, 4, -1)]


def test_replay_names_the_illegal_move_of_a_variation() -> None:
    game = Game.from_moves(_moves("h2e2", "h9g7"))
    game.mainline()[0].add_variation(Move.from_iccs("b9c7")).add_variation(Move.from_iccs("h2h9"))
    with pytest.raises(IllegalMoveError, match=r"move 2 \(Red\) of the variation 1 at move 1 \(Black\) of the "
                                               r"main line: 'h2h9' is not legal in .*no piece on the from-square"):
        game.replay()


def test_replay_under_the_ruleset_the_game_was_played_with() -> None:
    # Red's chariot checks the king from d2 and e2 in turn: legal in real games, but the course
    # forbids a piece that has checked three times running to check again.
    moves = _moves("a2d2", "d9e9", "d2e2", "e9d9", "e2d2", "d9e9", "d2e2", "e9d9", "e2d2")
    start = "3k5/9/9/9/9/9/9/R8/4A4/4K4 w - - 0 1"
    standard = Game.from_moves(moves, start_fen=start)
    standard.ruleset = STANDARD
    standard.replay()
    course = Game.from_moves(moves, start_fen=start)
    course.ruleset = COURSE
    with pytest.raises(IllegalMoveError, match=r"move 5 \(Red\) of the main line: 'e2d2' .*perpetual check"):
        course.replay()


def test_check_outcome_on_a_mate() -> None:
    game = Game.from_moves(_moves("b0b9"), start_fen="4k4/R8/9/9/9/9/9/9/4A4/1R2K4 w - - 0 1")
    game.replay()
    assert game.judge() == Outcome.no_legal_moves(BLACK)
    game.outcome = Outcome.no_legal_moves(BLACK)
    assert game.check_outcome().agrees
    game.outcome = Outcome.timeout(BLACK)
    assert not game.check_outcome().agrees
    game.outcome = None
    check = game.check_outcome()
    assert check.agrees and check.judged == Outcome.no_legal_moves(BLACK)


def test_check_outcome_off_the_board_needs_the_side_to_move() -> None:
    game = Game.from_moves(_moves("h2e2"))
    game.outcome = Outcome.timeout(BLACK)
    assert game.check_outcome().agrees
    game.outcome = Outcome.timeout(RED)
    check = game.check_outcome()
    assert not check.agrees and "with Black to move" in check.detail


def test_a_game_that_goes_on_after_the_capture_free_limit_does_not_check() -> None:
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"] * 31
    game = Game.from_moves(_moves(*shuffle[:122]))
    game.outcome = Outcome.capture_free_draw()
    check = game.check_outcome()
    assert not check.agrees
    assert "after ply 120" in check.detail
    shorter = Game.from_moves(_moves(*shuffle[:120]), outcome=Outcome.capture_free_draw())
    assert shorter.check_outcome().agrees


def test_headers_come_out_in_pgn_order() -> None:
    game = Game(headers={"Opening": "x", "Custom": "y", "Red": "r", "Event": "e"})
    assert game.sorted_headers() == [("Event", "e"), ("Red", "r"), ("Opening", "x"), ("Custom", "y")]
