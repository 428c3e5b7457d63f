"""The zero engine's fixed policy index, input planes and numpy network file."""
import numpy as np
import pytest
from datafiles import GAMES

from xqdesk.board import Board
from xqdesk.engines.zero.encoding import (
    MIRROR_PERMUTATION,
    PLANES,
    POLICY_INDEX,
    POLICY_MOVES,
    POLICY_SIZE,
    mirror_codes,
    mirror_policy,
    mirror_square,
    mover_codes,
    planes_from_codes,
    policy_index,
    policy_move,
)
from xqdesk.engines.zero.engine import network_outputs
from xqdesk.engines.zero.network import (
    FIRST_HEAD,
    PAIR_INDEX,
    Head,
    Network,
    NetworkFileError,
    _conv3x3,
    _relu,
    array_shapes,
)
from xqdesk.formats import read_games
from xqdesk.move import Move

pytestmark = pytest.mark.engines

MASTER_GAMES = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def _boards(games: int = 4):
    for game in read_games(MASTER_GAMES).games[:games]:
        yield from game.boards()


def random_network(channels: int = 4, blocks: int = 1, hidden: int = 8, seed: int = 0, head: Head = FIRST_HEAD) -> Network:
    rng = np.random.default_rng(seed)
    arrays = {name: rng.normal(0, 0.3, shape).astype(np.float32)
              for name, shape in array_shapes(channels, blocks, hidden, head).items()}
    return Network(arrays, channels, blocks, hidden, head)


def test_the_index_holds_every_geometrically_possible_move_once():
    assert POLICY_SIZE == 2086 == len(set(POLICY_MOVES))
    assert (np.sort(POLICY_INDEX[POLICY_INDEX >= 0]) == np.arange(POLICY_SIZE)).all()


def test_every_legal_move_of_master_games_round_trips_through_the_index():
    seen = set()
    for board in _boards():
        for move in board.legal_moves:
            index = policy_index(move.from_square, move.to_square, board.turn)
            assert policy_move(index, board.turn) == (move.from_square, move.to_square)
            seen.add(index)
    assert len(seen) > 300


def test_impossible_moves_and_entries_are_refused():
    with pytest.raises(ValueError, match="no piece can move from square 0 to 10"):
        policy_index(0, 10, True)
    with pytest.raises(ValueError, match="outside"):
        policy_move(POLICY_SIZE, True)


def test_mirroring_permutes_the_index_and_matches_mirrored_boards():
    assert (MIRROR_PERMUTATION[MIRROR_PERMUTATION] == np.arange(POLICY_SIZE)).all()
    board = Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    board.push(Move.from_iccs("h2e2"))  # Black to move: the frame is turned
    codes = mover_codes(np.array([board.code_at(sq) for sq in range(90)]), board.turn)
    mirrored = mirror_codes(codes)
    for move in board.legal_moves:
        index = policy_index(move.from_square, move.to_square, board.turn)
        a, b = POLICY_MOVES[MIRROR_PERMUTATION[index]]
        origin, target = POLICY_MOVES[index]
        assert (a, b) == (mirror_square(origin), mirror_square(target))
        assert mirrored[a] == codes[origin]


def test_read_both_ways_a_network_answers_a_position_and_its_mirror_image_alike():
    network = random_network(head=Head("pair", policy_channels=3, value_channels=2))
    codes = np.stack([mover_codes(np.array([b.code_at(sq) for sq in range(90)]), b.turn) for b in _boards(1)][:6])
    once, once_values = network_outputs(network, codes, mirror=False)
    mirrored, mirrored_values = network_outputs(network, mirror_codes(codes), mirror=False)
    assert not np.allclose(once, mirror_policy(mirrored), atol=1e-3)  # a random network is not symmetric
    both, both_values = network_outputs(network, codes, mirror=True)
    assert np.allclose(both, (once + mirror_policy(mirrored)) / 2, atol=1e-5)
    assert np.allclose(both_values, (once_values + mirrored_values) / 2, atol=1e-6)
    in_mirror, in_mirror_values = network_outputs(network, mirror_codes(codes), mirror=True)
    assert np.allclose(mirror_policy(in_mirror), both, atol=1e-5)  # the same answer, seen in the mirror
    assert np.allclose(in_mirror_values, both_values, atol=1e-6)


def test_planes_show_the_mover_at_the_bottom():
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    codes = mover_codes(np.array([board.code_at(sq) for sq in range(90)]), board.turn)
    planes = planes_from_codes(codes[None])[0]
    assert planes.shape == (10, 9, PLANES)
    assert planes[..., 14].sum() == 90 and planes[..., :14].sum() == 32
    assert planes[0, 4, 6] == 1 and planes[9, 4, 13] == 1  # own king on rank 0, the opponent's on rank 9
    assert planes[2, 1, 4] == 1 and planes[7, 4, 11] == 1  # Black's cannons; Red's cannon now on e2 (turned)


