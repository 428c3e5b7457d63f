"""Fog agents see only their observation: they refuse a board, decide the same on boards that
look the same to them, and keep to what their view implies; greedy's choices; beliefs; whole
games."""
import random

import pytest

from xqdesk import BLACK, RED, Board, Move
from xqdesk.engines.fog import AGENT_KINDS, NotAnObservationError, make_agent
from xqdesk.engines.fog.belief import implied, is_consistent, sample_board
from xqdesk.engines.fog.particles import START_CODES, ParticleBelief
from xqdesk.engines.fog.referee import AgentSeat, play_fog_game
from xqdesk.fen import STARTING_FEN, board_fen
from xqdesk.pieces import Piece
from xqdesk.squares import parse_square
from xqdesk.variants.fog import observe, start_board

pytestmark = pytest.mark.engines

FAST = {"Sample Depth": "2", "Sample Time": "0", "Samples": "4"}
"""Belief agents searching each board to a fixed depth: their games repeat exactly."""


def fen(pieces: dict[str, str], turn: str = "w") -> str:
    codes = [0] * 90
    for name, letter in pieces.items():
        codes[parse_square(name)] = Piece.from_symbol(letter).code
    return f"{board_fen(codes)} {turn} - - 0 1"


def agent(kind: str, seed: int = 3, side=RED):
    options = {"Seed": str(seed), **(FAST if kind in ("fog-ubsa", "fog-pbsa") else {})}
    made = make_agent(kind, options)
    made.new_game(side)
    return made


# Two positions Red sees alike: Black's chariot, horse and cannon stand on different unseen squares.
SEEN = {"e0": "K", "d9": "k", "a0": "R", "h2": "C", "c3": "P", "g3": "P", "c0": "B", "a6": "p"}
HIDDEN_ONE = {"i9": "r", "b9": "n", "g7": "c", "c6": "p"}
HIDDEN_TWO = {"f7": "r", "c9": "n", "b7": "c", "i6": "p"}


def test_two_boards_with_the_same_view_but_different_hidden_pieces():
    one = start_board(fen({**SEEN, **HIDDEN_ONE}))
    two = start_board(fen({**SEEN, **HIDDEN_TWO}))
    assert one.fen() != two.fen()
    assert observe(one, RED) == observe(two, RED)


@pytest.mark.parametrize("kind", sorted(AGENT_KINDS))
def test_an_agent_decides_only_from_what_it_sees(kind):
    one = start_board(fen({**SEEN, **HIDDEN_ONE}))
    two = start_board(fen({**SEEN, **HIDDEN_TWO}))
    decisions = []
    for board in (one, two, one):
        player = agent(kind)
        view = observe(board, RED)
        player.see(view)
        decisions.append(player.choose_move(view))
    assert decisions[0] == decisions[1] == decisions[2]
    assert decisions[0] in board.legal_moves


@pytest.mark.parametrize("kind", sorted(AGENT_KINDS))
def test_an_agent_refuses_the_board(kind):
    player = agent(kind)
    board = Board(STARTING_FEN)
    with pytest.raises(NotAnObservationError):
        player.see(board)
    with pytest.raises(NotAnObservationError):
        player.choose_move(board)
    with pytest.raises(ValueError, match="other side"):
        player.see(observe(start_board(), BLACK))


def test_greedy_takes_the_general_first_then_the_most_valuable_piece():
    board = start_board(fen({"e0": "K", "e9": "k", "a0": "R", "a5": "r", "i0": "R", "i3": "p"}))
    assert agent("fog-greedy").choose_move(observe(board, RED)) == Move.from_iccs("e0e9")
    board = start_board(fen({"d0": "K", "e9": "k", "a0": "R", "a5": "r", "i0": "R", "i3": "p"}))
    assert agent("fog-greedy").choose_move(observe(board, RED)) == Move.from_iccs("a0a5")


def test_conservative_greedy_does_not_take_a_pawn_with_a_chariot():
    board = start_board(fen({"d0": "K", "e9": "k", "a0": "R", "a5": "p"}))
    view = observe(board, RED)
    conservative = make_agent("fog-greedy", {"Conservative": "true", "Seed": "1"})
    conservative.new_game(RED)
    plain = agent("fog-greedy")
    assert plain.choose_move(view) == Move.from_iccs("a0a5")
    moves = {conservative.choose_move(view) for _ in range(20)}
    assert Move.from_iccs("a0a5") not in moves


