"""Draw and resign adjudication from the engines' scores, on real boards."""
from xqdesk.board import Board
from xqdesk.engines.contests.adjudication import AdjudicationRules, Adjudicator, DrawRule, ResignRule
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK, RED
from xqdesk.score import Cp, Mate, PovScore

QUIET_MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9"]


def play(board: Board, adjudicator: Adjudicator, moves, scores):
    """Push each move and tell the adjudicator the mover's score (from its own view)."""
    for move, score in zip(moves, scores):
        mover = board.turn
        board.push_iccs(move)
        outcome = adjudicator.observe(board, None if score is None else PovScore(score, mover))
        if outcome is not None:
            return board.ply(), outcome
    return None


def test_draw_after_movecount_quiet_scores_from_movenumber_on():
    rules = AdjudicationRules(draw=DrawRule(move_number=3, move_count=2, score=10))
    ply, outcome = play(Board(), Adjudicator(rules), QUIET_MOVES, [Cp(5), Cp(-3)] * 4)
    # four quiet plies are reached at ply 4, but not before three full moves (ply 6)
    assert ply == 6 and outcome.termination is Termination.ADJUDICATION and outcome.winner is None
    assert outcome.text == "Draw by adjudication: both engines scored within 10 cp of 0 for 2 moves each"
    assert outcome.result() == "1/2-1/2"


def test_a_big_score_or_a_silent_engine_restarts_the_draw_count():
    rules = AdjudicationRules(draw=DrawRule(move_number=0, move_count=2, score=10))
    assert play(Board(), Adjudicator(rules), QUIET_MOVES[:7], [Cp(0), Cp(0), Cp(0), Cp(50), Cp(0), None, Cp(0)]) is None
    ply, _ = play(Board(), Adjudicator(rules), QUIET_MOVES, [Cp(0), Cp(0), Cp(0), Cp(50)] + [Cp(0)] * 4)
    assert ply == 8


def test_a_capture_restarts_the_draw_count():
    rules = AdjudicationRules(draw=DrawRule(move_number=0, move_count=1, score=10))
    start = "3k5/9/9/9/9/9/9/9/R7r/4K4 w - - 0 1"
    quiet = play(Board(start), Adjudicator(rules), ["a1a2", "d9d8", "a2a3"], [Cp(0)] * 3)
    assert quiet[0] == 2
    taking = play(Board(start), Adjudicator(rules), ["a1i1", "d9d8", "i1i2"], [Cp(0)] * 3)
    assert taking[0] == 3  # Red took the chariot on the first move: the count started after it


def test_resign_when_a_side_scores_itself_lost_for_movecount_moves():
    rules = AdjudicationRules(resign=ResignRule(move_count=2, score=300))
    ply, outcome = play(Board(), Adjudicator(rules), QUIET_MOVES, [Cp(-400), Cp(350), Cp(-500), Cp(0), Cp(-320)])
    assert ply == 3 and outcome.winner == BLACK
    assert outcome.text == "Black wins by adjudication: Red scored 300 cp or more below 0 for 2 moves"
    mated = play(Board(), Adjudicator(rules), QUIET_MOVES, [Cp(0), Mate(-3), Cp(0), Mate(-2)])
    assert mated[1].winner == RED


def test_two_sided_resign_needs_the_opponent_to_agree():
    rules = AdjudicationRules(resign=ResignRule(move_count=2, score=300, two_sided=True))
    assert play(Board(), Adjudicator(rules), QUIET_MOVES[:4], [Cp(-400), Cp(0), Cp(-400), Cp(0)]) is None
    ply, outcome = play(Board(), Adjudicator(rules), QUIET_MOVES, [Cp(-400), Cp(400), Cp(-400), Cp(400), Cp(-400)])
    assert ply == 5 and outcome.winner == BLACK
