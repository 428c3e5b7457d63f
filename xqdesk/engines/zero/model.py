"""The ``zero`` network in torch, for training (``pip install xqdesk[train]``), and its export to
the numpy :class:`~xqdesk.engines.zero.network.Network` the engine plays with.

The architecture is the one :mod:`xqdesk.engines.zero.network` documents, with batch
normalisation after every convolution; :func:`export` folds it into the convolutions.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from xqdesk.engines.network_file import read_checkpoint
from xqdesk.engines.zero.encoding import PLANE_TABLE, PLANES, POLICY_SIZE
from xqdesk.engines.zero.network import FIRST_HEAD, PAIR_INDEX, SQUARES, Head, Network
from xqdesk.squares import FILES, RANKS


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

    pair_index: torch.Tensor

    def __init__(self, channels: int = 32, blocks: int = 4, hidden: int = 64, head: Head = FIRST_HEAD) -> None:
        super().__init__()
        head.check()
        self.channels, self.blocks, self.hidden, self.head = channels, blocks, hidden, head
        p, v = head.policy_channels, head.value_channels
        self.stem = nn.Conv2d(PLANES, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.tower = nn.ModuleList(_Block(channels) for _ in range(blocks))
        if head.policy == "fc":
            self.policy_conv = nn.Conv2d(channels, p, 1, bias=False)
            self.policy_bn = nn.BatchNorm2d(p)
            self.policy_fc = nn.Linear(SQUARES * p, POLICY_SIZE)
        else:  # from-square x to-square: no normalisation, the vectors' signs carry the logits
            self.policy_from = nn.Linear(channels, p)
            self.policy_to = nn.Linear(channels, p)
            self.policy_bias = nn.Parameter(torch.zeros(POLICY_SIZE))
            self.register_buffer("pair_index", torch.from_numpy(PAIR_INDEX.copy()), persistent=False)
        self.value_conv = nn.Conv2d(channels, v, 1, bias=False)
        self.value_bn = nn.BatchNorm2d(v)
        self.value_fc1 = nn.Linear(SQUARES * v, hidden)
        self.value_fc2 = nn.Linear(hidden, 1)
        self.register_buffer("plane_table", torch.from_numpy(PLANE_TABLE.copy()))

    @property
    def pair_scale(self) -> float:
        """The factor of a ``pair`` head's dot products (1/√P, folded into the "from" vectors on export)."""
        return 1.0 / math.sqrt(self.head.policy_channels)

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """planes (B, 10, 9, 15) -> (policy logits (B, 2086), values (B,))."""
        x = planes.permute(0, 3, 1, 2)
        x = torch.relu(self.stem_bn(self.stem(x)))
        for block in self.tower:
            x = block(x)
        batch = x.shape[0]
        if self.head.policy == "fc":
            p = torch.relu(self.policy_bn(self.policy_conv(x))).permute(0, 2, 3, 1).reshape(batch, -1)
            logits = self.policy_fc(p)
        else:
            squares = x.permute(0, 2, 3, 1).reshape(batch, SQUARES, self.channels)
            origins = self.policy_from(squares) * self.pair_scale
            table = torch.bmm(origins, self.policy_to(squares).transpose(1, 2)).reshape(batch, SQUARES * SQUARES)
            logits = table[:, self.pair_index] + self.policy_bias
        v = torch.relu(self.value_bn(self.value_conv(x))).permute(0, 2, 3, 1).reshape(batch, -1)
        v = torch.relu(self.value_fc1(v))
        return logits, torch.tanh(self.value_fc2(v)).reshape(batch)

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
    linear = [("value.fc1", model.value_fc1, 1.0), ("value.fc2", model.value_fc2, 1.0)]
    if model.head.policy == "fc":
        arrays["policy.conv.w"], arrays["policy.conv.b"] = _fold(model.policy_conv, model.policy_bn)
        linear.append(("policy.fc", model.policy_fc, 1.0))
    else:
        linear += [("policy.from", model.policy_from, model.pair_scale), ("policy.to", model.policy_to, 1.0)]
        arrays["policy.bias"] = model.policy_bias.detach().float().numpy().copy()
    arrays["value.conv.w"], arrays["value.conv.b"] = _fold(model.value_conv, model.value_bn)
    for name, layer, scale in linear:
        arrays[f"{name}.w"] = (layer.weight.detach().double().numpy().T * scale).astype(np.float32)
        arrays[f"{name}.b"] = (layer.bias.detach().double().numpy() * scale).astype(np.float32)
    return Network(arrays, model.channels, model.blocks, model.hidden, model.head)


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
    model = ZeroNet(network.channels, network.blocks, network.hidden, network.head)
    arrays = network.arrays
    _unfold(model.stem, model.stem_bn, arrays["stem.w"], arrays["stem.b"])
    for i, block in enumerate(model.tower):
        assert isinstance(block, _Block)
        _unfold(block.conv1, block.bn1, arrays[f"block{i}.conv1.w"], arrays[f"block{i}.conv1.b"])
        _unfold(block.conv2, block.bn2, arrays[f"block{i}.conv2.w"], arrays[f"block{i}.conv2.b"])
    linear = [("value.fc1", model.value_fc1, 1.0), ("value.fc2", model.value_fc2, 1.0)]
    if network.head.policy == "fc":
        _unfold(model.policy_conv, model.policy_bn, arrays["policy.conv.w"], arrays["policy.conv.b"])
        linear.append(("policy.fc", model.policy_fc, 1.0))
    else:
        linear += [("policy.from", model.policy_from, 1.0 / model.pair_scale), ("policy.to", model.policy_to, 1.0)]
        with torch.no_grad():
            model.policy_bias.copy_(torch.from_numpy(np.asarray(arrays["policy.bias"], np.float32)))
    _unfold(model.value_conv, model.value_bn, arrays["value.conv.w"], arrays["value.conv.b"])
    with torch.no_grad():
        for name, layer, scale in linear:
            weight = np.asarray(arrays[f"{name}.w"], np.float64).T * scale
            layer.weight.copy_(torch.from_numpy(weight.astype(np.float32)))
            layer.bias.copy_(torch.from_numpy((np.asarray(arrays[f"{name}.b"], np.float64) * scale).astype(np.float32)))
    return model


