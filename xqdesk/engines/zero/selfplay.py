"""Reinforcement learning by self-play (AlphaZero's loop, small), for ``xqdesk train selfplay``.

One iteration:

1. **Self-play**: ``games`` games of the *best* network against itself, spread over ``workers``
   processes (numpy only in the workers). Each move runs ``simulations`` PUCT simulations with
   Dirichlet noise on the root priors; the first :data:`TEMPERATURE_PLIES` plies are drawn in
   proportion to the visits, later ones are the most visited move. A game longer than ``max_plies``
   is a draw. Each position is kept with the root's visit distribution (the policy target) and
   the game's result from the mover's view (the value target).
2. **Training**: the *candidate* network (torch) trains for ``epochs`` passes over the positions
   of the last ``window`` iterations (the replay window), each with its mirror image.
3. **Arena and gate**: candidate vs best, ``arena_games`` games with colours alternating, the first
   :data:`ARENA_OPENING_PLIES` plies drawn by visits so the games differ. The candidate becomes the
   best network when it scores at least ``gate`` (a win 1, a draw ½) of the points; otherwise the
   best stays and the candidate trains on. With ``arena_games`` 0 every candidate is accepted.
4. **Log**: ``iter_K.npz``/``.pt`` checkpoints and ``best.npz``/``.pt`` in the output folder, one
   ``log.csv`` row per iteration (losses, arena score, acceptance, Elo estimate against the
   ``greedy`` baseline from ``ladder_games`` games when asked) and ``log.png`` (matplotlib).
"""
from __future__ import annotations

import csv
import math
import multiprocessing
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.mcts.searching import board_move, history_offset, kernel_move, position_for, tree_search
from xqdesk.engines.mcts.tree import Node
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.zero.encoding import POLICY_INDEX, POLICY_SIZE, ROTATED_POLICY_INDEX, mover_codes
from xqdesk.engines.zero.engine import DEFAULT_CPUCT, DIRICHLET_ALPHA, DIRICHLET_WEIGHT, NetworkEvaluator, ZeroEngine
from xqdesk.engines.zero.network import Network
from xqdesk.pieces import RED

if TYPE_CHECKING:
    import torch

    from xqdesk.engines.zero.model import ZeroNet

TEMPERATURE_PLIES = 20
ARENA_OPENING_PLIES = 6
LOG_FIELDS = ("iteration", "selfplay_games", "positions", "window_positions", "policy_loss", "value_loss",
              "arena_score", "accepted", "elo_vs_greedy", "seconds")


@dataclass(frozen=True)
class SelfPlayConfig:
    games: int = 8
    simulations: int = 64
    max_plies: int = 160
    workers: int = 2
    window: int = 4
    epochs: int = 1
    arena_games: int = 6
    gate: float = 0.55
    ladder_games: int = 0
    learning_rate: float = 5e-4
    batch: int = 8
    seed: int = 0


@dataclass
class SelfPlayGame:
    """``codes`` (N, 90), ``targets`` (N, 2086) visit distributions, ``value`` (N,), the result."""

    codes: np.ndarray
    targets: np.ndarray
    value: np.ndarray
    red_result: float


def play_selfplay_game(network: Network, simulations: int, max_plies: int, seed: int, batch: int = 8) -> SelfPlayGame:
    """One self-play game (module docstring, step 1)."""
    rng = np.random.default_rng(seed)
    board = Board()
    evaluator = NetworkEvaluator(network, batch)
    codes, targets, movers = [], [], []
    while board.outcome() is None and len(board.move_stack) < max_plies:
        legal = list(board.legal_moves)
        if not legal:
            break
        position = position_for(board)
        tree = tree_search(evaluator, board, DEFAULT_CPUCT, puct=True, rng=rng)
        root = Node()
        tree.expand_root(root, position)
        allowed = [kernel_move(move) for move in legal]
        assert root.moves is not None
        if sorted(root.moves.tolist()) != sorted(allowed):
            root = root.restricted(allowed)
        assert root.moves is not None
        if len(root.moves) > 1:
            noise = rng.dirichlet(np.full(len(root.moves), DIRICHLET_ALPHA))
            root.prior = (1 - DIRICHLET_WEIGHT) * root.prior + DIRICHLET_WEIGHT * noise
        tree.run(root, position, simulations, history_offset(board, position))
        red = board.turn == RED
        table = POLICY_INDEX if red else ROTATED_POLICY_INDEX
        assert root.moves is not None
        entries = table[(root.moves >> 7) * 90 + (root.moves & 127)]
        visits = root.visits if root.visits.sum() > 0 else root.prior
        target = np.zeros(POLICY_SIZE, np.float32)
        target[entries] = visits / visits.sum()
        codes.append(mover_codes(position.board, red))
        targets.append(target)
        movers.append(red)
        if len(board.move_stack) < TEMPERATURE_PLIES:
            index = int(rng.choice(len(visits), p=visits / visits.sum()))
        else:
            index = int(np.argmax(visits))
        board.push(board_move(int(root.moves[index])))
    outcome = board.outcome()
    result = 0.0 if outcome is None or outcome.winner is None else (1.0 if outcome.winner == RED else -1.0)
    n = len(codes)
    return SelfPlayGame(np.array(codes, np.int8).reshape(n, 90), np.array(targets, np.float32).reshape(n, POLICY_SIZE),
                        np.array([result if red else -result for red in movers], np.float32), result)


