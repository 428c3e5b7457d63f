"""Training the built-in engine's learned evaluation (``xqdesk train nnue``; needs torch, the
``train`` extra). The engine itself plays with :mod:`xqdesk.engines.builtin.nnue` and never needs torch.

Data: the labelled positions of :mod:`xqdesk.engines.training.shards`, streamed shard by shard
(:class:`~xqdesk.engines.training.shards.ShardReader`). Only *quiet* positions are used (the side to
move is not in check and the teacher's best move is not a capture), each mirrored left–right with
probability ½ (the rules are symmetric).

Target, in [0, 1] from the side to move's view: ``λ · sigmoid(score / K) + (1 − λ) · (result + 1) / 2``
with the teacher's score in centipawns (a mate's ±(30000 − n) saturates the sigmoid to 0 or 1) and
the game's result. The loss is the mean squared error between ``sigmoid(output)`` and the target;
the network's score is ``output · K`` centipawns, so K is also the file's ``cp_scale``.

``K`` is :data:`DEFAULT_SCALE` unless given (``scale=None``: fitted, the ``K`` for which
``sigmoid(score / K)`` best predicts the games' results; it is reported either way). The fitted K
(about 290 on Fairy-Stockfish's scores) squeezes large scores into the sigmoid's flat ends, where
the loss barely sees them: such networks valued a chariot at about 650 cp where the teacher gives
about 990 and the hand-written evaluation 944, and lost to the hand-written evaluation (36.6% in 71
games at 0.2 s a move); with K = 1000 the same data gave a chariot 899 cp, a horse 387, a cannon 471
(teacher about 290, 460; hand-written 388, 463) and played closer to even.

Held out: the data set's held-out games (``DATA/holdout``); a set without them holds out the
positions whose key is a multiple of :data:`KEY_HOLDOUT`. The held-out loss is reported per epoch.
After training the network is quantised (:meth:`~xqdesk.engines.builtin.nnue.Network.from_float`)
and its scores compared with the float network's on the held-out positions; the file is written only
when they agree within :data:`QUANTISATION_TOLERANCE_CP` on average. A ``.pt`` checkpoint (float
weights and settings, for ``--init``) is written beside the file after every epoch.

Deterministic for a given seed on the CPU (one thread or many); on a GPU torch's scatter-adds may
differ in the last bits between runs.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

import numpy as np
import torch
from torch import nn

from xqdesk.engines.builtin.nnue import FEATURES, NO_FEATURE, PIECE_TYPES, SQUARES, Network, feature_indices
from xqdesk.engines.network_file import read_checkpoint
from xqdesk.engines.training.shards import Labelled, ShardReader
from xqdesk.errors import XqdeskError

DEFAULT_SCALE = 1000.0
"""K in centipawns when none is given (see the module's text)."""
KEY_HOLDOUT = 20
"""Without held-out games, positions whose key is a multiple of this are held out."""
QUANTISATION_TOLERANCE_CP = 3.0
"""Largest mean |quantised − float| score on held-out positions for the file to be written."""
MAX_HOLDOUT = 200_000
"""At most this many held-out positions are scored per epoch."""
SCALE_FIT_POSITIONS = 200_000
SCALE_GRID = tuple(range(50, 1001, 10))
PIECE_FEATURES = 2 * PIECE_TYPES
"""Training-only features (own, enemy) × piece type, whatever the square: see :class:`NnueModel`."""
TRAINING_PAD = FEATURES + PIECE_FEATURES
"""The padding row of the training model's feature transformer."""
_MIRROR_FILES = np.array([rank * 9 + 8 - file for rank in range(10) for file in range(9)], np.int64)


class TrainingError(XqdeskError):
    """Training cannot go on (no data, a bad checkpoint, a quantised network that disagrees)."""


@dataclass(frozen=True)
class TrainingConfig:
    """How ``xqdesk train nnue`` trains (the command's options)."""

    accumulator: int = 256
    hidden: int = 0
    epochs: int = 10
    batch_size: int = 4096
    learning_rate: float = 1e-3
    final_learning_rate: float = 1e-4
    score_weight: float = 0.9
    """λ: the weight of the teacher's score in the target (1 − λ: the game's result)."""
    scale: Optional[float] = DEFAULT_SCALE
    """K in centipawns; None: fitted to the data."""
    seed: int = 0
    device: str = "cpu"
    buffer_shards: int = 4

    def __post_init__(self) -> None:
        if not 1 <= self.accumulator <= 1024:
            raise TrainingError(f"the accumulator must have 1 to 1024 values, got {self.accumulator}")
        if not 0 <= self.hidden <= 64:
            raise TrainingError(f"the hidden layer must have 0 to 64 values, got {self.hidden}")
        if self.epochs < 1 or self.batch_size < 1:
            raise TrainingError(f"epochs and batch size must be positive, got {self.epochs} and {self.batch_size}")
        if not 0.0 <= self.score_weight <= 1.0:
            raise TrainingError(f"the score weight λ must be in [0, 1], got {self.score_weight}")
        if self.scale is not None and not self.scale > 0:
            raise TrainingError(f"the scale K must be positive, got {self.scale}")


@dataclass(frozen=True)
class EpochReport:
    epoch: int
    train_loss: float
    heldout_loss: float
    positions: int
    seconds: float

    def line(self) -> str:
        return (f"epoch {self.epoch}: train loss {self.train_loss:.5f}, held-out loss {self.heldout_loss:.5f} "
                f"({self.positions} positions, {self.seconds:.0f} s)")


@dataclass(frozen=True)
class QuantisationCheck:
    """|quantised − float| scores in centipawns over the held-out positions."""

    mean: float
    p99: float
    worst: float
    positions: int

    def line(self) -> str:
        return (f"quantised vs float network on {self.positions} held-out positions: mean |difference| "
                f"{self.mean:.2f} cp, 99th percentile {self.p99:.1f} cp, largest {self.worst:.1f} cp")


class NnueModel(nn.Module):
    """The float network :class:`~xqdesk.engines.builtin.nnue.Network` quantises: a shared
    feature transformer (sparse: an ``EmbeddingBag`` summing each seat's feature rows) with clipped
    ReLU, the side to move's half first, then optionally a clipped-ReLU hidden layer, then one
    output (the score divided by K).

    While training, each piece also switches on a *piece feature* ((own, enemy) × type, any
    square) whose row is shared by all squares, so what a piece is worth anywhere is learnt from
    every position it stands in, and the square rows learn only where it stands better or worse.
    Exporting adds each piece feature's row to its 90 square rows: the same function, 1,260
    features (:meth:`feature_rows`)."""

    def __init__(self, accumulator: int, hidden: int) -> None:
        super().__init__()
        self.accumulator_size, self.hidden_size = accumulator, hidden
        self.ft = nn.EmbeddingBag(TRAINING_PAD + 1, accumulator, mode="sum", padding_idx=TRAINING_PAD)
        self.ft_bias = nn.Parameter(torch.full((accumulator,), 0.5))
        self.hidden = nn.Linear(2 * accumulator, hidden) if hidden else None
        self.out = nn.Linear(hidden if hidden else 2 * accumulator, 1)
        with torch.no_grad():
            self.ft.weight.normal_(0.0, 0.05)
            self.ft.weight[FEATURES:].zero_()  # piece features start neutral; the padding row stays 0
            self.out.weight.normal_(0.0, 0.5 / math.sqrt(self.out.in_features))
            self.out.bias.zero_()

    @staticmethod
    def training_rows(features: np.ndarray) -> np.ndarray:
        """The rows a seat switches on (int64 (N, 64)) for its features (``feature_indices``'
        rows): each square feature and its piece feature, padding mapped to the padding row."""
        real = features < NO_FEATURE
        squares = np.where(real, features, TRAINING_PAD)
        pieces = np.where(real, FEATURES + features // SQUARES, TRAINING_PAD)
        return np.concatenate([squares, pieces], axis=1)

    def feature_rows(self) -> torch.Tensor:
        """The 1,260 exported rows: each square feature's row plus its piece feature's row."""
        weight = self.ft.weight
        return weight[:FEATURES] + weight[FEATURES:TRAINING_PAD].repeat_interleave(SQUARES, dim=0)

    def forward(self, mover: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
        """Outputs (B,) for the rows (B, 64, :meth:`training_rows`) of the side to move's seat and
        the other's."""
        x = torch.cat([self.ft(mover) + self.ft_bias, self.ft(other) + self.ft_bias], dim=1).clamp(0.0, 1.0)
        if self.hidden is not None:
            x = self.hidden(x).clamp(0.0, 1.0)
        return self.out(x).squeeze(1)

    def clip_weights(self) -> None:
        """Keep every weight inside what quantisation holds (see ``Network.float_limits``)."""
        limits = Network.float_limits()
        with torch.no_grad():
            self.ft.weight.clamp_(-limits["ft"] / 2, limits["ft"] / 2)  # a square's row plus its piece's
            self.ft_bias.clamp_(-limits["ft"], limits["ft"])
            if self.hidden is not None:
                self.hidden.weight.clamp_(-limits["hidden"], limits["hidden"])
            self.out.weight.clamp_(-limits["out"], limits["out"])

    def quantised(self, scale: float, description: str) -> Network:
        """This network as a quantised :class:`Network` (scores in centipawns = output · ``scale``)."""
        def array(tensor: torch.Tensor) -> np.ndarray:
            return np.asarray(tensor.detach().cpu().double().numpy())

        hidden_weights = array(self.hidden.weight) if self.hidden is not None else None
        hidden_bias = array(self.hidden.bias) if self.hidden is not None else None
        return Network.from_float(array(self.feature_rows()), array(self.ft_bias), hidden_weights, hidden_bias,
                                  array(self.out.weight)[0], float(array(self.out.bias)[0]), scale,
                                  description=description)


def quiet_positions(batch: Labelled) -> Labelled:
    """The positions fit to train an evaluation on: not in check, the teacher's best move exists
    and is not a capture."""
    best = batch["moves"][:, 0].astype(np.int64)
    has_move = best >= 0
    target = np.where(has_move, best % 90, 0)
    captures = batch["board"][np.arange(len(best)), target] != 0
    return batch.take(~batch["in_check"] & has_move & ~captures)


def mirrored_boards(boards: np.ndarray) -> np.ndarray:
    """The boards mirrored left to right (file a ↔ file i)."""
    return np.ascontiguousarray(boards[:, _MIRROR_FILES])


def targets(score: np.ndarray, result: np.ndarray, scale: float, score_weight: float) -> np.ndarray:
    """λ · sigmoid(score / K) + (1 − λ) · (result + 1) / 2, float32."""
    expected = 1.0 / (1.0 + np.exp(-np.clip(score.astype(np.float64) / scale, -50.0, 50.0)))
    return (score_weight * expected + (1.0 - score_weight) * (result.astype(np.float64) + 1.0) / 2.0).astype(np.float32)


def fit_scale(positions: Labelled) -> float:
    """The K of :data:`SCALE_GRID` for which sigmoid(score / K) best predicts the games' results
    (least squared error), over ``positions``."""
    score = positions["score"].astype(np.float64)
    outcome = (positions["result"].astype(np.float64) + 1.0) / 2.0
    errors = [float(np.mean((1.0 / (1.0 + np.exp(-np.clip(score / k, -50.0, 50.0))) - outcome) ** 2)) for k in SCALE_GRID]
    return float(SCALE_GRID[int(np.argmin(errors))])


class _Batches:
    """Turns labelled positions into the model's tensors."""

    def __init__(self, config: TrainingConfig, scale: float) -> None:
        self.config, self.scale = config, scale
        self.device = torch.device(config.device)

    def tensors(self, positions: Labelled, rng: Optional[np.random.Generator]) -> tuple[torch.Tensor, ...]:
        """(mover features, other features, target); with ``rng`` each row is mirrored with
        probability ½."""
        boards = positions["board"]
        if rng is not None:
            flip = rng.random(len(boards)) < 0.5
            boards = np.where(flip[:, None], mirrored_boards(boards), boards)
        red = positions["red_to_move"]
        mover = torch.from_numpy(NnueModel.training_rows(feature_indices(boards, red))).to(self.device)
        other = torch.from_numpy(NnueModel.training_rows(feature_indices(boards, ~red))).to(self.device)
        target = torch.from_numpy(targets(positions["score"], positions["result"], self.scale,
                                          self.config.score_weight)).to(self.device)
        return mover, other, target


def _heldout_positions(folders: Sequence[str | Path]) -> tuple[Labelled, bool]:
    """(held-out quiet positions, whether they are the set's held-out games)."""
    reader = ShardReader(folders, holdout=True)
    positions = quiet_positions(reader.all()) if reader.paths else Labelled.empty(1)
    if len(positions):
        return positions.take(np.arange(min(len(positions), MAX_HOLDOUT))), True
    parts: list[Labelled] = []
    count = 0
    for batch in ShardReader(folders).batches(65536, seed=0):
        part = quiet_positions(batch)
        part = part.take(part["key"] % np.uint64(KEY_HOLDOUT) == 0)
        parts.append(part)
        count += len(part)
        if count >= MAX_HOLDOUT:
            break
    positions = Labelled.concatenate(parts, max((part.width for part in parts), default=1))
    return positions.take(np.arange(min(len(positions), MAX_HOLDOUT))), False


def _training_batches(reader: ShardReader, config: TrainingConfig, epoch: int,
                      held_by_key: bool) -> Iterator[Labelled]:
    """The epoch's quiet training positions in batches of about ``batch_size``."""
    pending: list[Labelled] = []
    count = 0
    for batch in reader.batches(config.batch_size, seed=config.seed * 1000 + epoch, buffer_shards=config.buffer_shards):
        part = quiet_positions(batch)
        if held_by_key:
            part = part.take(part["key"] % np.uint64(KEY_HOLDOUT) != 0)
        pending.append(part)
        count += len(part)
        if count >= config.batch_size:
            merged = Labelled.concatenate(pending, max(p.width for p in pending))
            yield merged
            pending, count = [], 0
    if count:
        yield Labelled.concatenate(pending, max(p.width for p in pending))


def _loss(model: NnueModel, mover: torch.Tensor, other: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.mean((torch.sigmoid(model(mover, other)) - target) ** 2)


def classic_heldout_loss(positions: Labelled, scale: float, score_weight: float) -> float:
    """The loss the hand-written evaluation (its static score read through sigmoid(score / K))
    gets on ``positions``: the figure a network has to beat."""
    if len(positions) == 0:
        return math.nan
    from xqdesk.engines.builtin.position import Position

    scores = np.array([Position([int(code) for code in board], bool(red)).evaluate()
                       for board, red in zip(positions["board"], positions["red_to_move"])], np.float64)
    predicted = 1.0 / (1.0 + np.exp(-np.clip(scores / scale, -50.0, 50.0)))
    wanted = targets(positions["score"], positions["result"], scale, score_weight)
    return float(np.mean((predicted - wanted) ** 2))


def heldout_loss(model: NnueModel, batches: _Batches, positions: Labelled, chunk: int = 65536) -> float:
    """The mean loss over ``positions`` (no mirroring)."""
    if len(positions) == 0:
        return math.nan
    model.eval()
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(positions), chunk):
            part = positions.take(np.arange(start, min(start + chunk, len(positions))))
            mover, other, target = batches.tensors(part, None)
            total += float(_loss(model, mover, other, target)) * len(part)
    model.train()
    return total / len(positions)


def float_scores(model: NnueModel, batches: _Batches, positions: Labelled, chunk: int = 65536) -> np.ndarray:
    """The float network's scores in centipawns for the side to move."""
    model.eval()
    scores = []
    with torch.no_grad():
        for start in range(0, len(positions), chunk):
            part = positions.take(np.arange(start, min(start + chunk, len(positions))))
            mover, other, _target = batches.tensors(part, None)
            scores.append(model(mover, other).double().cpu().numpy() * batches.scale)
    model.train()
    return np.concatenate(scores) if scores else np.zeros(0)


def check_quantisation(model: NnueModel, network: Network, batches: _Batches, positions: Labelled) -> QuantisationCheck:
    """How far the quantised network's scores are from the float network's on ``positions``."""
    reference = float_scores(model, batches, positions)
    quantised = network.reference_scores(positions["board"], positions["red_to_move"])
    difference = np.abs(quantised - reference)
    if len(difference) == 0:
        return QuantisationCheck(math.nan, math.nan, math.nan, 0)
    return QuantisationCheck(float(difference.mean()), float(np.percentile(difference, 99)),
                             float(difference.max()), len(difference))


def save_checkpoint(path: Path, model: NnueModel, config: TrainingConfig, scale: float, epoch: int) -> None:
    torch.save({"state": model.state_dict(), "config": asdict(config), "scale": scale, "epoch": epoch}, path)


def load_checkpoint(path: str | Path, config: TrainingConfig) -> NnueModel:
    """A model with the float weights of a checkpoint written by :func:`save_checkpoint` (its
    sizes must match ``config``'s)."""
    saved = read_checkpoint(path, TrainingError)
    try:
        sizes = int(saved["config"]["accumulator"]), int(saved["config"]["hidden"])
    except (OSError, RuntimeError, KeyError, TypeError, ValueError) as error:
        raise TrainingError(f"cannot read checkpoint {str(path)!r}: {error}") from None
    if sizes != (config.accumulator, config.hidden):
        raise TrainingError(f"checkpoint {str(path)!r} has accumulator {sizes[0]} and hidden {sizes[1]}, "
                            f"the training asks for {config.accumulator} and {config.hidden}")
    model = NnueModel(*sizes)
    model.load_state_dict(saved["state"])
    return model


def train_network(folders: Sequence[str | Path], out: str | Path, config: TrainingConfig, *,
                  init: Optional[str | Path] = None, report: Callable[[str], None] = print) -> Network:
    """Train on the data folders, write the quantised network to ``out`` (and ``out`` with suffix
    ``.pt``, the float checkpoint) and return it. TrainingError when there is nothing to train
    on or the quantised network disagrees with the float one."""
    torch.manual_seed(config.seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    out_path = Path(out)
    checkpoint = out_path.with_suffix(".pt")
    reader = ShardReader(folders)
    if not reader.paths:
        raise TrainingError(f"no shards of labelled positions in {', '.join(str(f) for f in folders)}")
    heldout, from_games = _heldout_positions(folders)
    report(f"{reader.positions} training positions in {len(reader.paths)} shards; "
           f"{len(heldout)} quiet held-out positions ({'held-out games' if from_games else f'keys divisible by {KEY_HOLDOUT}'})")
    sample = _scale_sample(reader)
    if len(sample) == 0:
        raise TrainingError("no quiet positions to train on")
    fitted = fit_scale(sample)
    report(f"fitted K = {fitted:.0f} cp on {len(sample)} positions (sigmoid(score / K) against the results); "
           f"{'using it' if config.scale is None else f'training with K = {config.scale:g}'}")
    scale = fitted if config.scale is None else config.scale
    report(f"the hand-written evaluation's held-out loss: {classic_heldout_loss(heldout, scale, config.score_weight):.5f}")
    model = load_checkpoint(init, config) if init is not None else NnueModel(config.accumulator, config.hidden)
    model.to(torch.device(config.device))
    batches = _Batches(config, scale)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng(config.seed)
    for epoch in range(1, config.epochs + 1):
        progress = (epoch - 1) / max(1, config.epochs - 1)
        for group in optimizer.param_groups:  # cosine from the first to the final learning rate
            group["lr"] = config.final_learning_rate + 0.5 * (config.learning_rate - config.final_learning_rate) * (1 + math.cos(math.pi * progress))
        started = time.perf_counter()
        total, count = 0.0, 0
        for positions in _training_batches(reader, config, epoch, not from_games):
            mover, other, target = batches.tensors(positions, rng)
            optimizer.zero_grad(set_to_none=True)
            loss = _loss(model, mover, other, target)
            loss.backward()
            optimizer.step()
            model.clip_weights()
            total += float(loss.detach()) * len(positions)
            count += len(positions)
        if count == 0:
            raise TrainingError("the data holds no quiet training positions")
        entry = EpochReport(epoch, total / count, heldout_loss(model, batches, heldout), count,
                            time.perf_counter() - started)
        report(entry.line())
        save_checkpoint(checkpoint, model, config, scale, epoch)
    description = (f"xqdesk train nnue: accumulator {config.accumulator}, hidden {config.hidden}, "
                   f"{config.epochs} epochs over {count} quiet positions of {', '.join(Path(f).name for f in folders)}, "
                   f"K {scale:.0f}, lambda {config.score_weight}, seed {config.seed}, held-out loss {entry.heldout_loss:.5f}")
    network = model.quantised(scale, description)
    check = check_quantisation(model, network, batches, heldout)
    report(check.line())
    if check.positions and not check.mean <= QUANTISATION_TOLERANCE_CP:
        raise TrainingError(f"the quantised network differs from the float one by {check.mean:.2f} cp on average "
                            f"(more than {QUANTISATION_TOLERANCE_CP}); the float weights are in {str(checkpoint)!r}")
    try:
        network.save(out_path)
    except OSError as error:
        raise TrainingError(f"cannot write {str(out_path)!r}: {error.strerror or error}") from None
    return network


def _scale_sample(reader: ShardReader) -> Labelled:
    """Up to :data:`SCALE_FIT_POSITIONS` quiet training positions with a decisive score range."""
    parts: list[Labelled] = []
    count = 0
    for batch in reader.batches(65536, seed=0):
        part = quiet_positions(batch)
        part = part.take(np.abs(part["score"].astype(np.int64)) < 10000)  # mate scores say nothing about K
        parts.append(part)
        count += len(part)
        if count >= SCALE_FIT_POSITIONS:
            break
    return Labelled.concatenate(parts, max((p.width for p in parts), default=1))


__all__ = ["EpochReport", "NnueModel", "QuantisationCheck", "TrainingConfig", "TrainingError", "check_quantisation",
           "fit_scale", "load_checkpoint", "mirrored_boards", "quiet_positions", "targets", "train_network"]

