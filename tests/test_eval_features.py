"""The built-in evaluation is exactly features · weight vector, and the weights file round-trips."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin.eval_features import (FEATURE_COUNT, HALF_FILES, features, reachable, slot,
                                                  weights_from_vector, weights_vector)
from xqdesk.engines.builtin.eval_tables import WEIGHTS, build_params, read_weights
from xqdesk.engines.builtin.position import Position
from xqdesk.errors import XqdeskError
from xqdesk.formats import read_games
from xqdesk.pieces import PIECE_TYPES, RED

GAMES = Path(__file__).parent / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def game_and_random_positions() -> list[tuple[list[int], bool]]:
    """Every 3rd position of 30 master games, and positions after random captures-rich play (material
    imbalances, bare palaces, kings on open files), both sides to move."""
    positions = []
    for game in read_games(GAMES).games[:30]:
        board = game.start_board()
        for ply, move in enumerate(game.mainline_moves()):
            if ply % 3 == 0:
                positions.append(([board.code_at(sq) for sq in range(90)], board.turn == RED))
            board.push(move)
    rng = random.Random(7)
    for _ in range(40):
        board = Board()
        for _ in range(rng.randrange(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.code_at(m.to_square) != 0]
            board.push(rng.choice(captures if captures and rng.random() < 0.7 else moves))
            positions.append(([board.code_at(sq) for sq in range(90)], board.turn == RED))
    return positions


def test_evaluation_is_features_dot_weights() -> None:
    vector = weights_vector(WEIGHTS)
    unreachable = [slot(t, r, f) for t in PIECE_TYPES for r in range(10) for f in range(HALF_FILES)
                   if not reachable(t, r, f)]
    assert len(unreachable) == 19 + 47 + 46 + 44  # pawn, advisor, elephant, king (half-board slots)
    positions = game_and_random_positions()
    assert sum(not red for _, red in positions) > 500
    for codes, red_to_move in positions:
        expected = Position(codes, red_to_move).evaluate()
        found = features(np.array(codes, np.int8), 1 if red_to_move else -1)
        assert found @ vector == expected, (codes, red_to_move)
        assert not found[unreachable].any()


def test_other_weights_give_the_same_equality() -> None:
    rng = np.random.default_rng(3)
    vector = weights_vector(WEIGHTS) + rng.integers(-30, 30, FEATURE_COUNT)
    other = weights_from_vector(vector, WEIGHTS.piece_values)
    params = build_params(base=other)
    vector = weights_vector(other)
    for codes, red_to_move in game_and_random_positions()[::7]:
        expected = Position(codes, red_to_move, params=params).evaluate()
        assert features(np.array(codes, np.int8), 1 if red_to_move else -1) @ vector == expected


def test_weights_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    WEIGHTS.write(path)
    again = read_weights(path)
    assert np.array_equal(build_params(base=again), build_params())
    again = weights_from_vector(weights_vector(WEIGHTS), WEIGHTS.piece_values)
    assert np.array_equal(build_params(base=again), build_params())


@pytest.mark.parametrize("text, message", [
    ("{", "cannot read"),
    ('{"piece_values": {}, "tables": {}, "terms": {}}', "piece_values.pawn"),
])
def test_bad_weights_files_are_reported(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "weights.json"
    path.write_text(text)
    with pytest.raises(XqdeskError, match=message):
        read_weights(path)


def test_an_asymmetric_table_is_reported(tmp_path: Path) -> None:
    data = WEIGHTS.to_json()
    data["tables"]["horse"][3][0] += 5
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data))
    with pytest.raises(XqdeskError, match="horse row 3 is not symmetric"):
        read_weights(path)