def _selfplay_worker(task: tuple[str, int, int, int, int]) -> SelfPlayGame:
    path, simulations, max_plies, seed, batch = task
    return play_selfplay_game(Network.load(path), simulations, max_plies, seed, batch)


def play_arena_game(red: Network, black: Network, simulations: int, max_plies: int, seed: int) -> float:
    """One game between two networks; the result for Red (1, ½, 0)."""
    engines = {}
    for colour, network in ((RED, red), (not RED, black)):
        engine = ZeroEngine(network)
        engine.simulations = simulations
        engine.seed = seed
        engine.new_game()
        engines[colour] = engine
    board = Board()
    while board.outcome() is None and len(board.move_stack) < max_plies and board.legal_moves:
        engine = engines[board.turn]
        engine.temperature = 1.0 if len(board.move_stack) < ARENA_OPENING_PLIES else 0.0
        move = engine.search(board, SearchLimits(nodes=simulations), threading.Event(), lambda info: None)
        if move is None:
            break
        board.push(move)
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == RED else 0.0


def _arena_worker(task: tuple[str, str, int, int, int]) -> float:
    red, black, simulations, max_plies, seed = task
    return play_arena_game(Network.load(red), Network.load(black), simulations, max_plies, seed)


def _elo_vs_greedy(path: Path, games: int, simulations: int, max_plies: int, seed: int) -> float:
    """An Elo difference estimate of the network's engine against ``greedy`` from ``games`` games."""
    from xqdesk.engines.contests.elo import elo_from_score
    from xqdesk.engines.hosted.baselines import GreedyEngine
    network = Network.load(path)
    points = 0.0
    for game in range(games):
        zero = ZeroEngine(network)
        zero.simulations = simulations
        greedy = GreedyEngine(seed + game)
        zero_red = game % 2 == 0
        board = Board()
        while board.outcome() is None and len(board.move_stack) < max_plies and board.legal_moves:
            engine = zero if board.turn == zero_red else greedy
            move = engine.search(board, SearchLimits(nodes=simulations), threading.Event(), lambda info: None)
            if move is None:
                break
            board.push(move)
        outcome = board.outcome()
        points += 0.5 if outcome is None or outcome.winner is None else float(outcome.winner == zero_red)
    return elo_from_score(min(max(points / games, 0.01), 0.99))


def run_selfplay(net: Path, out_dir: Path, iterations: int, config: SelfPlayConfig,
                 report: Callable[[str], None] = print) -> list[dict[str, object]]:
    """Run ``iterations`` iterations from the network ``net`` (its ``.pt`` checkpoint beside it, or
    where there is none, such as the shipped network, ``net`` itself: its normalisations then get
    the statistics of the first iteration's positions before the first training pass); returns
    the log rows."""
    import torch

    from xqdesk.engines.zero.model import (
        calibrate_normalisation,
        export,
        from_network,
        load_checkpoint,
        save_checkpoint,
    )

    checkpoint = net.with_suffix(".pt")
    from_file = not checkpoint.is_file()
    candidate = from_network(Network.load(net)) if from_file else load_checkpoint(checkpoint)
    out_dir.mkdir(parents=True, exist_ok=True)
    best_path = out_dir / "best.npz"
    export(candidate.eval()).save(best_path)
    save_checkpoint(candidate, best_path.with_suffix(".pt"))
    optimiser = torch.optim.AdamW(candidate.parameters(), lr=config.learning_rate, weight_decay=1e-4)
    window: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    rows: list[dict[str, object]] = []
    # fork: the workers need only numpy and inherit the loaded modules (spawn would leave a
    # resource-tracker process behind and import everything again)
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(max(1, config.workers)) as pool:
        for iteration in range(1, iterations + 1):
            started = time.perf_counter()
            seeds = [config.seed * 100_003 + iteration * 1009 + game for game in range(config.games)]
            games = pool.map(_selfplay_worker, [(str(best_path), config.simulations, config.max_plies, seed, config.batch)
                                                for seed in seeds])
            codes = np.concatenate([g.codes for g in games])
            targets = np.concatenate([g.targets for g in games])
            values = np.concatenate([g.value for g in games])
            window = (window + [(codes, targets, values)])[-max(1, config.window):]
            if from_file and iteration == 1:
                calibrate_normalisation(candidate, candidate.planes(torch.from_numpy(codes.astype(np.int64))))
            policy_loss, value_loss = _train_window(candidate, optimiser, window, config)
            candidate_path = out_dir / f"iter_{iteration}.npz"
            export(candidate.eval()).save(candidate_path)
            save_checkpoint(candidate, candidate_path.with_suffix(".pt"), {"iteration": iteration})
            arena = math.nan
            accepted = True
            if config.arena_games > 0:
                tasks = []
                for game in range(config.arena_games):
                    pair = (str(candidate_path), str(best_path)) if game % 2 == 0 else (str(best_path), str(candidate_path))
                    tasks.append((*pair, config.simulations, config.max_plies, seeds[0] + 7 * game))
                results = pool.map(_arena_worker, tasks)
                arena = sum(r if g % 2 == 0 else 1 - r for g, r in enumerate(results)) / config.arena_games
                accepted = arena >= config.gate
            if accepted:
                export(candidate.eval()).save(best_path)
                save_checkpoint(candidate, best_path.with_suffix(".pt"), {"iteration": iteration})
            elo = (_elo_vs_greedy(best_path, config.ladder_games, config.simulations, config.max_plies, config.seed)
                   if config.ladder_games > 0 else math.nan)
            row: dict[str, object] = {
                "iteration": iteration, "selfplay_games": len(games), "positions": len(codes),
                "window_positions": sum(len(part[0]) for part in window), "policy_loss": round(policy_loss, 4),
                "value_loss": round(value_loss, 4), "arena_score": round(arena, 3), "accepted": int(accepted),
                "elo_vs_greedy": round(elo, 1), "seconds": round(time.perf_counter() - started, 1)}
            rows.append(row)
            report(", ".join(f"{key} {value}" for key, value in row.items()))
            _write_log(out_dir, rows)
    return rows


