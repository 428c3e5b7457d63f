"""The zero network's training from scratch, small: labelled positions made by the pipeline with a
real (built-in) teacher, supervised epochs streamed from the shards, then one self-play iteration
with its arena and log. Skipped where torch is not installed."""
import copy
import csv
import json
import subprocess
import sys

import numpy as np
import pytest
from datafiles import GAMES

from xqdesk.engines.training.pipeline import DataPlan, make_data
from xqdesk.engines.training.shards import MASTER, ShardReader
from xqdesk.engines.training.tasks import LabelSettings
from xqdesk.engines.zero.encoding import POLICY_INDEX, ROTATED_POLICY_INDEX, planes_from_codes
from xqdesk.engines.zero.network import Network

pytestmark = pytest.mark.engines

torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'xqdesk[train]')")

FIFTEEN = GAMES / "notation_15" / "iccs.pgn"


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Six master games and one teacher game labelled by the built-in engine at depth 1."""
    folder = tmp_path_factory.mktemp("labelled")
    plan = DataPlan(LabelSettings("builtin", depth=1, multipv=3), (str(FIFTEEN),), teacher_games=1,
                    games_per_task=8, holdout=3, teacher_options={"max_plies": 30})
    make_data(plan, folder, jobs=1, report=lambda line: None)
    return folder


def test_targets_are_soft_policies_over_the_teachers_lines_and_blended_values(labelled):
    from xqdesk.engines.zero.supervised import Targets, make_batch

    data = ShardReader(labelled).all()
    batch = make_batch(data, Targets(policy_temperature=60, master_weight=0.5, score_weight=0.7))
    assert np.allclose(batch.weights.sum(axis=1), 1.0, atol=1e-5)
    master = (data["source"] == MASTER) & (data["played"] >= 0)
    assert np.allclose(batch.weights[master, -1], 0.5) and (batch.weights[~master, -1] == 0).all()
    assert ((batch.values >= -1) & (batch.values <= 1)).all()
    # the best line's entry is the mover-frame index of the teacher's best move
    row = int(np.flatnonzero(~data["red_to_move"])[0])
    assert batch.entries[row, 0] == ROTATED_POLICY_INDEX[int(data["moves"][row, 0])]
    red_row = int(np.flatnonzero(data["red_to_move"])[0])
    assert batch.entries[red_row, 0] == POLICY_INDEX[int(data["moves"][red_row, 0])]
    assert (batch.codes[row] == -data["board"][row][::-1]).all()
    mirrored = make_batch(data, Targets(), np.ones(len(data), bool))
    assert not np.array_equal(mirrored.codes, batch.codes) and np.allclose(mirrored.weights, batch.weights)


@pytest.fixture(scope="module")
def masters_only(tmp_path_factory):
    """The fifteen games with no teacher: played moves and results only."""
    folder = tmp_path_factory.mktemp("masters")
    make_data(DataPlan(LabelSettings("none", depth=0, multipv=1), (str(FIFTEEN),), holdout=3), folder,
              report=lambda line: None)
    return folder


def test_positions_no_teacher_searched_learn_the_played_move_and_the_result(masters_only):
    from xqdesk.engines.zero.supervised import Targets, make_batch

    data = ShardReader(masters_only).all()
    batch = make_batch(data, Targets(master_weight=0.5, score_weight=0.7), np.ones(len(data), bool))
    played = data["played"] >= 0
    assert np.allclose(batch.weights[played, -1], 1.0) and (batch.weights[played, :-1] == 0).all()
    assert (batch.weights[~played] == 0).all()  # a game's last position: the value only
    assert np.allclose(batch.values, data["result"])
    from xqdesk.engines.zero.encoding import MIRROR_PERMUTATION
    row = int(np.flatnonzero(played & data["red_to_move"])[0])
    assert batch.entries[row, -1] == MIRROR_PERMUTATION[POLICY_INDEX[int(data["played"][row])]] == batch.played[row]


def test_the_policy_learns_among_the_legal_moves_only(masters_only):
    """The loss and the held-out agreement see the legal moves' logits only, mirrored rows too."""
    from xqdesk.board import Board
    from xqdesk.engines.zero.encoding import MIRROR_PERMUTATION, policy_index
    from xqdesk.engines.zero.supervised import Targets, make_batch
    from xqdesk.fen import format_fen
    from xqdesk.pieces import BLACK, RED

    data = ShardReader(masters_only).all().take(np.arange(0, 400, 7))
    mirror = np.arange(len(data)) % 2 == 1
    batch = make_batch(data, Targets(), mirror)
    for row in range(len(data)):
        red = bool(data["red_to_move"][row])
        board = Board(format_fen([int(c) for c in data["board"][row]], RED if red else BLACK, 0, 1))
        expected = {policy_index(m.from_square, m.to_square, red) for m in board.legal_moves}
        if mirror[row]:
            expected = {int(MIRROR_PERMUTATION[entry]) for entry in expected}
        assert set(np.flatnonzero(batch.legal[row]).tolist()) == expected
        if batch.played[row] >= 0:
            assert batch.legal[row, batch.played[row]]