def test_preservative_greedy_takes_with_the_piece_under_attack():
    # Red's chariot h3 is attacked by the pawn h4 it sees; taking that pawn also saves it, while
    # the chariot a0 could take the pawn a6 (the same gain).
    board = start_board(fen({"d0": "K", "f9": "k", "h3": "R", "h4": "p", "a0": "R", "a6": "p"}))
    view = observe(board, RED)
    plain = agent("fog-greedy")
    assert {plain.choose_move(view) for _ in range(30)} == {Move.from_iccs("h3h4"), Move.from_iccs("a0a6")}
    preservative = make_agent("fog-greedy", {"Preservative": "true"})
    preservative.new_game(RED)
    assert {preservative.choose_move(view) for _ in range(10)} == {Move.from_iccs("h3h4")}


def test_an_agent_returns_only_its_own_moves():
    board = start_board()
    view = observe(board, RED)
    player = agent("fog-random")
    moves = {player.choose_move(view) for _ in range(50)}
    assert moves <= set(board.legal_moves)
    with pytest.raises(ValueError, match="not its turn"):
        agent("fog-random", side=BLACK).choose_move(observe(board, BLACK))


def test_a_sampled_board_shows_exactly_the_view_and_honours_a_cannon_screen():
    board = start_board(fen({"d0": "K", "f9": "k", "e2": "C", "e5": "p", "e7": "r", "a9": "n"}))
    view = observe(board, RED)
    constraints = implied(view)
    assert constraints.occupied == {parse_square("e5")}
    assert parse_square("e6") in constraints.empty
    rng = random.Random(5)
    for _ in range(30):
        sample = sample_board(view, rng)
        assert sample is not None and is_consistent(sample, view)
        assert sample[parse_square("e5")] != 0 and sample[parse_square("e6")] == 0
        assert sorted(code for code in sample if code < 0) == sorted(code for code in board._codes if code < 0)


def test_particles_keep_the_true_board_while_nothing_is_resampled():
    board = start_board()
    belief = ParticleBelief(BLACK, 100_000, random.Random(2))
    belief.update(observe(board, BLACK))
    assert belief.particles == {START_CODES: 1.0}
    rng = random.Random(9)
    for _ in range(4):
        board.push(rng.choice(sorted(board.legal_moves, key=Move.iccs)))
        belief.update(observe(board, BLACK))
        assert tuple(board._codes) in belief.particles
        assert all(is_consistent(codes, observe(board, BLACK)) for codes in belief.particles)
    assert belief.restarts == 0


def test_a_particle_belief_starts_afresh_when_the_truth_is_lost():
    board = start_board(fen({"d0": "K", "f9": "k", "a0": "R", "i9": "r", "b9": "n"}))
    belief = ParticleBelief(RED, 8, random.Random(4))
    belief.update(observe(board, RED))
    assert belief.particles and all(is_consistent(codes, observe(board, RED)) for codes in belief.particles)
    belief.particles = {START_CODES: 1.0}  # a belief that cannot explain the next view
    board.push_iccs("a0a1")
    belief.update(observe(board, RED))
    assert belief.restarts == 1 and all(is_consistent(codes, observe(board, RED)) for codes in belief.particles)


@pytest.mark.parametrize("red,black", [("fog-pbsa", "fog-greedy"), ("fog-random", "fog-ubsa")])
def test_whole_games_end_by_the_rules_and_repeat_with_the_same_seeds(red, black):
    records = [play_fog_game(AgentSeat(agent(red, 1)), AgentSeat(agent(black, 2, BLACK))) for _ in range(2)]
    record = records[0]
    assert records[1].moves == record.moves and record.outcome == records[1].outcome
    assert record.outcome.winner is not None or record.outcome.text.endswith("draw!")
    final = record.board_at(len(record.moves))
    assert final.outcome() == record.outcome
    assert record.view(len(record.moves), RED).ply == len(record.moves)
