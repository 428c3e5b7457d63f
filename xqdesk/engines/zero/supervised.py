"""Supervised training of the ``zero`` network on labelled positions (needs torch: ``xqdesk[train]``).

The positions are the shards ``xqdesk train data`` writes (:mod:`xqdesk.engines.training.shards`),
streamed a few shards at a time. For each position the targets are:

- **policy**: the teacher's MultiPV lines as a soft distribution, ``softmax(score / T)`` over the
  lines' first moves (``T`` = :attr:`Targets.policy_temperature` centipawns); for a master game's
  position a share :attr:`Targets.master_weight` of it goes to the move the master played;
- **value**: ``λ · tanh(score / SCALE_CP) + (1 − λ) · result`` from the side to move's view
  (``λ`` = :attr:`Targets.score_weight`; a mate is ±1).

A position no teacher searched (a set made with ``--teacher none``: no lines, no score) has the
played move as its whole policy target and the result as its value target.

The policy is trained as a distribution over the legal moves only (the others' logits are masked
out), as the engine reads it, and the held-out agreement is its favourite legal move's, as
``bench/zero_policy.py`` counts it. Every batch has half its positions mirrored left to right. The learning rate follows a one-cycle
schedule (AdamW). After each epoch the network is written (``.npz`` for the engine with how it was
made, ``.pt`` to resume) and measured on the held-out master games the data set keeps apart:
top-1 agreement of the policy with the master's move (the network's favourite of all entries) and
the value's mean squared error against the results. ``device`` may be ``cuda``: batches then run in
bfloat16 autocast; the exported network is float32 numpy either way.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence, cast

import numpy as np
import torch
import torch.nn.functional as F

from xqdesk.engines.builtin import board_kernel
from xqdesk.engines.builtin.eval_tables import SHIPPED_PARAMS
from xqdesk.engines.mcts.playout import SCALE_CP
from xqdesk.engines.training.shards import MASTER, Labelled, ShardReader, read_manifest
from xqdesk.engines.zero.encoding import (
    MIRROR_PERMUTATION,
    POLICY_INDEX,
    POLICY_SIZE,
    ROTATED_POLICY_INDEX,
    mirror_codes,
    mirror_policy,
)
from xqdesk.engines.zero.model import ZeroNet, calibrate_normalisation, export, save_checkpoint

ILLEGAL_LOGIT = -1e4
"""What an illegal move's logit becomes in training (its probability underflows to 0)."""


@dataclass(frozen=True)
class Targets:
    """How labels become training targets (module docstring)."""

    policy_temperature: float = 60.0
    master_weight: float = 0.5
    score_weight: float = 0.7


@dataclass(frozen=True)
class EpochReport:
    epoch: int
    train_policy_loss: float
    train_value_loss: float
    heldout_accuracy: float
    heldout_value_loss: float
    seconds: float

    def line(self) -> str:
        return (f"epoch {self.epoch}: train policy loss {self.train_policy_loss:.3f}, value loss "
                f"{self.train_value_loss:.3f}; held-out top-1 agreement with the masters "
                f"{100 * self.heldout_accuracy:.1f}%, value loss {self.heldout_value_loss:.3f} ({self.seconds:.0f} s)")


@dataclass
class Batch:
    """Network inputs and targets of a batch: mover-frame codes (B, 90), policy entries and their
    weights (B, K + 1; weight 0 pads), values (B,), the master's entry (B,; −1 when none)."""

    codes: np.ndarray
    entries: np.ndarray
    weights: np.ndarray
    values: np.ndarray
    played: np.ndarray
    legal: np.ndarray
    """(B, 2086) bool: the entries of each position's legal moves (all true where unknown)."""


