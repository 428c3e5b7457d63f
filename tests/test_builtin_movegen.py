"""The built-in engine's own move generator against the course referee's vectors and pyffish."""
from __future__ import annotations

import json
import random

import pytest
from datafiles import COURSE_VECTORS

from xqdesk.engines.builtin.position import Position, decode_move
from xqdesk.fen import STARTING_FEN, format_fen, parse_fen
from xqdesk.squares import from_course, square_name, to_course

pytestmark = pytest.mark.engines

VECTORS = COURSE_VECTORS


def _position_from_course(board: list[list[int]], side: str) -> Position:
    codes = [0] * 90
    for x in range(10):
        for y in range(9):
            codes[from_course(x, y)] = board[x][y]
    return Position(codes, side == "red")


def _course_action(move: int) -> tuple[int, int, int, int]:
    origin, target = decode_move(move)
    return to_course(origin) + to_course(target)


def _fsf_name(move: int) -> str:
    """pyffish writes ranks 1..10."""
    origin, target = decode_move(move)
    return "".join(name[0] + str(int(name[1:]) + 1) for name in (square_name(origin), square_name(target)))


@pytest.mark.parametrize("depth, expected", [(1, 44), (2, 1920), (3, 79666)])
def test_perft_of_the_starting_position(depth: int, expected: int) -> None:
    fields = parse_fen(STARTING_FEN)
    assert Position(fields.codes, fields.turn).perft(depth) == expected


def test_legal_moves_match_the_course_referee_vectors() -> None:
    checked = 0
    with VECTORS.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            vector = json.loads(line)
            position = _position_from_course(vector["board"], vector["side"])
            ours = sorted(_course_action(move) for move in position.legal_moves())
            # The referee removes perpetual-check moves using the history; our generator does not.
            referee = sorted(tuple(action) for action in vector["legal"] + vector["banned"])
            assert ours == referee, f"vector line {number}: side {vector['side']}"
            checked += 1
    assert checked > 1000


def test_legal_moves_match_pyffish_in_random_games() -> None:
    sf = pytest.importorskip("pyffish")
    rng = random.Random(20231011)
    positions = 0
    for _game in range(12):
        fields = parse_fen(STARTING_FEN)
        position = Position(fields.codes, fields.turn)
        for _ply in range(150):
            fen = format_fen(position.codes(), position.red_to_move, 0, 1)
            ours = position.legal_moves()
            assert sorted(_fsf_name(m) for m in ours) == sorted(sf.legal_moves("xiangqi", fen, [])), fen
            assert position.is_check() == sf.gives_check("xiangqi", fen, []), fen
            positions += 1
            if not ours:
                break
            captures = [m for m in ours if position.board[m & 127] != 0]
            position.push(rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(ours))
    assert positions > 500


def test_incremental_key_and_score_equal_a_fresh_build() -> None:
    rng = random.Random(7)
    fields = parse_fen(STARTING_FEN)
    position = Position(fields.codes, fields.turn)
    for _ply in range(80):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
        fresh = Position(position.codes(), position.red_to_move, params=position.params)  # the root's phase
        assert position.key == fresh.key
        assert position.evaluate() == fresh.evaluate()
