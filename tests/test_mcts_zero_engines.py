"""The mcts and zero engines: whole games through ``xqdesk match`` (real engine processes), the
UCI report, the perpetual-check ban, tree reuse and proven wins and losses (MCTS-solver)."""
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD
from test_zero_encoding import random_network

from xqdesk.board import Board
from xqdesk.engines.builtin import BuiltinEngine
from xqdesk.engines.mcts.engine import MctsEngine
from xqdesk.engines.mcts.tree import Node, propagate_proof, proven_choice
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.zero.encoding import mover_codes, policy_index
from xqdesk.engines.zero.engine import ZeroEngine, network_outputs
from xqdesk.engines.zero.network import Head
from xqdesk.formats.pgn import read_pgn
from xqdesk.move import Move
from xqdesk.outcome import Termination
from xqdesk.pieces import BLACK
from xqdesk.score import Mate

pytestmark = pytest.mark.engines

ROOT = Path(__file__).parent.parent


def xqdesk(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def _assert_clean_games(done: subprocess.CompletedProcess, out: Path, games: int) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    played = read_pgn(out / "games.pgn").games
    assert len(played) == games
    for game in played:
        assert game.outcome is not None
        assert game.outcome.termination not in (Termination.ILLEGAL_MOVE, Termination.TIMEOUT, Termination.ABORTED), \
            game.outcome.text
        board = game.start_board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)


def test_mcts_plays_whole_games_through_match(tmp_path):
    done = xqdesk("match", "--red", "mcts:Playouts=48,Seed=3", "--black", "random:Seed=4", "--games", "2",
                  "--movetime", "0.3", "--out", str(tmp_path))
    _assert_clean_games(done, tmp_path, 2)  # how strong it is: bench/ladder.py, not a test


def test_zero_plays_whole_games_through_match(tmp_path):
    network = tmp_path / "tiny.npz"
    random_network(seed=5).save(network)
    done = xqdesk("match", "--red", f"zero:Network={network},Simulations=6", "--black", "greedy:Seed=1",
                  "--games", "2", "--movetime", "0.3", "--out", str(tmp_path))
    _assert_clean_games(done, tmp_path, 2)


def test_a_bad_network_file_is_reported_when_the_engine_starts(tmp_path):
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    done = xqdesk("analyse", "--engine", f"zero:Network={tmp_path / 'bad.npz'}", "--movetime", "0.2")
    assert done.returncode != 0
    assert "cannot read network file" in done.stdout + done.stderr