def test_the_command_line_trains_a_pair_head_from_scratch_on_master_games_alone(masters_only, tmp_path):
    root = GAMES.parents[2]
    net = tmp_path / "pair.npz"
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(masters_only),
                           "--out", str(net), "--epochs", "2", "--channels", "8", "--blocks", "1", "--hidden", "16",
                           "--batch", "64", "--policy-head", "pair", "--policy-channels", "8",
                           "--value-channels", "2", "--heldout-positions", "100"],
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "epoch 2:" in done.stdout and "agreement with the masters" in done.stdout
    network = Network.load(net)
    made = json.loads(network.provenance)
    assert network.head.policy == "pair" and network.head.policy_channels == 8
    assert made["network"]["policy"] == "pair" and made["data"][0]["settings"]["teacher"] == "none"
    assert 100 <= made["heldout_positions"] < ShardReader(masters_only, holdout=True).positions


def test_training_from_shards_then_one_selfplay_iteration(labelled, tmp_path):
    from xqdesk.engines.zero.model import ZeroNet
    from xqdesk.engines.zero.selfplay import SelfPlayConfig, run_selfplay
    from xqdesk.engines.zero.supervised import train_from_shards

    torch.set_num_threads(1)
    reports = []
    net = tmp_path / "tiny.npz"
    train_from_shards([labelled], net, 2, ZeroNet(8, 1, 16), batch_size=64, report=reports.append)
    assert [r.epoch for r in reports] == [1, 2]
    assert 0.0 <= reports[-1].heldout_accuracy <= 1.0 and np.isfinite(reports[-1].heldout_value_loss)
    assert reports[-1].train_policy_loss < np.log(2086)  # it learnt something about legal-looking moves
    network = Network.load(net)
    made = json.loads(network.provenance)
    assert network.channels == 8 and net.with_suffix(".pt").is_file()
    assert Network.load(net.with_suffix(".best.npz")).channels == 8
    assert made["epochs"] == 2 and made["data"][0]["settings"]["teacher"] == "builtin"

    out = tmp_path / "selfplay"
    rows = run_selfplay(net, out, 1, SelfPlayConfig(games=2, simulations=4, max_plies=16, workers=1,
                                                    arena_games=2, gate=0.55, seed=1), report=lambda line: None)
    assert len(rows) == 1 and rows[0]["positions"] == 32
    with open(out / "log.csv", newline="") as handle:
        logged = list(csv.DictReader(handle))
    assert logged[0]["iteration"] == "1" and float(logged[0]["arena_score"]) in (0.0, 0.25, 0.5, 0.75, 1.0)
    assert (out / "iter_1.npz").is_file() and (out / "best.npz").is_file()
    assert Network.load(out / "best.npz").blocks == 1


def test_the_command_line_trains_and_refuses_what_is_not_a_data_set(labelled, tmp_path):
    root = GAMES.parents[2]
    net = tmp_path / "net.npz"
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(labelled), "--out", str(net),
                           "--epochs", "1", "--channels", "8", "--blocks", "1", "--hidden", "16", "--batch", "64"],
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "epoch 1:" in done.stdout and "agreement with the masters" in done.stdout
    assert Network.load(net).channels == 8
    refused = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(tmp_path), "--out", str(net)],
                             capture_output=True, text=True, timeout=600, cwd=root)
    assert refused.returncode == 1 and "manifest.json" in refused.stderr


