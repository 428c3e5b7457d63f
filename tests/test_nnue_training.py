"""Training the built-in engine's evaluation network (``xqdesk train nnue``) on real labelled
positions (Fairy-Stockfish at depth 7 on master games, ``tests/data/labelled_sample``): the file it
writes loads and matches the float network, runs are reproducible, the scale fit and the quiet
filter do what they say. Skipped where torch is not installed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xqdesk.engines.builtin.nnue import Network
from xqdesk.engines.training.shards import ShardReader

torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'xqdesk[train]')")

from xqdesk.engines.training.nnue_training import (  # noqa: E402
    TrainingConfig,
    TrainingError,
    fit_scale,
    mirrored_boards,
    quiet_positions,
    targets,
    train_network,
)

pytestmark = pytest.mark.engines

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "tests" / "data" / "labelled_sample"
SMALL = TrainingConfig(accumulator=16, epochs=2, batch_size=256, seed=3)


def test_training_writes_a_network_that_matches_its_float_weights_and_repeats_exactly(tmp_path: Path) -> None:
    lines: list[str] = []
    first = train_network([SAMPLE], tmp_path / "a.npz", SMALL, report=lines.append)
    assert any(line.startswith("fitted K = ") and "training with K = 1000" in line for line in lines)
    epochs = [line for line in lines if line.startswith("epoch ")]
    assert len(epochs) == 2 and all("held-out loss" in line for line in epochs)
    check = next(line for line in lines if line.startswith("quantised vs float"))
    assert "mean |difference|" in check
    loaded = Network.load(tmp_path / "a.npz")
    assert loaded.accumulator == 16 and loaded.hidden == 0 and "accumulator 16" in loaded.description
    assert (tmp_path / "a.pt").is_file()
    again = train_network([SAMPLE], tmp_path / "b.npz", SMALL, report=lambda line: None)
    assert np.array_equal(again.ft_weights, first.ft_weights) and np.array_equal(again.out_weights, first.out_weights)
    assert again.cp_scale == first.cp_scale == 1000.0
    fitted_lines: list[str] = []
    fitted = train_network([SAMPLE], tmp_path / "c.npz", TrainingConfig(accumulator=16, epochs=1, batch_size=256,
                                                                        scale=None), report=fitted_lines.append)
    line = next(line for line in fitted_lines if line.startswith("fitted K = "))
    assert line.endswith("using it") and f"fitted K = {fitted.cp_scale:.0f} cp" in line and fitted.cp_scale != 1000.0


def test_a_hidden_layer_trains_from_a_checkpoint(tmp_path: Path) -> None:
    config = TrainingConfig(accumulator=16, hidden=4, epochs=1, batch_size=256, scale=250.0)
    train_network([SAMPLE], tmp_path / "h.npz", config, report=lambda line: None)
    network = train_network([SAMPLE], tmp_path / "h2.npz", config, init=tmp_path / "h.pt", report=lambda line: None)
    assert network.hidden == 4 and network.cp_scale == 250.0
    with pytest.raises(TrainingError, match="accumulator 16 and hidden 4"):
        train_network([SAMPLE], tmp_path / "x.npz", TrainingConfig(accumulator=32, epochs=1), init=tmp_path / "h.pt",
                      report=lambda line: None)


def test_the_quiet_filter_drops_checks_and_captures() -> None:
    data = ShardReader(SAMPLE).all()
    quiet = quiet_positions(data)
    assert 0 < len(quiet) < len(data)
    assert not quiet["in_check"].any()
    best = quiet["moves"][:, 0].astype(np.int64)
    assert (best >= 0).all() and (quiet["board"][np.arange(len(quiet)), best % 90] == 0).all()
    dropped = data.take(~np.isin(data["key"], quiet["key"]))
    target = np.maximum(dropped["moves"][:, 0].astype(np.int64), 0) % 90
    assert (dropped["in_check"] | (dropped["moves"][:, 0] < 0)
            | (dropped["board"][np.arange(len(dropped)), target] != 0)).all()


def test_the_scale_fit_finds_the_scale_results_were_drawn_with() -> None:
    rng = np.random.default_rng(0)
    score = rng.normal(0, 400, 100_000).round().astype(np.int16)
    win = rng.random(len(score)) < 1 / (1 + np.exp(-score / 300.0))
    from xqdesk.engines.training.shards import Labelled
    positions = Labelled({"score": score, "result": np.where(win, 1, -1).astype(np.int8)})
    assert abs(fit_scale(positions) - 300) <= 20


def test_targets_blend_the_score_and_the_result_and_saturate_on_mates() -> None:
    score = np.array([0, 0, 29990, -29990], np.int16)
    result = np.array([1, -1, 0, 0], np.int8)
    blended = targets(score, result, 200.0, 0.75)
    assert np.allclose(blended, [0.75 * 0.5 + 0.25, 0.75 * 0.5, 0.75 + 0.125, 0.125])


def test_mirroring_swaps_the_files() -> None:
    board = np.zeros((1, 90), np.int8)
    board[0, 1] = 4  # a red horse on b0
    assert mirrored_boards(board)[0, 7] == 4 and mirrored_boards(board)[0, 1] == 0


def test_the_command_names_what_is_wrong(tmp_path: Path) -> None:
    missing = subprocess.run([sys.executable, "-m", "xqdesk", "train", "nnue", "--data", str(tmp_path / "none"),
                              "--out", str(tmp_path / "n.npz")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert missing.returncode == 1 and "xqdesk train nnue:" in missing.stderr and "none" in missing.stderr
    sizes = subprocess.run([sys.executable, "-m", "xqdesk", "train", "nnue", "--data", str(SAMPLE), "--out",
                            str(tmp_path / "n.npz"), "--accumulator", "0"], capture_output=True, text=True,
                           timeout=300, cwd=ROOT)
    assert sizes.returncode == 1 and "accumulator must have 1 to 1024" in sizes.stderr
    scale = subprocess.run([sys.executable, "-m", "xqdesk", "train", "nnue", "--data", str(SAMPLE), "--out",
                            str(tmp_path / "n.npz"), "--scale", "large"], capture_output=True, text=True,
                           timeout=300, cwd=ROOT)
    assert scale.returncode == 2 and "--scale takes a number of centipawns or 'fit'" in scale.stderr
    if not torch.cuda.is_available():
        gpu = subprocess.run([sys.executable, "-m", "xqdesk", "train", "nnue", "--data", str(SAMPLE), "--out",
                              str(tmp_path / "n.npz"), "--device", "cuda"], capture_output=True, text=True,
                             timeout=300, cwd=ROOT)
        assert gpu.returncode == 2 and "no GPU" in gpu.stderr
