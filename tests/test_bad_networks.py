"""A network file that cannot be used is refused where it was asked for, with a message naming the
file and the problem: on the command line (an error exit) and in the window (the engine fails to
start, saying why). Never does the engine play on with some other evaluation."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hang_guard import HANG_GUARD, HANG_GUARD_MS

from xqdesk.engines.builtin import nnue
from xqdesk.engines.errors import NetworkFileError
from xqdesk.engines.registry import EngineKind, EngineProfile
from xqdesk.engines.transport.uci import network_file_problem
from xqdesk.engines.zero import network as zero_network
from xqdesk.engines.zero.network import Network, array_shapes
from xqdesk.errors import InputError
from xqdesk.ui.analysis.engine_panel import EnginePanel

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]


def xqdesk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=HANG_GUARD)


def zero_arrays(channels: int = 4, blocks: int = 1, hidden: int = 8) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {name: rng.normal(0, 0.3, shape).astype(np.float32)
            for name, shape in array_shapes(channels, blocks, hidden).items()}


def save_zero(path: Path, arrays: dict[str, np.ndarray], channels: int = 4, blocks: int = 1, hidden: int = 8) -> Path:
    np.savez(path, format=np.int64(1), channels=np.int64(channels), blocks=np.int64(blocks), hidden=np.int64(hidden),
             **arrays)
    return path


def nan_zero_network(folder: Path) -> Path:
    arrays = zero_arrays()
    arrays["value.fc2.w"][:] = np.nan
    return save_zero(folder / "diverged.npz", arrays)


def test_one_network_file_error_for_both_learning_engines() -> None:
    assert nnue.NetworkFileError is zero_network.NetworkFileError is NetworkFileError
    assert issubclass(NetworkFileError, InputError)


def test_a_zero_network_that_is_not_finite_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NetworkFileError, match=r"diverged\.npz.*'value\.fc2\.w' are not finite"):
        Network.load(nan_zero_network(tmp_path))
    arrays = zero_arrays()
    arrays["stem.b"][1] = np.inf
    with pytest.raises(NetworkFileError, match="1 of the 4 values of network array 'stem.b' are not finite"):
        Network.load(save_zero(tmp_path / "infinite.npz", arrays))


def test_a_zero_network_of_the_wrong_types_or_sizes_is_refused(tmp_path: Path) -> None:
    arrays = zero_arrays()
    arrays["stem.b"] = np.array(["a", "b", "c", "d"])
    with pytest.raises(NetworkFileError, match="'stem.b' holds <U1, not numbers"):
        Network.load(save_zero(tmp_path / "text.npz", arrays))
    with pytest.raises(NetworkFileError, match="'channels' must be from 1 to 1024, got 0"):
        Network.load(save_zero(tmp_path / "empty.npz", zero_arrays(0, 1, 8), channels=0))
    path = tmp_path / "sizes.npz"
    np.savez(path, format=np.int64(1), channels=np.float64(4.5), blocks=np.int64(1), hidden=np.int64(8), **zero_arrays())
    with pytest.raises(NetworkFileError, match="'channels' must be one whole number"):
        Network.load(path)
    good = save_zero(tmp_path / "good.npz", zero_arrays())
    assert Network.load(good).channels == 4
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(good.read_bytes()[:3000])
    with pytest.raises(NetworkFileError, match="truncated.npz"):
        Network.load(truncated)


@pytest.mark.parametrize("spec", ["builtin:Eval=network,EvalFile={bad}", "builtin:EvalFile={bad},Eval=network",
                                  "builtin:EvalFile={bad}"])
def test_the_command_line_refuses_a_bad_builtin_network(tmp_path: Path, spec: str) -> None:
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"this is no network")
    done = xqdesk("analyse", "--engine", spec.format(bad=bad), "--depth", "1")
    assert done.returncode == 2, done.stdout
    assert "EvalFile" in done.stderr and f"'{bad}': it is not a readable .npz file" in done.stderr
    assert "Best move" not in done.stdout


def test_a_match_refuses_a_zero_network_full_of_nan(tmp_path: Path) -> None:
    diverged = nan_zero_network(tmp_path)
    done = xqdesk("match", "--red", f"zero:Network={diverged}", "--black", "random", "--games", "1",
                  "--movetime", "0.2")
    assert done.returncode == 2, done.stdout
    assert "Network" in done.stderr and "diverged.npz" in done.stderr and "not finite" in done.stderr
    assert "Game 1" not in done.stdout  # no game was played with some other evaluation


def test_the_zero_engines_hint_names_its_own_option() -> None:
    lines = ["info string error: zero: cannot read network file 'x.npz': it is not a .npz network"]
    hint = network_file_problem(lines, ["Network", "Simulations"])
    assert hint is not None and "Network option" in hint and ".nnue" not in hint and "EvalFile" not in hint
    pikafish = network_file_problem(["info string ERROR: The network file pikafish.nnue was not loaded."],
                                    ["EvalFile", "Hash"])
    assert pikafish is not None and "EvalFile" in pikafish and ".nnue" in pikafish


def test_the_window_says_why_an_engine_with_a_bad_network_cannot_start(qtbot, tmp_path: Path) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    diverged = nan_zero_network(tmp_path)
    try:
        panel.set_engines([EngineProfile("learner", EngineKind.ZERO, options=(("Network", str(diverged)),)).to_spec()])
        qtbot.waitUntil(lambda: "diverged.npz" in panel.views[0].state_label.text(), timeout=HANG_GUARD_MS)
        assert "not finite" in panel.views[0].state_label.text()
        panel.start_analysis()
        assert not panel.is_analysing()
    finally:
        panel.shutdown()