@pytest.mark.parametrize("pair", [False, True], ids=["first-head", "pair-head"])
def test_a_shipped_network_comes_back_into_torch_computing_the_same(pair):
    """``train zero --init NET.npz`` trains on from a shipped network: the torch model made from it
    computes its policy and value, and exports back to the same arrays."""
    from xqdesk.engines.zero.encoding import planes_from_codes
    from xqdesk.engines.zero.model import ZeroNet, export, from_network
    from xqdesk.engines.zero.network import Head

    torch.manual_seed(3)
    original = ZeroNet(8, 2, 16, Head("pair", 4, 2) if pair else Head())
    original.train()
    original(original.planes(torch.randint(-7, 8, (32, 90))))  # moves the batch-norm statistics
    original.eval()
    network = export(original)
    model = from_network(network).eval()
    codes = np.random.default_rng(0).integers(-7, 8, size=(16, 90))
    with torch.no_grad():
        logits, values = model(model.planes(torch.from_numpy(codes)))
    expected_logits, expected_values = network.forward(planes_from_codes(codes))
    assert np.allclose(logits.numpy(), expected_logits, atol=1e-4)
    assert np.allclose(values.numpy(), expected_values, atol=1e-5)
    again = export(model)
    assert all(np.allclose(again.arrays[name], network.arrays[name], atol=1e-6) for name in network.arrays)


def test_a_network_read_from_a_file_trains_on_from_its_own_play():
    """A model from a ``.npz`` has identity statistics: in training mode it normalises by the batch
    and computes another function. Calibrated on a batch, training mode computes what the file
    does on that batch; deepened, the new blocks start as the identity."""
    from xqdesk.engines.zero.model import ZeroNet, calibrate_normalisation, deepened, export, from_network
    from xqdesk.engines.zero.network import Head

    torch.manual_seed(5)
    original = ZeroNet(8, 2, 16, Head("pair", 4, 2))
    original.train()
    original(original.planes(torch.randint(-7, 8, (64, 90))))  # statistics of their own
    original.eval()
    network = export(original)
    codes = torch.from_numpy(np.random.default_rng(1).integers(-7, 8, size=(48, 90)))
    with torch.no_grad():
        expected_logits, expected_values = original(original.planes(codes))
    model = from_network(network)
    planes = model.planes(codes)
    trained = copy.deepcopy(model).train()  # (a forward pass in training mode moves its statistics)
    with torch.no_grad():
        uncalibrated, _ = trained(planes)
    assert not np.allclose(uncalibrated.numpy(), expected_logits.numpy(), atol=1e-2)
    grown = deepened(model, 2)
    assert grown.blocks == 4 and model.blocks == 2
    calibrate_normalisation(grown, planes)
    for mode in (True, False):  # training mode on this batch, and eval mode on any
        grown.train(mode)
        with torch.no_grad():
            logits, values = grown(planes)
        assert np.allclose(logits.numpy(), expected_logits.numpy(), atol=1e-3)
        assert np.allclose(values.numpy(), expected_values.numpy(), atol=1e-4)
    with pytest.raises(ValueError, match="0 or more"):
        deepened(model, -1)


def test_the_command_line_deepens_a_network_file_and_refuses_to_deepen_nothing(masters_only, tmp_path):
    from xqdesk.engines.zero.model import ZeroNet, export
    from xqdesk.engines.zero.network import Head

    root = GAMES.parents[2]
    start = tmp_path / "start.npz"
    export(ZeroNet(8, 1, 16, Head("pair", 8, 2)).eval()).save(start)
    net = tmp_path / "deeper.npz"
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(masters_only),
                           "--out", str(net), "--epochs", "1", "--batch", "64", "--init", str(start),
                           "--grow-blocks", "2", "--heldout-positions", "100"],
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode == 0, done.stderr
    assert Network.load(net).blocks == 3 and Network.load(net).channels == 8
    refused = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(masters_only),
                              "--out", str(net), "--grow-blocks", "2"],
                             capture_output=True, text=True, timeout=600, cwd=root)
    assert refused.returncode == 2 and "--grow-blocks deepens the network of --init" in refused.stderr
    no_average = subprocess.run([sys.executable, "-m", "xqdesk", "train", "zero", "--data", str(masters_only),
                                 "--out", str(net), "--average", "1"],
                                capture_output=True, text=True, timeout=600, cwd=root)
    assert no_average.returncode == 2 and "the average's decay within (0, 1)" in no_average.stderr


