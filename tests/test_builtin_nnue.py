"""The built-in engine's learned evaluation: the compiled accumulators against a full refresh, the
kernel's scores against the float reference, the network file, and the engine's Eval options."""
from __future__ import annotations

import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine, board_kernel, nnue_kernel
from xqdesk.engines.builtin.nnue import (
    FEATURES,
    MAX_PIECES,
    VERSION,
    Network,
    NetworkFileError,
    feature_index,
    feature_indices,
)
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchLimits
from xqdesk.fen import STARTING_FEN, parse_fen

pytestmark = pytest.mark.engines

MIDDLEGAME = "1r2kab2/4a4/2n1b2c1/p1p1p3p/3c2pn1/1CPN5/P3P1P1P/2N1C4/5R3/2BAKAB2 w - - 1 16"


def _random_network(seed: int, accumulator: int = 32, hidden: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    return Network.from_float(rng.normal(0.0, 0.08, (FEATURES, accumulator)), rng.normal(0.4, 0.2, accumulator),
                              rng.normal(0.0, 0.3, (hidden, 2 * accumulator)) if hidden else None,
                              rng.normal(0.0, 0.2, hidden) if hidden else None,
                              rng.normal(0.0, 0.5, hidden if hidden else 2 * accumulator), 0.05, 300.0,
                              description="random weights for a test")


def _position(fen: str) -> Position:
    fields = parse_fen(fen)
    return Position(fields.codes, fields.turn)


def _random_line(position: Position, rng: np.random.Generator, plies: int) -> list[tuple[int, int]]:
    """Play up to ``plies`` random legal moves (captures preferred half the time); returns the
    (move, captured) pairs to unmake them."""
    played = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        captures = [move for move in moves if position.board[move & 127] != 0]
        move = int(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        captured = board_kernel.make_move(position.board, position.pos, position.keys, position.clocks,
                                          position.psq, position.params, move)
        played.append((move, int(captured)))
    return played


def _full_refresh(state: nnue_kernel.NetworkState, board: np.ndarray) -> np.ndarray:
    out = np.zeros((1, 2, state.ft_bias.shape[0]), np.int16)
    nnue_kernel.refresh(state.ft_weights, state.ft_bias, board, out, 0)
    return out[0]


def test_feature_numbering_is_the_same_in_numpy_and_in_the_kernel() -> None:
    codes = np.array(parse_fen(MIDDLEGAME).codes, np.int8)
    for red_seat, seat in ((True, 0), (False, 1)):
        expected = sorted(feature_index(int(codes[sq]), sq, red_seat) for sq in range(90) if codes[sq])
        kernel = sorted(nnue_kernel.feature_row(codes[sq], sq, seat) for sq in range(90) if codes[sq])
        rows = feature_indices(codes[None, :], red_seat)[0]
        assert kernel == expected == [int(f) for f in rows[:len(expected)]]
    # a red chariot on a0 is Red's own chariot at a0, and Black's enemy chariot at a9
    assert feature_index(6, 0, True) == 5 * 90 + 0
    assert feature_index(6, 0, False) == (7 + 5) * 90 + 81


def test_incremental_accumulators_equal_a_full_refresh_after_random_make_and_unmake() -> None:
    state = nnue_kernel.network_state(_random_network(1))
    rng = np.random.default_rng(7)
    checked = 0
    for fen in (STARTING_FEN, MIDDLEGAME):
        position = _position(fen)
        nnue_kernel.clear(state)
        for _ in range(30):
            line = _random_line(position, rng, int(rng.integers(1, 9)))
            # evaluate at some heights on the way back up, as a search does
            while line:
                if rng.random() < 0.6:
                    h = position.height
                    nnue_kernel.evaluate(state, position.board, position.pos, position.keys)
                    assert np.array_equal(state.accumulators[h], _full_refresh(state, position.board))
                    checked += 1
                move, captured = line.pop()
                board_kernel.unmake_move(position.board, position.pos, move, captured)
    assert checked > 50


def test_a_null_move_and_a_sibling_line_reuse_accumulators_correctly() -> None:
    state = nnue_kernel.network_state(_random_network(2))
    position = _position(MIDDLEGAME)
    rng = np.random.default_rng(3)
    nnue_kernel.evaluate(state, position.board, position.pos, position.keys)
    board_kernel.make_null_move(position.pos, position.keys, position.clocks, position.psq)
    nnue_kernel.evaluate(state, position.board, position.pos, position.keys)
    assert np.array_equal(state.accumulators[position.height], _full_refresh(state, position.board))
    board_kernel.unmake_null_move(position.pos)
    for _ in range(20):  # siblings overwrite the same heights with other positions
        line = _random_line(position, rng, 3)
        nnue_kernel.evaluate(state, position.board, position.pos, position.keys)
        assert np.array_equal(state.accumulators[position.height], _full_refresh(state, position.board))
        for move, captured in reversed(line):
            board_kernel.unmake_move(position.board, position.pos, move, captured)


@pytest.mark.parametrize("hidden", [0, 8])
def test_the_kernel_scores_equal_the_float_reference_within_a_centipawn(hidden: int) -> None:
    network = _random_network(4, accumulator=48, hidden=hidden)
    state = nnue_kernel.network_state(network)
    rng = np.random.default_rng(5)
    boards, sides, kernel_scores = [], [], []
    for fen in (STARTING_FEN, MIDDLEGAME):
        position = _position(fen)
        for _ in range(40):
            line = _random_line(position, rng, int(rng.integers(0, 12)))
            kernel_scores.append(nnue_kernel.evaluate(state, position.board, position.pos, position.keys))
            boards.append(position.board.copy())
            sides.append(position.red_to_move)
            for move, captured in reversed(line):
                board_kernel.unmake_move(position.board, position.pos, move, captured)
    reference = network.reference_scores(np.array(boards), np.array(sides))
    assert np.abs(reference).max() > 20  # the scores are not all zero
    assert np.abs(np.array(kernel_scores) - reference).max() <= 1.0


def test_the_shipped_network_loads_and_scores_like_its_reference() -> None:
    network = Network.load_shipped()
    assert network.accumulator >= 32 and network.cp_scale > 0 and network.description
    state = nnue_kernel.network_state(network)
    position = _position(MIDDLEGAME)
    score = nnue_kernel.evaluate(state, position.board, position.pos, position.keys)
    reference = network.reference_scores(position.board[None, :], np.array([position.red_to_move]))[0]
    assert abs(score - reference) <= 1.0


def test_a_network_file_round_trips(tmp_path: Path) -> None:
    for hidden in (0, 4):
        network = _random_network(6, accumulator=16, hidden=hidden)
        path = tmp_path / f"net{hidden}.npz"
        network.save(path)
        again = Network.load(path)
        for name in ("ft_weights", "ft_bias", "hidden_weights", "hidden_bias", "out_weights", "out_bias"):
            assert np.array_equal(getattr(again, name), getattr(network, name)), name
            assert getattr(again, name).dtype == getattr(network, name).dtype, name
        assert (again.ft_scale, again.hidden_scale, again.out_scale, again.cp_scale, again.description) == \
            (network.ft_scale, network.hidden_scale, network.out_scale, network.cp_scale, network.description)


def _rewrite(source: Path, target: Path, **changes: object) -> None:
    with np.load(source, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    for name, value in changes.items():
        if value is None:
            del arrays[name]
        else:
            arrays[name] = np.asarray(value)
    with open(target, "wb") as stream:
        np.savez(stream, **arrays)


def test_a_damaged_or_foreign_network_file_is_refused_with_a_message(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    _random_network(8, accumulator=16).save(good)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(good.read_bytes()[:2000])
    with pytest.raises(NetworkFileError, match="truncated.npz"):
        Network.load(truncated)
    text = tmp_path / "text.npz"
    text.write_text("not a network\n")
    with pytest.raises(NetworkFileError, match="not a readable .npz"):
        Network.load(text)
    with pytest.raises(NetworkFileError, match="does not exist"):
        Network.load(tmp_path / "missing.npz")
    corrupt = tmp_path / "corrupt.npz"  # a member's bytes flipped: the zip's checksum fails
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as archive:
        member = archive.getinfo("ft_weights.npy")
    start = member.header_offset + 30 + len(member.filename) + 200
    data[start:start + 64] = bytes(64)
    corrupt.write_bytes(bytes(data))
    with pytest.raises(NetworkFileError, match="corrupt.npz"):
        Network.load(corrupt)
    cases = {
        "version": (dict(version=VERSION + 1), "version"),
        "format": (dict(format="something-else"), "not an xqdesk-nnue network"),
        "shape": (dict(ft_bias=np.zeros(17, np.int16)), "'ft_bias' has shape"),
        "dtype": (dict(ft_weights=np.zeros((FEATURES, 16), np.float32)), "'ft_weights' must be int16"),
        "missing": (dict(out_weights=None), "no array 'out_weights'"),
        "sizes": (dict(accumulator=np.int64(32)), "says accumulator 32"),
        "overflow": (dict(ft_weights=np.full((FEATURES, 16), 2000, np.int16)), "overflow"),
    }
    for name, (changes, message) in cases.items():
        path = tmp_path / f"{name}.npz"
        _rewrite(good, path, **changes)
        with pytest.raises(NetworkFileError, match=message):
            Network.load(path)


def test_feature_indices_refuses_an_impossible_board() -> None:
    crowded = np.ones((1, 90), np.int8)
    with pytest.raises(ValueError, match=f"more than {MAX_PIECES} pieces"):
        feature_indices(crowded, True)


def test_the_engine_searches_with_the_network_and_switches_back(tmp_path: Path) -> None:
    engine = BuiltinEngine()
    apply_option(engine, "Eval", "network")
    board = Board(MIDDLEGAME)
    infos: list = []
    move = engine.search(board, SearchLimits(depth=4), threading.Event(), infos.append)
    assert move is not None and board.is_legal(move)
    with_network = (infos[-1].score, infos[-1].nodes)
    apply_option(engine, "Eval", "classic")
    infos.clear()
    move = engine.search(board, SearchLimits(depth=4), threading.Event(), infos.append)
    assert move is not None and board.is_legal(move)
    assert (infos[-1].score, infos[-1].nodes) != with_network  # another evaluation, another tree
    own = tmp_path / "own.npz"
    _random_network(9, accumulator=16).save(own)
    apply_option(engine, "EvalFile", str(own))
    apply_option(engine, "Eval", "network")
    move = engine.search(board, SearchLimits(depth=3), threading.Event(), lambda info: None)
    assert move is not None and board.is_legal(move)


def test_a_bad_eval_file_is_refused_and_the_previous_network_kept(tmp_path: Path) -> None:
    engine = BuiltinEngine()
    apply_option(engine, "Eval", "network")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(EngineOptionError, match="EvalFile: .*broken.npz"):
        apply_option(engine, "EvalFile", str(broken))
    with pytest.raises(EngineOptionError, match="one of"):
        apply_option(engine, "Eval", "magic")
    board = Board(STARTING_FEN)
    move = engine.search(board, SearchLimits(depth=3), threading.Event(), lambda info: None)
    assert move is not None and board.is_legal(move)