def test_the_host_reports_multipv_lines_with_visits_q_and_prior():
    host = subprocess.Popen([sys.executable, "-m", "xqdesk.engines.host", "mcts"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert host.stdin is not None and host.stdout is not None
    host.stdin.write("uci\nsetoption name MultiPV value 3\nsetoption name Playouts value 300\nisready\n"
                     "position startpos moves h2e2\ngo movetime 5000\n")
    host.stdin.flush()
    lines = []
    try:
        for line in host.stdout:
            lines.append(line.strip())
            if line.startswith("bestmove"):
                break
    finally:
        host.stdin.close()
        host.wait(timeout=HANG_GUARD)
    assert "option name Playouts type spin default 0 min 0 max 10000000" in lines
    scored = [line.split() for line in lines if line.startswith("info depth ") and " score cp " in line]
    ranks = {words[words.index("multipv") + 1] if "multipv" in words else "1" for words in scored}
    assert ranks == {"1", "2", "3"}
    assert any(re.match(r"info string multipv 1 move \w\d\w\d visits \d+ Q [+-]\d\.\d{3} prior 0\.\d{3}", line)
               for line in lines)
    best = [line for line in lines if line.startswith("bestmove ")][-1].split()[1]
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    assert board.is_legal(Move.from_iccs(best))


@pytest.mark.parametrize("mirror", [False, True])
def test_the_zero_engine_plays_by_the_priors_read_once_or_both_ways(mirror):
    network = random_network(head=Head("pair", policy_channels=3, value_channels=2), seed=5)
    engine = ZeroEngine(network)
    assert engine.mirror is False  # read once unless told
    engine.set_option("Mirror", mirror)
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    codes = mover_codes(np.array([board.code_at(sq) for sq in range(90)]), board.turn)[None]
    logits = network_outputs(network, codes, mirror)[0][0]
    moves = list(board.legal_moves)
    chosen = np.array([logits[policy_index(m.from_square, m.to_square, board.turn)] for m in moves], np.float64)
    weights = np.exp(chosen - chosen.max())
    priors = weights / weights.sum()
    expected = {move.iccs(): float(prior) for move, prior in zip(moves, priors)}
    other = network_outputs(network, codes, not mirror)[0][0]
    assert not np.allclose(logits, other, atol=1e-3)  # the two readings differ for this network
    infos = []
    engine.search(board, SearchLimits(nodes=60, multipv=3), threading.Event(), infos.append)
    reported = [re.search(r"move (\w\d\w\d) .* prior (0\.\d{3})", info.string) for info in infos if info.string]
    reported = [found for found in reported if found]
    assert reported
    for found in reported:
        assert abs(float(found.group(2)) - expected[found.group(1)]) < 0.0011, found.group(0)


@pytest.mark.parametrize("make", [lambda: MctsEngine(), lambda: ZeroEngine(random_network(seed=2))])
def test_moves_the_perpetual_check_rule_bans_are_never_played(make):
    engine = make()
    vectors = [json.loads(line) for line in COURSE_VECTORS.read_text(encoding="utf-8").splitlines()]
    cases = [v for v in vectors if v["banned"]][:6]
    assert cases
    for vector in cases:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        banned = {Move.from_course(action) for action in vector["banned"]}
        move = engine.search(board, SearchLimits(nodes=40), threading.Event(), lambda info: None)
        assert move is not None and board.is_legal(move) and move not in banned


def test_the_tree_is_reused_below_the_new_position():
    engine = MctsEngine()
    board = Board()
    move = engine.search(board, SearchLimits(nodes=3000), threading.Event(), lambda info: None)
    assert move is not None
    old_root = engine._reuse.root
    assert old_root is not None
    subtree = old_root.children[old_root.index_of(move.from_square << 7 | move.to_square)]
    assert subtree is not None and subtree.moves is not None
    reply_index = int(np.argmax(subtree.visits))
    kept = subtree.children[reply_index]
    assert kept is not None and kept.moves is not None
    visits_before = kept.visits.sum()
    board.push(move)
    board.push(Move(int(subtree.moves[reply_index]) >> 7, int(subtree.moves[reply_index]) & 127))
    engine.search(board, SearchLimits(nodes=50), threading.Event(), lambda info: None)
    assert engine._reuse.root is kept and kept.visits.sum() >= visits_before + 50


MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
MATE_IN_TWO = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"


@pytest.mark.parametrize("make", [lambda: MctsEngine(), lambda: ZeroEngine(random_network(seed=2))])
def test_a_mate_in_one_is_proven_played_and_reported_as_mate(make):
    board = Board(MATE_IN_ONE)
    infos = []
    move = make().search(board, SearchLimits(nodes=2000), threading.Event(), infos.append)
    board.push(move)
    assert not board.legal_moves
    scored = [info for info in infos if info.score is not None]
    assert scored[-1].score.relative == Mate(1) and scored[-1].pv[0] == move


@pytest.mark.parametrize("make", [lambda: MctsEngine(), lambda: ZeroEngine(random_network(seed=2))])
def test_a_proven_win_stops_the_search_and_is_converted_into_mate(make):
    board = Board(MATE_IN_TWO)
    engine, defender = make(), BuiltinEngine()
    for _ in range(8):
        infos = []
        move = engine.search(board, SearchLimits(nodes=20000), threading.Event(), infos.append)
        scored = [info for info in infos if info.score is not None]
        promised = scored[-1].score.relative.mate()
        assert promised is not None and promised > 0 and scored[-1].pv[0] == move
        assert scored[-1].nodes < 20000  # stopped once proven
        board.push(move)
        if not board.legal_moves:
            break
        board.push(defender.search(board, SearchLimits(depth=4), threading.Event(), lambda info: None))
    assert not board.legal_moves and board.turn == BLACK


def _expanded(moves: int) -> Node:
    node = Node()
    node.expand(np.arange(moves, dtype=np.int64), np.full(moves, 1 / moves))
    return node


def test_proofs_travel_up_the_tree_and_the_root_picks_the_slowest_loss_when_all_lose():
    root = _expanded(2)
    first, second = _expanded(2), _expanded(1)
    root.children = [first, second]
    mated = Node()
    mated.terminal, mated.proof_plies = -1.0, 0
    first.children[0] = mated
    propagate_proof([(root, 0), (first, 0)])
    assert first.terminal == 1.0 and first.proof_plies == 1 and list(root.edge_proof) == [-1, 0]
    assert root.terminal is None and proven_choice(root) is None  # the second move is still open
    slow = Node()
    slow.terminal, slow.proof_plies = -1.0, 2
    second.children[0] = slow
    propagate_proof([(root, 1), (second, 0)])
    assert second.terminal == 1.0 and second.proof_plies == 3
    assert list(root.edge_proof) == [-1, -1] and proven_choice(root) == 1 and root.terminal is None


def test_a_node_with_one_winning_move_is_proven_won_and_that_move_is_chosen():
    node = _expanded(3)
    lost = [Node(), Node()]
    lost[0].terminal, lost[0].proof_plies = -1.0, 4
    lost[1].terminal, lost[1].proof_plies = -1.0, 0
    node.children[1], node.children[2] = lost
    parent = _expanded(1)
    parent.children[0] = node
    propagate_proof([(parent, 0), (node, 1)])
    propagate_proof([(parent, 0), (node, 2)])
    assert node.terminal == 1.0 and proven_choice(node) == 2  # the quicker of the two wins
    assert parent.edge_proof[0] == -1


@pytest.mark.parametrize("limit", [3, 0])
def test_the_perpetual_check_ban_holds_inside_the_tree(limit):
    from xqdesk.engines.mcts.engine import PlayoutEvaluator
    from xqdesk.engines.mcts.searching import history_offset, kernel_move, position_for
    from xqdesk.engines.mcts.tree import TreeSearch

    vectors = [json.loads(line) for line in COURSE_VECTORS.read_text(encoding="utf-8").splitlines()]
    cases = [v for v in vectors if v["banned"]][:4]
    assert cases
    for vector in cases:
        board = Board.from_course(vector["board"], vector["side"], vector["history"])
        banned = {kernel_move(Move.from_course(action)) for action in vector["banned"]}
        position = position_for(board)
        search = TreeSearch(PlayoutEvaluator(4, True, 120), 1.4, puct=False, draw_plies=120,
                            rng=np.random.default_rng(0), check_limit=limit, check_min_history=6)
        root = Node()  # the kernel's moves, the banned ones included: the tree must judge them
        search.expand_root(root, position)
        assert banned <= set(root.moves.tolist())
        search.run(root, position, 3 * len(root.moves), history_offset(board, position))
        marked = {int(move) for move, proof in zip(root.moves, root.edge_proof) if proof < 0}
        if limit:
            assert banned <= marked
        else:
            assert not banned & marked
        assert position.codes() == position_for(board).codes()  # the position is left as it was


def test_leaf_values_fade_to_a_draw_near_the_capture_free_limit():
    from xqdesk.engines.mcts.searching import position_for, tree_search
    from xqdesk.engines.mcts.tree import CLOCK_FADE_PLIES
    from xqdesk.engines.zero.engine import NetworkEvaluator
    evaluator = NetworkEvaluator(random_network(seed=2), 8)
    fen = "r1bakab2/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - {} 1"
    estimates = {}
    for clock in (0, 100):
        board = Board(fen.format(clock))
        root = Node()
        tree_search(evaluator, board, 1.5, True, None).expand_root(root, position_for(board))
        estimates[clock] = root.estimate
    limit = Board().ruleset.capture_free_draw_plies
    assert estimates[0] != 0
    assert estimates[100] == pytest.approx(estimates[0] * (limit - 100) / CLOCK_FADE_PLIES)
    board = Board(fen.format(limit - 2))
    root, position = Node(), position_for(board)
    search = tree_search(evaluator, board, 1.5, True, None)
    search.run(root, position, 300)
    quiet = [child for move, child in zip(root.moves, root.children)
             if child is not None and child.moves is not None and board.code_at(int(move) & 127) == 0]
    assert len(quiet) > 10
    for child in quiet:  # one ply from the draw: valued at 1/CLOCK_FADE_PLIES of the network's value
        assert abs(child.estimate) <= 1 / CLOCK_FADE_PLIES