def legal_entries(board: np.ndarray, red_to_move: np.ndarray) -> np.ndarray:
    """(N, 2086) bool: the policy entries (mover's frame) of each position's legal moves under the
    course's rules but the history-based perpetual-check ban (the built-in engine's kernel); a row
    that is no position (no king) has every entry true."""
    legal = np.zeros((len(board), POLICY_SIZE), dtype=bool)
    if not len(board):
        return legal
    # the kernel's move generator on a bare position (no history: keys, clocks and scores unused)
    keys = np.zeros(board_kernel.STACK_SIZE, np.uint64)
    clocks = np.zeros(board_kernel.STACK_SIZE, np.int64)
    psq = np.zeros(board_kernel.STACK_SIZE, np.int64)
    params = SHIPPED_PARAMS.for_codes(board[0].tolist())
    out = np.empty(board_kernel.MAX_MOVES, np.int64)
    for row in range(len(board)):
        codes = np.array(board[row], dtype=np.int8)
        red_kings, black_kings = np.flatnonzero(codes == 7), np.flatnonzero(codes == -7)
        if len(red_kings) != 1 or len(black_kings) != 1:
            legal[row] = True
            continue
        pos = np.array([1 if red_to_move[row] else -1, red_kings[0], black_kings[0], 0], dtype=np.int64)
        n = board_kernel.legal_moves(codes, pos, keys, clocks, psq, params, out)
        moves = out[:n]
        table = POLICY_INDEX if red_to_move[row] else ROTATED_POLICY_INDEX
        legal[row, table[(moves >> 7) * 90 + (moves & 127)]] = True
    return legal


def make_batch(data: Labelled, targets: Targets, mirror: Optional[np.ndarray] = None) -> Batch:
    """The training view of labelled positions; rows where ``mirror`` is true are mirrored."""
    red = data["red_to_move"]
    board = data["board"].astype(np.int8)
    codes = np.where(red[:, None], board, -board[:, ::-1]).astype(np.int8)

    def entries_of(moves: np.ndarray) -> np.ndarray:
        safe = np.maximum(moves.astype(np.int64), 0)
        table = np.where(red[:, None] if moves.ndim == 2 else red, POLICY_INDEX[safe], ROTATED_POLICY_INDEX[safe])
        return np.where(moves >= 0, table, -1)

    lines = entries_of(data["moves"])
    scores = data["move_scores"].astype(np.float64)
    valid = lines >= 0
    searched = valid[:, 0]  # rows of a set made without a teacher have no lines and no score
    logits = np.where(valid, (scores - scores[:, :1]) / targets.policy_temperature, -np.inf)
    logits[~searched, 0] = 0.0  # (their soft part gets no weight below)
    soft = np.exp(logits - logits.max(axis=1, keepdims=True))
    soft /= soft.sum(axis=1, keepdims=True)
    played = entries_of(data["played"])
    master = (data["source"] == MASTER) & (played >= 0)
    share = np.where(master, np.where(searched, targets.master_weight, 1.0), 0.0)
    soft_share = np.where(searched, 1 - share, 0.0)
    entries = np.concatenate([lines, played[:, None]], axis=1)
    weights = np.concatenate([soft * soft_share[:, None], share[:, None]], axis=1)
    weights = np.where(entries >= 0, weights, 0.0)
    entries = np.maximum(entries, 0)
    score_weight = np.where(searched, targets.score_weight, 0.0)
    value = score_weight * np.tanh(data["score"] / SCALE_CP) + (1 - score_weight) * data["result"]
    legal = legal_entries(data["board"], red)
    if mirror is not None and mirror.any():
        codes[mirror] = mirror_codes(codes[mirror])
        entries[mirror] = MIRROR_PERMUTATION[entries[mirror]]
        played = np.where(mirror & (played >= 0), MIRROR_PERMUTATION[np.maximum(played, 0)], played)
        legal[mirror] = mirror_policy(legal[mirror])
    return Batch(codes, entries, weights.astype(np.float32), value.astype(np.float32), played, legal)


