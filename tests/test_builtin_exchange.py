"""The built-in engine's static exchange evaluation and square attacks (``exchange_kernel``)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin import exchange_kernel as ek
from xqdesk.engines.builtin.board_kernel import MAX_MOVES, generate_moves
from xqdesk.engines.builtin.position import encode_move
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN
from xqdesk.squares import parse_square

pytestmark = pytest.mark.engines

RED, BLACK = 1, -1


def _board(pieces: dict[str, int]) -> np.ndarray:
    """A board with ``pieces`` by square name, and the kings on d0 and f9 (off each other's file)
    unless ``pieces`` places them."""
    board = np.zeros(90, np.int8)
    codes = set(pieces.values())
    if KING not in codes:
        board[parse_square("d0")] = KING
    if -KING not in codes:
        board[parse_square("f9")] = -KING
    for name, code in pieces.items():
        board[parse_square(name)] = code
    return board


def _see(board: np.ndarray, move: str) -> int:
    before = board.copy()
    value = int(ek.static_exchange(board, encode_move(parse_square(move[:2]), parse_square(move[2:]))))
    assert np.array_equal(board, before), "the board must be left as it was"
    return value


@pytest.mark.parametrize("pieces, move, expected", [
    # a chariot takes a pawn the enemy chariot guards: it loses the chariot for the pawn
    ({"a0": CHARIOT, "a5": -PAWN, "a9": -CHARIOT}, "a0a5", 100 - 1000),
    # the same with a second chariot behind: the guard no longer recaptures (x-ray)
    ({"a0": CHARIOT, "a1": CHARIOT, "a5": -PAWN, "a9": -CHARIOT}, "a1a5", 100),
    # an unguarded horse
    ({"a0": CHARIOT, "a5": -HORSE}, "a0a5", 400),
    # a cannon over its screen takes a horse a pawn guards
    ({"a0": CANNON, "a3": PAWN, "a6": -HORSE, "a7": -PAWN}, "a0a6", 400 - 450),
    # a crossed pawn takes a horse guarded along the rank by a chariot
    ({"e5": PAWN, "e6": -HORSE, "b6": -CHARIOT}, "e5e6", 400 - 100),
    # a pawn for a pawn ...
    ({"e4": HORSE, "e5": PAWN, "e6": -PAWN, "h6": -CHARIOT}, "e5e6", 0),
    # ... but the capture leaves a cannon one screen (the horse) from the target: no recapture
    ({"e2": CANNON, "e4": HORSE, "e5": PAWN, "e6": -PAWN, "h6": -CHARIOT}, "e5e6", 100),
    # the king guards its advisor, but only while nothing recaptures after it
    ({"e3": CHARIOT, "e8": -ADVISOR, "e9": -KING}, "e3e8", 200 - 1000),
    ({"e2": CHARIOT, "e1": CHARIOT, "e8": -ADVISOR, "e9": -KING}, "e2e8", 200),
])
def test_static_exchange_of_known_positions(pieces: dict[str, int], move: str, expected: int) -> None:
    board = _board(pieces)
    assert _see(board, move) == expected
    assert bool(ek.loses_material(board, encode_move(parse_square(move[:2]), parse_square(move[2:])))) == (expected < 0)


def _random_boards(count: int, seed: int) -> list[np.ndarray]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = Board()
        for _ in range(rng.randrange(10, 120)):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            captures = [m for m in moves if board.code_at(m.to_square) != 0]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        boards.append(np.array([board.code_at(sq) for sq in range(90)], np.int8))
    return boards


def test_the_least_valuable_attacker_is_the_cheapest_piece_that_could_capture_there() -> None:
    moves = np.zeros(MAX_MOVES, np.int64)
    checked = 0
    for board in _random_boards(40, 7):
        for side in (RED, BLACK):
            for sq in range(90):
                if board[sq] * side > 0 or abs(int(board[sq])) == KING:
                    continue
                original = board[sq]
                if original == 0:
                    board[sq] = -side * PAWN  # something to capture (it blocks no move *to* sq)
                count = generate_moves(board, side, moves, True)
                origins = [int(move) >> 7 for move in moves[:count] if int(move) & 127 == sq]
                attacker = int(ek.least_valuable_attacker(board, sq, side))
                attacked = bool(ek.is_attacked(board, sq, side))
                board[sq] = original
                assert attacked == bool(origins)
                if not origins:
                    assert attacker == -1
                    continue
                assert attacker in origins
                cheapest = min(ek.EXCHANGE_VALUE[abs(int(board[o]))] for o in origins)
                assert ek.EXCHANGE_VALUE[abs(int(board[attacker]))] == cheapest
                checked += 1
    assert checked > 1000


def test_a_capture_of_an_unguarded_piece_wins_its_value() -> None:
    moves = np.zeros(MAX_MOVES, np.int64)
    for board in _random_boards(30, 11):
        for side in (RED, BLACK):
            count = generate_moves(board, side, moves, True)
            for move in moves[:count]:
                target = int(move) & 127
                origin = int(move) >> 7
                mover = board[origin]
                board[origin] = 0
                guarded = bool(ek.is_attacked(board, target, -side))
                board[origin] = mover
                value = int(ek.static_exchange(board, int(move)))
                victim = ek.EXCHANGE_VALUE[abs(int(board[target]))]
                if not guarded:
                    assert value == victim
                else:
                    assert value <= victim
                    assert value >= victim - ek.EXCHANGE_VALUE[abs(int(mover))]


@pytest.mark.parametrize("pieces, square, expected", [
    ({"e5": HORSE, "e9": -CHARIOT, "d9": -KING}, "e5", True),                 # attacked, unguarded
    ({"e5": HORSE, "e4": PAWN, "e9": -CHARIOT, "d9": -KING}, "e5", False),    # guarded against a chariot
    ({"e5": CHARIOT, "e4": PAWN, "d7": -HORSE}, "e5", True),                  # guarded, but a horse takes a chariot
    ({"e5": -HORSE, "a5": CHARIOT}, "e5", True),                              # Black's piece, Red's chariot
])
def test_a_piece_is_en_prise_when_taking_it_wins_material(pieces: dict[str, int], square: str, expected: bool) -> None:
    board = _board(pieces)
    before = board.copy()
    assert bool(ek.is_en_prise(board, parse_square(square))) == expected
    assert np.array_equal(board, before)


def test_every_direct_check_lands_on_a_check_square_of_its_piece() -> None:
    from xqdesk.engines.builtin.board_kernel import is_attacked_king

    moves = np.zeros(MAX_MOVES, np.int64)
    kinds = {CHARIOT: 0, CANNON: 1, HORSE: 2, PAWN: 3}
    direct = 0
    for board in _random_boards(60, 3):
        kings = {1: int(np.flatnonzero(board == KING)[0]), -1: int(np.flatnonzero(board == -KING)[0])}
        for side in (RED, BLACK):
            if is_attacked_king(board, -side, kings[-side]):
                continue  # as in a search: the side to move never already gives check
            masks = ek.check_squares(board, kings[-side], side)
            count = generate_moves(board, side, moves, False)
            for move in moves[:count]:
                origin, target = int(move) >> 7, int(move) & 127
                piece = int(board[origin])
                if board[target] != 0 or abs(piece) not in kinds:
                    continue
                board[target], board[origin] = piece, 0
                check = bool(is_attacked_king(board, -side, kings[-side]))
                board[target] = side * ELEPHANT  # the same screen or blocker, but attacking nothing there
                without_it = bool(is_attacked_king(board, -side, kings[-side]))
                board[target], board[origin] = 0, piece
                if check and not without_it:  # the moved piece gives the check itself
                    assert ek.in_mask(masks[kinds[abs(piece)]], target), (move, board.tolist())
                    direct += 1
    assert direct > 20
