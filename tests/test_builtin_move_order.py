"""The built-in engine's move ordering (``move_order_kernel``): the order keys and the picking."""
from __future__ import annotations

import random

import numpy as np
import pytest

from xqdesk.engines.builtin import move_order_kernel as mo
from xqdesk.engines.builtin.position import encode_move
from xqdesk.pieces import CANNON, CHARIOT, HORSE, KING, PAWN
from xqdesk.squares import parse_square

pytestmark = pytest.mark.engines


def _reference_pick_order(moves: list[int], scores: list[int]) -> list[int]:
    """Selection with swaps, written plainly: each step takes the first move of the best score
    left and swaps it with the move at the step's place."""
    moves, scores = list(moves), list(scores)
    for start in range(len(moves)):
        best = max(range(start, len(moves)), key=lambda i: (scores[i], -i))
        moves[start], moves[best] = moves[best], moves[start]
        scores[start], scores[best] = scores[best], scores[start]
    return moves


@pytest.mark.parametrize("seed", range(20))
def test_picking_takes_the_first_of_the_best_scores_and_swaps_it_forward(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(1, 60)
    moves = [rng.randint(1, 1 << 14) for _ in range(count)]
    scores = [rng.choice([0, 0, 0, 5, -3, 1 << 25, 1 << 30, rng.randint(-2000, 2000)]) for _ in range(count)]
    move_array = np.array(moves + [0] * 4, np.int64)
    score_array = np.array(scores + [0] * 4, np.int64)
    picked = [int(mo.pick(move_array, score_array, start, count)) for start in range(count)]
    assert picked == _reference_pick_order(moves, scores)
    assert list(move_array[:count]) == picked  # the buffer holds the order picked
    assert list(score_array[:count]) == sorted(scores, reverse=True)


def test_the_hash_move_comes_first_then_captures_by_victim_then_killers_then_history() -> None:
    board = np.zeros(90, np.int8)
    for name, code in {"e0": KING, "e9": -KING, "a0": CHARIOT, "b2": CANNON, "c4": HORSE, "c3": PAWN,
                       "a9": -CHARIOT, "b9": -HORSE, "b6": -PAWN}.items():
        board[parse_square(name)] = code

    def move(text: str) -> int:
        return encode_move(parse_square(text[:2]), parse_square(text[2:]))

    quiet_good, quiet_bad, killer, hash_move = move("a0a1"), move("a0a2"), move("c3d3"), move("c4d6")
    chariot_takes_chariot, cannon_takes_horse, horse_takes_pawn = move("a0a9"), move("b2b9"), move("c4b6")
    moves = [quiet_bad, horse_takes_pawn, killer, quiet_good, cannon_takes_horse, hash_move, chariot_takes_chariot]
    history = np.zeros(90 * 90, np.int64)
    history[mo.history_slot(quiet_good)] = 100
    history[mo.history_slot(quiet_bad)] = -100
    move_array = np.array(moves, np.int64)
    scores = np.zeros(len(moves), np.int64)
    mo.score_moves(board, move_array, scores, len(moves), hash_move, killer, 0, history, False)
    order = [int(mo.pick(move_array, scores, i, len(moves))) for i in range(len(moves))]
    assert order == [hash_move, chariot_takes_chariot, cannon_takes_horse, horse_takes_pawn, killer, quiet_good,
                     quiet_bad]


@pytest.mark.parametrize("seed", range(10))
def test_scoring_says_which_move_picking_would_take_first(seed: int) -> None:
    """score_moves returns the index of the first move of the best key, so that take() at 0 swaps
    forward the very move pick() would: ties with the hash move's rivals, killers and equal history
    included."""
    rng = random.Random(seed)
    board = np.zeros(90, np.int8)
    board[parse_square("e0")], board[parse_square("e9")] = KING, -KING
    for square in rng.sample([s for s in range(90) if board[s] == 0], 12):
        board[square] = rng.choice([CHARIOT, HORSE, PAWN, -CHARIOT, -CANNON, -PAWN])
    count = rng.randint(1, 40)
    pool = [encode_move(rng.randrange(90), rng.randrange(90)) for _ in range(6)]
    moves = rng.choices(pool, k=count)  # repeated moves: every key ties somewhere
    history = np.zeros(90 * 90, np.int64)
    for move in moves:
        history[mo.history_slot(move)] = rng.choice([0, 0, 7, -7, 300])
    hash_move = rng.choice(moves + [0, 0])
    killer = rng.choice(moves + [0])
    buffers = []
    for _ in range(2):
        move_array = np.array(moves, np.int64)
        scores = np.zeros(count, np.int64)
        first = mo.score_moves(board, move_array, scores, count, hash_move, killer, 0, history, False)
        buffers.append((move_array, scores, first))
    (taken_moves, taken_scores, first), (picked_moves, picked_scores, _) = buffers
    assert int(mo.take(taken_moves, taken_scores, 0, first)) == int(mo.pick(picked_moves, picked_scores, 0, count))
    assert list(taken_moves) == list(picked_moves) and list(taken_scores) == list(picked_scores)