def _forward(model: ZeroNet, batch: Batch, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy logits, values) of a batch, in float32."""
    codes = torch.from_numpy(batch.codes.astype(np.int64)).to(device)
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
        logits, values = model(model.planes(codes))
    return logits.float(), values.float()


def _legal_logits(logits: torch.Tensor, batch: Batch) -> torch.Tensor:
    """The logits with every illegal move's set far below: the policy is a distribution over the
    legal moves, as the engine uses it (its priors are the softmax of the legal moves' logits)."""
    return logits.masked_fill(~torch.from_numpy(batch.legal).to(logits.device), ILLEGAL_LOGIT)


def _losses(logits: torch.Tensor, values: torch.Tensor, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy cross-entropy against the soft targets over the legal moves, value squared error)
    of a batch."""
    entries = torch.from_numpy(batch.entries).to(logits.device)
    weights = torch.from_numpy(batch.weights).to(logits.device)
    policy_loss = -(F.log_softmax(_legal_logits(logits, batch), dim=1).gather(1, entries) * weights).sum(1).mean()
    return policy_loss, F.mse_loss(values, torch.from_numpy(batch.values).to(values.device))


def evaluate(model: ZeroNet, heldout: Labelled, targets: Targets, device: torch.device,
             batch_size: int = 2048) -> tuple[float, float]:
    """(top-1 agreement of the policy with the played move, value MSE against the results) on
    held-out positions."""
    if len(heldout) == 0:
        return math.nan, math.nan
    model.eval()
    hits = total = 0
    value_error = 0.0
    with torch.no_grad():
        for start in range(0, len(heldout), batch_size):
            part = heldout.take(np.arange(start, min(start + batch_size, len(heldout))))
            batch = make_batch(part, targets)
            logits, values = _forward(model, batch, device)
            known = batch.played >= 0
            best = _legal_logits(logits, batch).argmax(1).cpu().numpy()
            hits += int((best[known] == batch.played[known]).sum())
            total += int(known.sum())
            value_error += float(((values.cpu().numpy() - part["result"]) ** 2).sum())
    return hits / max(total, 1), value_error / len(heldout)


def heldout_games(heldout: Labelled, positions: Optional[int], seed: int = 0) -> Labelled:
    """Whole held-out games drawn at random (by ``seed``) until they hold about ``positions``
    positions; all of them when ``positions`` is None or more than there are."""
    if positions is None or len(heldout) <= positions:
        return heldout
    games, counts = np.unique(heldout["game"], return_counts=True)
    order = np.random.default_rng(seed).permutation(len(games))
    chosen = games[order[:int(np.searchsorted(np.cumsum(counts[order]), positions)) + 1]]
    return heldout.take(np.isin(heldout["game"], chosen))


def pick_device(name: str) -> torch.device:
    """``auto`` (cuda when there is one), ``cpu`` or ``cuda``; ValueError when asked for a GPU
    that is not there."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("--device cuda: torch sees no GPU here")
    return torch.device(name)


def train_from_shards(data: Sequence[str | Path], out: str | Path, epochs: int, model: ZeroNet,
                      targets: Targets = Targets(), batch_size: int = 512, learning_rate: float = 2e-3,
                      weight_decay: float = 1e-4, device: str = "cpu", seed: int = 0,
                      max_positions: Optional[int] = None, buffer_shards: int = 4,
                      heldout_positions: Optional[int] = None,
                      report: Optional[Callable[[EpochReport], None]] = None,
                      progress: Optional[Callable[[int, int], None]] = None,
                      calibrate_positions: int = 0, average: Optional[float] = None) -> list[EpochReport]:
    """Train ``model`` on the shards of the data folders ``data`` and write ``out`` (and ``out``'s
    ``.pt``) after every epoch, and ``out``'s ``.best.npz`` whenever the held-out agreement is the
    best so far; ``max_positions`` caps the positions read per epoch (an epoch is then that many
    positions of a fresh shuffle); ``buffer_shards`` shards are shuffled together;
    ``heldout_positions`` caps the held-out positions measured after each epoch (whole games, the
    same ones every epoch: :func:`heldout_games`);
    ``progress(step, steps)`` after each step; ``calibrate_positions`` (for a model read from a
    ``.npz``): first re-express its normalisations on that many training positions
    (:func:`~xqdesk.engines.zero.model.calibrate_normalisation`), so training starts from its play;
    ``average`` (a decay in (0, 1), such as 0.999): the network measured and written to ``out`` is
    the exponential moving average of the weights and normalisation statistics after every step,
    not the last step's weights (``out``'s ``.pt`` keeps the trained weights, to train on)."""
    if average is not None and not 0 < average < 1:
        raise ValueError(f"the average's decay must lie in (0, 1), not {average}")
    torch.manual_seed(seed)
    started = time.perf_counter()
    where = pick_device(device)
    model.to(where)
    reader = ShardReader(data)
    if calibrate_positions > 0:
        sample = make_batch(next(iter(reader.batches(calibrate_positions, seed=seed))), targets)
        calibrate_normalisation(model, model.planes(torch.from_numpy(sample.codes.astype(np.int64)).to(where)))
    heldout = heldout_games(ShardReader(data, holdout=True).all(), heldout_positions, seed)
    per_epoch = min(reader.positions, max_positions) if max_positions else reader.positions
    steps = max(1, epochs * math.ceil(per_epoch / batch_size))
    optimiser = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=learning_rate, total_steps=steps,
                                                    pct_start=0.1)
    averaged = None if average is None else torch.optim.swa_utils.AveragedModel(
        model, multi_avg_fn=_moving_average(average), use_buffers=True)
    rng = np.random.default_rng(seed)
    out = Path(out)
    reports: list[EpochReport] = []
    step = 0
    best = -1.0
    for epoch in range(1, epochs + 1):
        epoch_started = time.perf_counter()
        model.train()
        policy_sum = value_sum = 0.0
        seen = 0
        for part in reader.batches(batch_size, seed=seed + epoch, buffer_shards=buffer_shards):
            if len(part) < 2 or step >= steps or (max_positions and seen >= max_positions):
                break
            batch = make_batch(part, targets, rng.random(len(part)) < 0.5)
            policy_loss, value_loss = _losses(*_forward(model, batch, where), batch)
            optimiser.zero_grad(set_to_none=True)
            (policy_loss + value_loss).backward()
            optimiser.step()
            scheduler.step()
            if averaged is not None:
                averaged.update_parameters(model)
            step += 1
            policy_sum += policy_loss.item() * len(part)
            value_sum += value_loss.item() * len(part)
            seen += len(part)
            if progress is not None:
                progress(step, steps)
        written = model if averaged is None else cast(ZeroNet, averaged.module)
        accuracy, value_error = evaluate(written, heldout, targets, where)
        entry = EpochReport(epoch, policy_sum / max(seen, 1), value_sum / max(seen, 1), accuracy, value_error,
                            time.perf_counter() - epoch_started)
        reports.append(entry)
        if report is not None:
            report(entry)
        model.to("cpu")
        written.to("cpu")
        made = {"data": [_describe(folder) for folder in data], "epochs": epoch, "positions_per_epoch": per_epoch,
                "batch": batch_size, "learning_rate": learning_rate, "average": average, "targets": asdict(targets),
                "network": {"channels": model.channels, "blocks": model.blocks, "hidden": model.hidden,
                            **asdict(model.head)},
                "device": where.type, "seconds": round(time.perf_counter() - started),
                "heldout_agreement": round(accuracy, 4), "heldout_value_loss": round(value_error, 4),
                "heldout_positions": len(heldout)}
        network = export(written)
        network.provenance = json.dumps(made, sort_keys=True)
        network.save(out)
        if accuracy > best:
            best = accuracy
            network.save(out.with_suffix(".best.npz"))
        save_checkpoint(model, out.with_suffix(".pt"), {"made": made})
        model.to(where)
        written.to(where)
    return reports


Tensors = tuple[torch.Tensor, ...] | list[torch.Tensor]
"""What :class:`torch.optim.swa_utils.AveragedModel` passes an update: one model's tensors."""


def _moving_average(decay: float) -> Callable[[Tensors, Tensors, torch.Tensor | int], None]:
    """The update of :class:`torch.optim.swa_utils.AveragedModel` that moves each floating-point
    tensor (weights, normalisation statistics) a share ``1 − decay`` towards the trained model's
    and copies the others (tables of indices, counters), which an average would corrupt."""

    @torch.no_grad()
    def update(averages: Tensors, currents: Tensors, _count: torch.Tensor | int) -> None:
        for average, current in zip(averages, currents):
            if average.is_floating_point():
                average.lerp_(current, 1 - decay)
            else:
                average.copy_(current)

    return update


def _describe(folder: str | Path) -> dict[str, object]:
    manifest = read_manifest(folder)
    return {"settings": manifest["settings"], "positions": manifest["positions"], "games": manifest["games"]}


__all__ = ["Batch", "EpochReport", "Targets", "evaluate", "heldout_games", "make_batch", "pick_device",
           "train_from_shards"]