def test_a_network_file_round_trips_and_bad_files_are_named(tmp_path):
    network = random_network()
    path = tmp_path / "net.npz"
    network.save(path)
    loaded = Network.load(path)
    planes = planes_from_codes(mover_codes(np.array([Board().code_at(sq) for sq in range(90)]), True)[None])
    assert np.allclose(loaded.forward(planes)[0], network.forward(planes)[0])
    with pytest.raises(NetworkFileError, match="cannot read network file"):
        Network.load(tmp_path / "missing.npz")
    arrays = dict(np.load(path))
    arrays["policy.fc.b"] = np.zeros(3, np.float32)
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(NetworkFileError, match="'policy.fc.b' has shape"):
        Network.load(tmp_path / "bad.npz")


def test_a_pair_head_scores_a_move_by_its_from_and_to_vectors_and_its_file_is_format_2(tmp_path):
    head = Head("pair", policy_channels=3, value_channels=2)
    network = random_network(head=head)
    codes = np.stack([mover_codes(np.array([b.code_at(sq) for sq in range(90)]), b.turn) for b in _boards(1)][:5])
    planes = planes_from_codes(codes)
    logits, values = network.forward(planes)
    # the trunk's output by hand, then f[a] . t[b] + bias for a few moves
    a = network.arrays
    x = planes.astype(np.float32)
    x = _relu(_conv3x3(x, a["stem.w"], a["stem.b"]))
    y = _relu(_conv3x3(x, a["block0.conv1.w"], a["block0.conv1.b"]))
    x = _relu(_conv3x3(y, a["block0.conv2.w"], a["block0.conv2.b"]) + x).reshape(len(codes), 90, 4)
    for entry in (0, 777, 2085):
        origin, target = divmod(int(PAIR_INDEX[entry]), 90)
        expected = (x[:, origin] @ a["policy.from.w"] + a["policy.from.b"]) @ (x[:, target] @ a["policy.to.w"]
                                                                               + a["policy.to.b"]).T
        assert np.allclose(logits[:, entry], np.diag(expected) + a["policy.bias"][entry], atol=1e-4)
    path = tmp_path / "pair.npz"
    network.save(path)
    assert int(np.load(path)["format"]) == 2 and str(np.load(path)["policy_head"]) == "pair"
    loaded = Network.load(path)
    assert loaded.head == head and np.allclose(loaded.forward(planes)[1], values)
    first = tmp_path / "first.npz"
    random_network().save(first)  # the first head is still written as format 1, which older readers take
    assert int(np.load(first)["format"]) == 1 and Network.load(first).head == Head()


def test_network_files_of_an_unknown_format_or_head_are_refused_by_name(tmp_path):
    network = random_network(head=Head("pair", 3, 2))
    path = tmp_path / "pair.npz"
    network.save(path)
    arrays = dict(np.load(path))
    np.savez(tmp_path / "future.npz", **{**arrays, "format": np.int64(3)})
    with pytest.raises(NetworkFileError, match=r"future\.npz' has format 3, this xqdesk reads 1 and 2"):
        Network.load(tmp_path / "future.npz")
    np.savez(tmp_path / "odd.npz", **{**arrays, "policy_head": np.str_("attention")})
    with pytest.raises(NetworkFileError, match="'policy_head' must be one of fc, pair, got 'attention'"):
        Network.load(tmp_path / "odd.npz")
    np.savez(tmp_path / "bare.npz", **{name: value for name, value in arrays.items() if name != "value_channels"})
    with pytest.raises(NetworkFileError, match="lacks 'value_channels'"):
        Network.load(tmp_path / "bare.npz")
    np.savez(tmp_path / "old.npz", **{**arrays, "format": np.int64(1)})  # a pair head's arrays in a format-1 file
    with pytest.raises(NetworkFileError, match="no array 'policy.conv.w'"):
        Network.load(tmp_path / "old.npz")


@pytest.mark.parametrize("head", [Head(), Head("pair", 6, 2), Head("fc", 4, 3)], ids=["first", "pair", "wide-fc"])
def test_numpy_forward_equals_torch_forward(head):
    torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'xqdesk[train]')")
    from xqdesk.engines.zero.model import ZeroNet, export

    torch.manual_seed(1)
    model = ZeroNet(channels=8, blocks=2, hidden=16, head=head)
    model.train()
    codes = np.stack([mover_codes(np.array([b.code_at(sq) for sq in range(90)]), b.turn) for b in _boards(1)][:24])
    model(model.planes(torch.from_numpy(codes.astype(np.int64))))  # moves the batch-norm statistics
    model.eval()
    with torch.no_grad():
        logits, values = model(model.planes(torch.from_numpy(codes.astype(np.int64))))
    np_logits, np_values = export(model).forward(planes_from_codes(codes))
    assert np.allclose(np_logits, logits.numpy(), atol=1e-4)
    assert np.allclose(np_values, values.numpy(), atol=1e-5)
