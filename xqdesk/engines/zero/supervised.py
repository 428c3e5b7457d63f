"""Supervised training of the ``zero`` network on game records (needs torch: ``xqdesk[train]``).

Targets: the move played (cross-entropy over the policy index) and the game's result from the
mover's view (squared error), as :mod:`xqdesk.engines.zero.dataset` reads them. Every training
position is used with its left–right mirror image. Every ``holdout``-th game (by number) is held
out; after each epoch the held-out top-1 policy accuracy (the network's favourite entry equals the
master's move) and value loss (mean squared error) are printed.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import torch
import torch.nn.functional as F

from xqdesk.engines.zero.dataset import Positions
from xqdesk.engines.zero.model import ZeroNet, export, save_checkpoint


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
                f"{self.train_value_loss:.3f}; held-out top-1 accuracy {100 * self.heldout_accuracy:.1f}%, "
                f"value loss {self.heldout_value_loss:.3f} ({self.seconds:.0f} s)")


def split(positions: Positions, holdout: int) -> tuple[Positions, Positions]:
    """(training, held-out): games whose number is a multiple of ``holdout`` are held out."""
    held = positions.game % holdout == 0 if holdout > 0 else np.zeros(len(positions), bool)
    return positions.subset(~held), positions.subset(held)


def evaluate(model: ZeroNet, positions: Positions, batch: int = 1024) -> tuple[float, float]:
    """(top-1 policy accuracy, value mean squared error) of ``model`` on ``positions``."""
    if len(positions) == 0:
        return math.nan, math.nan
    model.eval()
    hits, value_error = 0, 0.0
    with torch.no_grad():
        for start in range(0, len(positions), batch):
            codes = torch.from_numpy(positions.codes[start:start + batch].astype(np.int64))
            logits, values = model(model.planes(codes))
            hits += int((logits.argmax(1) == torch.from_numpy(positions.policy[start:start + batch])).sum())
            value_error += float(((values - torch.from_numpy(positions.value[start:start + batch])) ** 2).sum())
    return hits / len(positions), value_error / len(positions)


def train_epochs(model: ZeroNet, train: Positions, heldout: Positions, epochs: int, batch: int = 256,
                 learning_rate: float = 2e-3, weight_decay: float = 1e-4, value_weight: float = 1.0,
                 seed: int = 0, report: Optional[Callable[[EpochReport], None]] = None,
                 after_epoch: Optional[Callable[[ZeroNet], None]] = None) -> list[EpochReport]:
    """Train ``model`` in place for ``epochs`` passes over ``train`` (AdamW, one-cycle learning
    rate); ``after_epoch(model)`` runs after each epoch (the model in eval mode)."""
    rng = np.random.default_rng(seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    steps = max(1, epochs * math.ceil(len(train) / batch))
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=learning_rate, total_steps=steps,
                                                    pct_start=0.1)
    reports = []
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        model.train()
        order = rng.permutation(len(train))
        policy_sum, value_sum, count = 0.0, 0.0, 0
        for start in range(0, len(order), batch):
            pick = order[start:start + batch]
            if len(pick) < 2:
                continue
            codes = torch.from_numpy(train.codes[pick].astype(np.int64))
            logits, values = model(model.planes(codes))
            policy_loss = F.cross_entropy(logits, torch.from_numpy(train.policy[pick]))
            value_loss = F.mse_loss(values, torch.from_numpy(train.value[pick]))
            loss = policy_loss + value_weight * value_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if scheduler.last_epoch < steps - 1:
                scheduler.step()
            policy_sum += policy_loss.item() * len(pick)
            value_sum += value_loss.item() * len(pick)
            count += len(pick)
        accuracy, value_error = evaluate(model, heldout)
        entry = EpochReport(epoch, policy_sum / max(count, 1), value_sum / max(count, 1), accuracy, value_error,
                            time.perf_counter() - started)
        reports.append(entry)
        if report is not None:
            report(entry)
        if after_epoch is not None:
            after_epoch(model)
    return reports


def train_supervised(positions: Positions, out: str | Path, epochs: int, channels: int = 32, blocks: int = 4,
                     hidden: int = 64, holdout: int = 10, batch: int = 256, learning_rate: float = 2e-3,
                     seed: int = 0, report: Optional[Callable[[EpochReport], None]] = None,
                     model: Optional[ZeroNet] = None) -> list[EpochReport]:
    """Train a new network (or ``model``) and write ``out`` (.npz for the engine) and ``out``'s
    ``.pt`` checkpoint beside it, after every epoch."""
    torch.manual_seed(seed)
    train, heldout = split(positions, holdout)
    model = model or ZeroNet(channels, blocks, hidden)
    out = Path(out)

    def write(trained: ZeroNet) -> None:
        export(trained).save(out)
        save_checkpoint(trained, out.with_suffix(".pt"),
                        {"epochs": epochs, "positions": len(train), "heldout_positions": len(heldout)})

    return train_epochs(model, train.with_mirrors(), heldout, epochs, batch, learning_rate, seed=seed,
                        report=report, after_epoch=write)