def calibrate_normalisation(model: ZeroNet, planes: torch.Tensor) -> None:
    """Re-express every batch normalisation of ``model`` so that, on the batch ``planes``, training
    mode (which normalises by the batch's own statistics) computes what eval mode computes now.

    A model made by :func:`from_network` has identity statistics, so its first training steps
    would normalise by the batch and compute another function than the network it was read from;
    calibrated, training starts from that network's play. Each normalisation's statistics become
    the batch's, and its scale and shift absorb the difference."""
    layers = [module for module in model.modules() if isinstance(module, nn.BatchNorm2d)]
    inputs: dict[nn.BatchNorm2d, torch.Tensor] = {}
    hooks = [layer.register_forward_hook(lambda layer, args, _out: inputs.__setitem__(layer, args[0].detach()))
             for layer in layers]
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            model(planes)
    finally:
        for hook in hooks:
            hook.remove()
    with torch.no_grad():
        for layer in layers:
            assert layer.running_mean is not None and layer.running_var is not None
            z = inputs[layer].double()
            mean, var = z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False)
            old_scale = layer.weight.double() / torch.sqrt(layer.running_var.double() + layer.eps)
            layer.bias.copy_((layer.bias.double() + old_scale * (mean - layer.running_mean.double())).float())
            layer.weight.copy_((old_scale * torch.sqrt(var + layer.eps)).float())
            layer.running_mean.copy_(mean.float())
            layer.running_var.copy_(var.float())
    model.train(was_training)


def deepened(model: ZeroNet, extra_blocks: int) -> ZeroNet:
    """``model`` with ``extra_blocks`` residual blocks more at the end of its tower, each starting as
    the identity (its second normalisation's scale and shift are zero, so the block adds nothing
    to the rectified input it passes on): the new model computes what ``model`` computes, and
    training grows the new blocks from there (the deeper network need not relearn the shallow one)."""
    if extra_blocks < 0:
        raise ValueError(f"extra blocks must be 0 or more, got {extra_blocks}")
    grown = ZeroNet(model.channels, model.blocks + extra_blocks, model.hidden, model.head)
    grown.load_state_dict(model.state_dict(), strict=False)  # the new blocks' keys are missing from it
    with torch.no_grad():
        for block in list(grown.tower)[model.blocks:]:
            assert isinstance(block, _Block)
            block.bn2.weight.zero_()
            block.bn2.bias.zero_()
    return grown


def save_checkpoint(model: ZeroNet, path: str | Path, extra: dict[str, Any] | None = None) -> None:
    """The torch state (to resume training) with the sizes needed to rebuild the model."""
    head = model.head
    torch.save({"channels": model.channels, "blocks": model.blocks, "hidden": model.hidden,
                "policy_head": head.policy, "policy_channels": head.policy_channels,
                "value_channels": head.value_channels, "state": model.state_dict(), **(extra or {})}, Path(path))


def load_checkpoint(path: str | Path) -> ZeroNet:
    data = read_checkpoint(path)
    head = Head(str(data.get("policy_head", "fc")), int(data.get("policy_channels", FIRST_HEAD.policy_channels)),
                int(data.get("value_channels", FIRST_HEAD.value_channels)))  # a checkpoint of the first head has none
    model = ZeroNet(int(data["channels"]), int(data["blocks"]), int(data["hidden"]), head)
    model.load_state_dict(data["state"])
    return model
