"""Whole-game review, the core: the win-probability curve, classes, accuracy, and the record form
(comment commands and NAGs) read back by xqdesk's own PGN reader."""
import pytest

from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.review import (
    MoveClass,
    PositionEval,
    build_review,
    classify,
    format_eval,
    is_reviewed,
    move_accuracy,
    parse_eval,
    read_review,
    side_accuracy,
    strip_commands,
    win_probability,
    write_review,
)
from xqdesk.score import MATE_GIVEN, Cp, Mate

MOVES = [Move.from_iccs(text) for text in ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7")]


BEST_LINES = (("h2e2",), ("h9g7",), ("h0g2",), ("a9a8", "a0a1"), ("a0a1", "a9a8"), ("b9c7",), ())
SCORES = (20, 20, 30, 30, 180, -700, -700)
"""Black's i9h9 (move 4) gives Red 1.5 pawns: a mistake; Red's i0h0 (move 5) drops 8.8: a blunder."""


def evals(scores=SCORES):
    """Verdicts for the positions of MOVES (Red's view) with BEST_LINES."""
    return [PositionEval(Cp(cp) if isinstance(cp, int) else cp, 10 - i // 2,
                         tuple(Move.from_iccs(text) for text in BEST_LINES[i])) for i, cp in enumerate(scores)]


def test_win_probability_is_a_logistic_of_centipawns_with_mates_at_the_ends():
    assert win_probability(Cp(0)) == pytest.approx(0.5)
    assert win_probability(Cp(200)) == pytest.approx(1 - win_probability(Cp(-200)))
    assert win_probability(Cp(5000)) == win_probability(Cp(1000)) < 1.0
    assert win_probability(Mate(3)) == 1.0 and win_probability(MATE_GIVEN) == 1.0
    assert win_probability(Mate(-3)) == 0.0 and win_probability(Mate(0)) == 0.0


def test_classes_follow_the_loss_in_expected_result():
    assert classify(0.5, played_best=True) is MoveClass.BEST
    assert classify(0.005, played_best=False) is MoveClass.BEST
    assert classify(0.03, played_best=False) is MoveClass.GOOD
    assert classify(0.06, played_best=False) is MoveClass.INACCURACY
    assert classify(0.12, played_best=False) is MoveClass.MISTAKE
    assert classify(0.40, played_best=False) is MoveClass.BLUNDER
    assert [cls.nag for cls in (MoveClass.INACCURACY, MoveClass.MISTAKE, MoveClass.BLUNDER)] == [6, 2, 4]


def test_accuracy_is_lichess_formula_and_the_side_figure_weighs_bad_moves():
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(1.0) == 0.0
    assert 50 < move_accuracy(0.1) < 70
    assert side_accuracy([]) is None
    assert side_accuracy([100.0, 100.0, 10.0]) < (100 + 100 + 10) / 3


def test_a_review_classes_each_move_from_the_movers_view():
    game = Game.from_moves(MOVES)
    review = build_review(game, evals())
    assert [move.move_class for move in review.moves] == [MoveClass.BEST] * 3 + [
        MoveClass.MISTAKE, MoveClass.BLUNDER, MoveClass.BEST]
    blunder = review.moves[4]
    assert blunder.color == RED and blunder.loss > 0.5 and blunder.best_move == Move.from_iccs("a0a1")
    assert review.moves[3].color == BLACK and 0.10 <= review.moves[3].loss < 0.15
    assert review.summary(RED).count(MoveClass.BLUNDER) == 1 and review.summary(BLACK).count(MoveClass.MISTAKE) == 1
    assert review.summary(RED).accuracy < review.summary(BLACK).accuracy < 100
    assert [move.ply for move in review.errors()] == [4, 5]
    only_black = build_review(game, evals(), sides=(BLACK,))
    assert all(move.move_class is None for move in only_black.moves if move.color == RED)
    assert only_black.summary(RED).accuracy is None
    with pytest.raises(ValueError, match="needs 7 position verdicts"):
        build_review(game, evals()[:2])


def test_eval_commands_round_trip_scores_and_mates():
    for score in (Cp(35), Cp(-210), Cp(0), Mate(3), Mate(-2), Mate(0), MATE_GIVEN):
        assert parse_eval(format_eval(score, 12)) == (score, 12)
    assert format_eval(Cp(35), 12) == "[%eval 0.35,12]"
    assert format_eval(Mate(-2), 7) == "[%eval #-2,7]"
    assert parse_eval("good move [%eval -1.5]") == (Cp(-150), 0)
    assert strip_commands("[%eval 0.35,12] [%best h2e2] nice") == "nice"


def test_written_review_reads_back_through_pgn_with_nags_variations_and_the_same_classes():
    game = Game.from_moves(MOVES, headers={"Red": "A", "Black": "B"})
    game.mainline()[1].comment = "a human note"
    review = build_review(game, evals(SCORES[:-1] + (Mate(-3),)))
    classes = [move.move_class for move in review.moves]
    assert MoveClass.BLUNDER in classes and MoveClass.MISTAKE in classes
    write_review(game, review, "test engine")
    assert is_reviewed(game)
    text = format_pgn(game)
    assert "{[%eval 0.20,10]} 1. h2e2" in text and "3. i0h0 $4" in text and "2... i9h9 $2" in text
    assert "(3. a0a1 {[%eval 1.80,8]} 3... a9a8)" in text
    assert "[%eval #-3,7]" in text and "a human note" in text
    again = parse_pgn(text).games[0]
    back = read_review(again)
    assert back is not None
    assert [move.move_class for move in back.moves] == classes
    assert [move.before for move in back.moves] == [move.before for move in review.moves]
    assert [move.after for move in back.moves] == [move.after for move in review.moves]
    blunder = next(move for move in back.moves if move.move_class is MoveClass.BLUNDER)
    assert blunder.best_move == review.moves[blunder.ply - 1].best_move
    assert len(blunder.best_line) == len(review.moves[blunder.ply - 1].best_line)
    nags = {4: "??", 2: "?", 6: "?!"}
    for node, move in zip(again.mainline(), back.moves):
        assert {nag for nag in node.nags if nag in nags} == ({move.move_class.nag} if move.move_class.is_error else set())
    # writing it again replaces the commands instead of adding more
    write_review(again, back, "test engine")
    assert format_pgn(again).count("[%eval") == text.count("[%eval")


def test_a_game_without_a_review_reads_as_none():
    assert read_review(Game.from_moves(MOVES)) is None
