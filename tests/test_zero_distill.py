"""Teacher positions for the zero network (``xqdesk train distill``): games around the built-in engine,
each position labelled by its search. Needs no torch."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin.position import Position, encode_move
from xqdesk.engines.zero.dataset import Positions
from xqdesk.engines.zero.distill import Teacher, TeacherConfig, play_teacher_game, teacher_positions
from xqdesk.engines.zero.encoding import POLICY_INDEX
from xqdesk.move import Move

ROOT = Path(__file__).parent.parent
MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
HANGING_CHARIOT = "4k4/9/9/9/4r4/9/9/4R4/9/3K5 w - - 0 1"


def _kernel_position(fen: str) -> Position:
    board = Board(fen)
    return Position([board.code_at(sq) for sq in range(90)], board.turn)


def test_the_teacher_finds_the_mate_and_the_free_chariot():
    teacher = Teacher(nodes=2000)
    position = _kernel_position(MATE_IN_ONE)
    move, value = teacher.search(position, position.legal_moves())
    board = Board(MATE_IN_ONE)
    board.push(Move(move >> 7, move & 127))
    assert not board.legal_moves and value == 1.0
    position = _kernel_position(HANGING_CHARIOT)
    move, value = teacher.search(position, position.legal_moves())
    take = Move.from_iccs("e2e5")
    assert move == encode_move(take.from_square, take.to_square) and value > 0.5


def test_every_label_is_a_legal_move_of_its_position_and_values_are_in_range():
    config = TeacherConfig(games=3, nodes=200, opening_plies=4, max_plies=40, seed=3, first_game_number=500)
    positions = teacher_positions(config)
    assert len(positions) > 0 and set(positions.game.tolist()) <= {500, 501, 502}
    assert ((positions.value >= -1) & (positions.value <= 1)).all()
    for codes, entry in zip(positions.codes, positions.policy):
        position = Position([int(c) for c in codes], True)  # mover-frame: the mover plays Red
        legal = {int(POLICY_INDEX[(m >> 7) * 90 + (m & 127)]) for m in position.legal_moves()}
        assert int(entry) in legal


def test_with_no_score_weight_the_value_is_the_result_from_the_movers_view():
    config = TeacherConfig(games=1, nodes=200, max_plies=60, score_weight=0.0, movers=(1.0, 0.0, 0.0), seed=4)
    teacher = Teacher(config.nodes)
    positions, red_result, kinds = play_teacher_game(teacher, config, np.random.default_rng(4), 7)
    assert kinds == ("teacher", "teacher")
    assert (positions.value[0::2] == red_result).all() and (positions.value[1::2] == -red_result).all()
    assert (positions.game == 7).all()


def test_positions_files_round_trip_and_bad_files_are_named(tmp_path):
    positions = teacher_positions(TeacherConfig(games=1, nodes=100, max_plies=10, seed=5))
    positions.save(tmp_path / "data.npz")
    back = Positions.load(tmp_path / "data.npz")
    assert (back.codes == positions.codes).all() and (back.policy == positions.policy).all()
    assert (back.value == positions.value).all() and (back.game == positions.game).all()
    (tmp_path / "bad.npz").write_text("not a positions file")
    with pytest.raises(ValueError, match="bad.npz"):
        Positions.load(tmp_path / "bad.npz")


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="epsilon"):
        TeacherConfig(epsilon=2.0)
    with pytest.raises(ValueError, match="movers"):
        TeacherConfig(movers=(0.0, 0.0, 0.0))


def test_the_train_distill_command_writes_a_positions_file(tmp_path):
    out = tmp_path / "teacher.npz"
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "distill", "--out", str(out), "--games", "2",
                           "--nodes", "100", "--max-plies", "12", "--seed", "1"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stdout and len(Positions.load(out)) > 0
    refused = subprocess.run([sys.executable, "-m", "xqdesk", "train", "distill", "--out", str(out),
                              "--epsilon", "3"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert refused.returncode == 2 and "epsilon" in refused.stderr