def _train_window(model: ZeroNet, optimiser: torch.optim.Optimizer,
                  window: list[tuple[np.ndarray, np.ndarray, np.ndarray]], config: SelfPlayConfig,
                  batch: int = 128) -> tuple[float, float]:
    """Passes over the replay window (with mirror images); mean policy and value losses of the last.
    The policy is a distribution over each position's legal moves, as the engine reads it and as
    supervised training teaches it (an illegal move's logit is left alone: a loss over every entry
    would spend the updates pushing down logits the engine never reads)."""
    import torch
    import torch.nn.functional as F

    from xqdesk.engines.zero.encoding import mirror_codes, mirror_policy
    from xqdesk.engines.zero.supervised import ILLEGAL_LOGIT, legal_entries

    codes = np.concatenate([part[0] for part in window])
    targets = np.concatenate([part[1] for part in window])
    values = np.concatenate([part[2] for part in window])
    codes = np.concatenate([codes, mirror_codes(codes)])
    targets = np.concatenate([targets, mirror_policy(targets)])
    values = np.concatenate([values, values])
    legal = torch.from_numpy(legal_entries(codes, np.ones(len(codes), dtype=bool)))  # mover's frame: "Red" moves
    rng = np.random.default_rng(config.seed)
    policy_sum = value_sum = 0.0
    for _ in range(max(1, config.epochs)):
        model.train()
        policy_sum = value_sum = 0.0
        order = rng.permutation(len(codes))
        for start in range(0, len(order), batch):
            pick = order[start:start + batch]
            if len(pick) < 2:
                continue
            logits, predicted = model(model.planes(torch.from_numpy(codes[pick].astype(np.int64))))
            logits = logits.masked_fill(~legal[pick], ILLEGAL_LOGIT)
            policy_loss = -(torch.from_numpy(targets[pick]) * F.log_softmax(logits, dim=1)).sum(1).mean()
            value_loss = F.mse_loss(predicted, torch.from_numpy(values[pick]))
            optimiser.zero_grad()
            (policy_loss + value_loss).backward()
            optimiser.step()
            policy_sum += policy_loss.item() * len(pick)
            value_sum += value_loss.item() * len(pick)
    model.eval()
    return policy_sum / max(len(codes), 1), value_sum / max(len(codes), 1)


def _write_log(out_dir: Path, rows: list[dict[str, object]]) -> None:
    with open(out_dir / "log.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=LOG_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    plot_log(rows, out_dir / "log.png")


def plot_log(rows: list[dict[str, object]], path: Path) -> Optional[Path]:
    """Loss, arena score and Elo per iteration as a PNG (None when matplotlib is missing)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    x = [int(str(row["iteration"])) for row in rows]
    figure, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    axes[0].plot(x, [float(str(row["policy_loss"])) for row in rows], "o-", label="policy")
    axes[0].plot(x, [float(str(row["value_loss"])) for row in rows], "o-", label="value")
    axes[0].set_title("training loss")
    axes[0].legend()
    axes[1].plot(x, [float(str(row["arena_score"])) for row in rows], "o-")
    axes[1].set_title("arena score (new vs best)")
    axes[1].set_ylim(0, 1)
    axes[2].plot(x, [float(str(row["elo_vs_greedy"])) for row in rows], "o-")
    axes[2].set_title("Elo vs greedy")
    for axis in axes:
        axis.set_xlabel("iteration")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
