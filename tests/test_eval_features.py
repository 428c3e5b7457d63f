"""The built-in evaluation is exactly features · weight vector, and the weights file round-trips."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin.eval_features import (
    FEATURE_COUNT,
    HALF_FILES,
    features,
    phased_weights_from_vector,
    phased_weights_vector,
    reachable,
    slot,
    weights_vector,
)
from xqdesk.engines.builtin.eval_tables import (
    FULL_MATERIAL,
    SHIPPED_PARAMS,
    WEIGHTS,
    ParamsByPhase,
    build_params,
    midgame_share,
    phase_material,
    read_weights,
)
from xqdesk.engines.builtin.position import Position
from xqdesk.errors import XqdeskError
from xqdesk.formats import read_games
from xqdesk.pieces import PIECE_TYPES, RED

pytestmark = pytest.mark.engines

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


def test_evaluation_is_features_dot_weights_blended_for_the_phase() -> None:
    unreachable = [slot(t, r, f) for t in PIECE_TYPES for r in range(10) for f in range(HALF_FILES)
                   if not reachable(t, r, f)]
    assert len(unreachable) == 19 + 47 + 46 + 44  # pawn, advisor, elephant, king (half-board slots)
    positions = game_and_random_positions()
    assert sum(not red for _, red in positions) > 500
    phases = set()
    for codes, red_to_move in positions:
        share = midgame_share(phase_material(codes))
        phases.add(phase_material(codes))
        expected = Position(codes, red_to_move).evaluate()
        found = features(np.array(codes, np.int8), 1 if red_to_move else -1)
        assert found @ weights_vector(WEIGHTS.at(share)) == expected, (codes, red_to_move)
        assert not found[unreachable].any()
    assert len(phases) > 30


def test_other_weights_give_the_same_equality_and_the_phased_features_are_linear() -> None:
    rng = np.random.default_rng(3)
    vector = phased_weights_vector(WEIGHTS) + rng.integers(-30, 30, 2 * FEATURE_COUNT)
    other = phased_weights_from_vector(vector, WEIGHTS.midgame.piece_values, WEIGHTS.endgame.piece_values)
    by_phase = ParamsByPhase(other)
    vector = phased_weights_vector(other)
    for codes, red_to_move in game_and_random_positions()[::7]:
        material = phase_material(codes)
        share = midgame_share(material)
        expected = Position(codes, red_to_move, params=by_phase.for_material(material)).evaluate()
        single = features(np.array(codes, np.int8), 1 if red_to_move else -1)
        assert single @ weights_vector(other.at(share)) == expected
        phased = np.concatenate([share * single, (1 - share) * single])
        # the blend rounds each weight: at most half a centipawn per unit of feature
        assert abs(phased @ vector - expected) <= 0.5 * np.abs(single).sum() + 1e-6


def test_the_phase_runs_from_the_whole_middlegame_to_the_bare_endgame() -> None:
    assert phase_material(Board().code_at(sq) for sq in range(90)) == FULL_MATERIAL == 66
    assert midgame_share(FULL_MATERIAL) == 1.0 and midgame_share(0) == 0.0
    shares = [midgame_share(m) for m in range(FULL_MATERIAL + 1)]
    assert shares == sorted(shares) and midgame_share(FULL_MATERIAL // 2) == 0.75
    assert WEIGHTS.at(1.0).to_json() == WEIGHTS.midgame.to_json()
    assert WEIGHTS.at(0.0).to_json() == WEIGHTS.endgame.to_json()
    assert SHIPPED_PARAMS.for_material(10) is SHIPPED_PARAMS.for_material(10)  # made once


def test_weights_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    WEIGHTS.write(path)
    again = read_weights(path)
    for share in (0.0, 0.4, 1.0):
        assert np.array_equal(build_params(again.at(share)), build_params(WEIGHTS.at(share)))
    again = phased_weights_from_vector(phased_weights_vector(WEIGHTS), WEIGHTS.midgame.piece_values,
                                       WEIGHTS.endgame.piece_values)
    assert again.midgame.to_json() == WEIGHTS.midgame.to_json()
    assert again.endgame.to_json() == WEIGHTS.endgame.to_json()


@pytest.mark.parametrize("text, message", [
    ("{", "cannot read"),
    ('{"piece_values": {}, "tables": {}, "terms": {}}', "midgame and endgame"),
    ('{"midgame": {"piece_values": {}, "tables": {}, "terms": {}}, "endgame": {}}', "midgame.piece_values.pawn"),
])
def test_bad_weights_files_are_reported(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "weights.json"
    path.write_text(text)
    with pytest.raises(XqdeskError, match=message):
        read_weights(path)


def test_an_asymmetric_table_is_reported(tmp_path: Path) -> None:
    data = {"midgame": WEIGHTS.midgame.to_json(), "endgame": WEIGHTS.endgame.to_json()}
    data["endgame"]["tables"]["horse"][3][0] += 5
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data))
    with pytest.raises(XqdeskError, match="endgame.tables.horse row 3 is not symmetric"):
        read_weights(path)


@pytest.mark.parametrize("fen, feature", [
    ("4k4/9/4n4/9/9/9/4R4/9/9/3K5 w", "F_CHARIOT_PIN"),   # chariot, horse, king on one file
    ("4k4/9/9/4n4/9/9/4P4/9/4C4/3K5 w", "F_CANNON_PIN"),  # cannon, screen, horse, king
    ("C3k4/9/9/9/9/9/9/9/9/3K5 w", "F_BOTTOM_CANNON"),   # cannon on the back rank facing the king
    ("4k4/9/9/9/9/9/9/9/C8/NR1K5 w", "F_TRAPPED_HORSE"),  # both legs of the corner horse blocked
    ("3k5/9/6N2/9/9/9/9/9/9/4K4 w", "F_PALACE_ATTACKER"),  # a horse in front of the palace
    ("3k5/9/4P1N2/9/9/9/9/9/9/4K4 w", "F_PALACE_ATTACK_PAIRS"),  # a horse and a pawn there together
])
def test_each_knowledge_term_counts_what_it_names(fen: str, feature: str) -> None:
    from xqdesk.engines.builtin import eval_features
    index = getattr(eval_features, feature)
    board = Board(fen + " - - 0 1")
    codes = np.array([board.code_at(sq) for sq in range(90)], np.int8)
    assert features(codes, 1)[index] == 1 and features(codes, -1)[index] == -1
    assert features(-codes[::-1].copy(), -1)[index] == 1  # the same turned round, for Black
