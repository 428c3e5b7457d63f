"""The ``zero`` network in torch, for training (``pip install xqdesk[train]``), and its export to
the numpy :class:`~xqdesk.engines.zero.network.Network` the engine plays with.

The architecture is the one :mod:`xqdesk.engines.zero.network` documents, with batch
normalisation after every convolution; :func:`export` folds it into the convolutions.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from xqdesk.engines.zero.encoding import PLANE_TABLE, PLANES, POLICY_SIZE
from xqdesk.engines.zero.network import POLICY_CHANNELS, Network
from xqdesk.squares import FILES, RANKS

SQUARES = RANKS * FILES


class _Block(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)


class ZeroNet(nn.Module):
    """Policy/value residual CNN; input planes (B, 10, 9, 15) as the encoding gives them."""

    plane_table: torch.Tensor

    def __init__(self, channels: int = 32, blocks: int = 4, hidden: int = 64) -> None:
        super().__init__()
        self.channels, self.blocks, self.hidden = channels, blocks, hidden
        self.stem = nn.Conv2d(PLANES, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.tower = nn.ModuleList(_Block(channels) for _ in range(blocks))
        self.policy_conv = nn.Conv2d(channels, POLICY_CHANNELS, 1, bias=False)
        self.policy_bn = nn.BatchNorm2d(POLICY_CHANNELS)
        self.policy_fc = nn.Linear(SQUARES * POLICY_CHANNELS, POLICY_SIZE)
        self.value_conv = nn.Conv2d(channels, 1, 1, bias=False)
        self.value_bn = nn.BatchNorm2d(1)
        self.value_fc1 = nn.Linear(SQUARES, hidden)
        self.value_fc2 = nn.Linear(hidden, 1)
        self.register_buffer("plane_table", torch.from_numpy(PLANE_TABLE.copy()))

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """planes (B, 10, 9, 15) -> (policy logits (B, 2086), values (B,))."""
        x = planes.permute(0, 3, 1, 2)
        x = torch.relu(self.stem_bn(self.stem(x)))
        for block in self.tower:
            x = block(x)
        batch = x.shape[0]
        p = torch.relu(self.policy_bn(self.policy_conv(x))).permute(0, 2, 3, 1).reshape(batch, -1)
        v = torch.relu(self.value_bn(self.value_conv(x))).permute(0, 2, 3, 1).reshape(batch, -1)
        v = torch.relu(self.value_fc1(v))
        return self.policy_fc(p), torch.tanh(self.value_fc2(v)).reshape(batch)

    def planes(self, codes: torch.Tensor) -> torch.Tensor:
        """Mover-frame codes (B, 90) int64 -> planes (B, 10, 9, 15)."""
        return self.plane_table[codes + 7].reshape(codes.shape[0], RANKS, FILES, PLANES)


def _fold(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> tuple[np.ndarray, np.ndarray]:
    """A convolution followed by batch norm (eval mode) as one weight (rows kh, kw, C_in) and bias."""
    weight = conv.weight.detach().double()
    assert bn.running_var is not None and bn.running_mean is not None
    scale = bn.weight.detach().double() / torch.sqrt(bn.running_var.detach().double() + bn.eps)
    bias = bn.bias.detach().double() - bn.running_mean.detach().double() * scale
    folded = weight * scale[:, None, None, None]  # (C_out, C_in, kh, kw)
    matrix = folded.permute(2, 3, 1, 0).reshape(-1, folded.shape[0])
    return matrix.float().numpy(), bias.float().numpy()


def export(model: ZeroNet) -> Network:
    """The numpy network computing what ``model`` computes in eval mode."""
    arrays: dict[str, np.ndarray] = {}
    arrays["stem.w"], arrays["stem.b"] = _fold(model.stem, model.stem_bn)
    for i, block in enumerate(model.tower):
        assert isinstance(block, _Block)
        arrays[f"block{i}.conv1.w"], arrays[f"block{i}.conv1.b"] = _fold(block.conv1, block.bn1)
        arrays[f"block{i}.conv2.w"], arrays[f"block{i}.conv2.b"] = _fold(block.conv2, block.bn2)
    arrays["policy.conv.w"], arrays["policy.conv.b"] = _fold(model.policy_conv, model.policy_bn)
    arrays["value.conv.w"], arrays["value.conv.b"] = _fold(model.value_conv, model.value_bn)
    for name, layer in (("policy.fc", model.policy_fc), ("value.fc1", model.value_fc1), ("value.fc2", model.value_fc2)):
        arrays[f"{name}.w"] = layer.weight.detach().float().numpy().T.copy()
        arrays[f"{name}.b"] = layer.bias.detach().float().numpy().copy()
    return Network(arrays, model.channels, model.blocks, model.hidden)


def _unfold(conv: nn.Conv2d, bn: nn.BatchNorm2d, matrix: np.ndarray, bias: np.ndarray) -> None:
    """Set ``conv`` and ``bn`` so that, in eval mode, they compute the folded ``matrix`` and ``bias``
    (the inverse of :func:`_fold`: the normalisation starts as the identity)."""
    out_channels, in_channels, kh, kw = conv.weight.shape
    weight = torch.from_numpy(np.asarray(matrix, np.float32).reshape(kh, kw, in_channels, out_channels))
    with torch.no_grad():
        conv.weight.copy_(weight.permute(3, 2, 0, 1))
        bn.weight.fill_(1.0)
        bn.bias.copy_(torch.from_numpy(np.asarray(bias, np.float32)))
        assert bn.running_mean is not None and bn.running_var is not None
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)


def from_network(network: Network) -> ZeroNet:
    """A torch model computing what the numpy ``network`` computes (in eval mode), to train on from a
    shipped ``.npz``; :func:`export` of it gives the same network back."""
    model = ZeroNet(network.channels, network.blocks, network.hidden)
    arrays = network.arrays
    _unfold(model.stem, model.stem_bn, arrays["stem.w"], arrays["stem.b"])
    for i, block in enumerate(model.tower):
        assert isinstance(block, _Block)
        _unfold(block.conv1, block.bn1, arrays[f"block{i}.conv1.w"], arrays[f"block{i}.conv1.b"])
        _unfold(block.conv2, block.bn2, arrays[f"block{i}.conv2.w"], arrays[f"block{i}.conv2.b"])
    _unfold(model.policy_conv, model.policy_bn, arrays["policy.conv.w"], arrays["policy.conv.b"])
    _unfold(model.value_conv, model.value_bn, arrays["value.conv.w"], arrays["value.conv.b"])
    with torch.no_grad():
        for name, layer in (("policy.fc", model.policy_fc), ("value.fc1", model.value_fc1),
                            ("value.fc2", model.value_fc2)):
            layer.weight.copy_(torch.from_numpy(np.asarray(arrays[f"{name}.w"], np.float32).T.copy()))
            layer.bias.copy_(torch.from_numpy(np.asarray(arrays[f"{name}.b"], np.float32)))
    return model


def save_checkpoint(model: ZeroNet, path: str | Path, extra: dict[str, Any] | None = None) -> None:
    """The torch state (to resume training) with the sizes needed to rebuild the model."""
    torch.save({"channels": model.channels, "blocks": model.blocks, "hidden": model.hidden,
                "state": model.state_dict(), **(extra or {})}, Path(path))


def load_checkpoint(path: str | Path) -> ZeroNet:
    try:
        data = torch.load(Path(path), map_location="cpu", weights_only=True)
    except (OSError, RuntimeError) as error:
        raise ValueError(f"cannot read checkpoint {str(path)!r}: {error}") from None
    model = ZeroNet(int(data["channels"]), int(data["blocks"]), int(data["hidden"]))
    model.load_state_dict(data["state"])
    return model
