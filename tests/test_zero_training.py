"""The training pipeline from scratch, small: supervised epochs on a few master games, then one
self-play iteration with its arena and log. Skipped where torch is not installed."""
import csv

import numpy as np
import pytest

from datafiles import GAMES
from xqdesk.engines.zero.dataset import read_positions
from xqdesk.engines.zero.network import Network

torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'xqdesk[train]')")

MASTER_GAMES = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def test_positions_carry_the_move_played_and_the_result_from_the_movers_view():
    positions = read_positions([MASTER_GAMES], limit_games=3)
    assert set(positions.game.tolist()) == {0, 1, 2}
    first = positions.subset(positions.game == 0)
    assert (first.value[::2] == -first.value[1::2][:len(first.value[::2])]).all() if len(first) % 2 == 0 else True
    mirrored = positions.with_mirrors()
    assert len(mirrored) == 2 * len(positions)
    assert (mirrored.codes[len(positions):] != positions.codes).any()


def test_supervised_then_one_selfplay_iteration_from_scratch(tmp_path):
    from xqdesk.engines.zero.selfplay import SelfPlayConfig, run_selfplay
    from xqdesk.engines.zero.supervised import train_supervised

    torch.set_num_threads(1)
    positions = read_positions([MASTER_GAMES], limit_games=6)
    reports = []
    net = tmp_path / "tiny.npz"
    train_supervised(positions, net, epochs=2, channels=8, blocks=1, hidden=16, holdout=3, batch=64,
                     report=reports.append)
    assert [r.epoch for r in reports] == [1, 2]
    assert 0.0 <= reports[-1].heldout_accuracy <= 1.0 and np.isfinite(reports[-1].heldout_value_loss)
    assert reports[-1].train_policy_loss < np.log(2086)  # it learnt something about legal-looking moves
    assert Network.load(net).channels == 8 and net.with_suffix(".pt").is_file()

    out = tmp_path / "selfplay"
    rows = run_selfplay(net, out, 1, SelfPlayConfig(games=2, simulations=4, max_plies=16, workers=1,
                                                    arena_games=2, gate=0.55, seed=1), report=lambda line: None)
    assert len(rows) == 1 and rows[0]["positions"] == 32
    with open(out / "log.csv", newline="") as handle:
        logged = list(csv.DictReader(handle))
    assert logged[0]["iteration"] == "1" and float(logged[0]["arena_score"]) in (0.0, 0.25, 0.5, 0.75, 1.0)
    assert (out / "iter_1.npz").is_file() and (out / "best.npz").is_file()
    assert Network.load(out / "best.npz").blocks == 1


def test_supervised_training_takes_teacher_positions_beside_the_games(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from xqdesk.engines.zero.distill import TeacherConfig, teacher_positions

    data = tmp_path / "teacher.npz"
    teacher_positions(TeacherConfig(games=2, nodes=100, max_plies=20, seed=2, first_game_number=10_000)).save(data)
    net = tmp_path / "net.npz"
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "supervised", "--games", str(MASTER_GAMES),
                           "--limit-games", "3", "--positions", str(data), "--out", str(net), "--epochs", "1",
                           "--channels", "8", "--blocks", "1", "--hidden", "16", "--holdout", "2"],
                          capture_output=True, text=True, timeout=600, cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    assert "teacher positions from 2 games" in done.stdout and "epoch 1:" in done.stdout
    assert Network.load(net).channels == 8