def test_self_play_trains_the_policy_over_the_legal_moves_only():
    """A network taught over the legal moves only may give illegal moves any logit: self-play's
    training reads the policy as the engine does (over the legal moves), so such logits cost
    nothing, and every visit target (Black's moves in the mover's frame too) is a legal entry."""
    from xqdesk.engines.zero.encoding import mirror_codes
    from xqdesk.engines.zero.model import ZeroNet, export
    from xqdesk.engines.zero.network import Head
    from xqdesk.engines.zero.selfplay import SelfPlayConfig, _train_window, play_selfplay_game
    from xqdesk.engines.zero.supervised import legal_entries

    torch.manual_seed(2)
    model = ZeroNet(8, 1, 16, Head("pair", 4, 2)).eval()
    game = play_selfplay_game(export(model), simulations=8, max_plies=24, seed=4)
    legal = legal_entries(game.codes, np.ones(len(game.codes), dtype=bool))
    assert len(game.codes) == 24 and np.all(legal[game.targets > 0])
    seen = np.concatenate([game.codes, mirror_codes(game.codes)])  # training reads the mirror images too
    never = ~legal_entries(seen, np.ones(len(seen), dtype=bool)).any(axis=0)
    with torch.no_grad():
        model.policy_bias.masked_fill_(torch.from_numpy(never), 40.0)  # moves legal in none of them
    frozen = torch.optim.SGD(model.parameters(), lr=0.0)
    policy_loss, value_loss = _train_window(model, frozen, [(game.codes, game.targets, game.value)],
                                            SelfPlayConfig(epochs=1, seed=0))
    assert policy_loss < np.log(legal.sum(axis=1).max()) + 1.0 and np.isfinite(value_loss)


def test_self_play_starts_from_a_network_file_with_no_checkpoint(tmp_path):
    """The shipped network has no ``.pt``: self-play trains on from the ``.npz`` itself."""
    from xqdesk.engines.zero.model import ZeroNet, export
    from xqdesk.engines.zero.network import Head
    from xqdesk.engines.zero.selfplay import SelfPlayConfig, run_selfplay

    torch.manual_seed(4)
    torch.set_num_threads(1)
    start = tmp_path / "start.npz"
    export(ZeroNet(8, 1, 16, Head("pair", 4, 2)).eval()).save(start)
    rows = run_selfplay(start, tmp_path / "run", 1, SelfPlayConfig(games=2, simulations=4, max_plies=12, workers=1,
                                                                   arena_games=2, seed=2), report=lambda line: None)
    assert len(rows) == 1 and rows[0]["positions"] == 24 and np.isfinite(float(rows[0]["policy_loss"]))
    assert Network.load(tmp_path / "run" / "iter_1.npz").blocks == 1 and not start.with_suffix(".pt").exists()


def test_an_averaged_run_writes_the_moving_average_of_every_steps_weights(masters_only, tmp_path):
    """``average=d``: the network written is d·average + (1 − d)·weights after every step (the first
    step's weights to start), normalisation statistics included; the checkpoint keeps the last
    weights. A decay outside (0, 1) is refused."""
    from xqdesk.engines.zero.model import ZeroNet, export, from_network, load_checkpoint
    from xqdesk.engines.zero.network import Head
    from xqdesk.engines.zero.supervised import Targets, evaluate, train_from_shards

    torch.manual_seed(2)
    model = ZeroNet(8, 1, 16, Head("pair", 8, 2))
    decay = 0.9
    average: dict[str, torch.Tensor] = {}

    def follow(step: int, _steps: int) -> None:
        for name, tensor in model.state_dict().items():
            if tensor.is_floating_point():
                now = tensor.detach().clone()
                average[name] = now if step == 1 else decay * average[name] + (1 - decay) * now

    net = tmp_path / "averaged.npz"
    reports = train_from_shards([masters_only], net, 2, model, batch_size=64, learning_rate=5e-3,
                                progress=follow, average=decay)
    expected = copy.deepcopy(model)
    expected.load_state_dict({**model.state_dict(), **average})
    planes = planes_from_codes(np.random.default_rng(3).integers(-7, 8, size=(16, 90)))
    written = Network.load(net).forward(planes)
    wanted = export(expected.eval()).forward(planes)
    last = export(load_checkpoint(net.with_suffix(".pt")).eval()).forward(planes)
    assert np.allclose(written[0], wanted[0], atol=1e-4) and np.allclose(written[1], wanted[1], atol=1e-5)
    assert not np.allclose(written[0], last[0], atol=1e-3)
    assert json.loads(Network.load(net).provenance)["average"] == decay
    heldout = ShardReader(masters_only, holdout=True).all()  # the figures reported are the written network's
    assert (reports[-1].heldout_accuracy, reports[-1].heldout_value_loss) == pytest.approx(
        evaluate(from_network(Network.load(net)), heldout, Targets(), torch.device("cpu")), abs=1e-6)
    with pytest.raises(ValueError, match=r"in \(0, 1\)"):
        train_from_shards([masters_only], tmp_path / "refused.npz", 1, model, average=1.0)
