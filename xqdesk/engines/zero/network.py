"""The ``zero`` policy/value network's forward pass in numpy (no torch needed to play).

The network is a small residual CNN over the planes of :mod:`xqdesk.engines.zero.encoding`:

- stem: 3×3 convolution 15 -> C channels, ReLU;
- ``blocks`` residual blocks: 3×3 conv, ReLU, 3×3 conv, add the block's input, ReLU;
- policy head, one of two kinds (:class:`Head`):

  - ``fc``: 1×1 conv C -> P, ReLU, flatten (ranks, files, channels order), linear -> 2086 logits
    (the first networks: P = 2, a bottleneck of 180 numbers in front of 2,086 moves);
  - ``pair`` (from-square × to-square): two 1×1 convs C -> P without activation give every
    square a "from" vector f and a "to" vector t; the logit of the move (a, b) is
    ``f[a] · t[b] + bias[move]`` (the scale 1/√P folded into f);

- value head: 1×1 conv C -> V, ReLU, flatten, linear -> ``hidden``, ReLU, linear -> 1, tanh.

Batch normalisation is folded into the convolutions when a trained network is exported, so the
file holds only convolution and linear weights. A network file is a ``.npz`` with ``format``,
``channels``, ``blocks``, ``hidden``, the arrays named by :func:`array_shapes` (3×3 convolution
weights as (9 · C_in, C_out), rows in (kernel row, kernel column, input channel) order) and,
optionally, ``provenance``: how the network was made, as JSON text. Format 1 is the first
networks' (``fc`` head, P = 2, V = 1); format 2 adds ``policy_head`` (``fc`` or ``pair``),
``policy_channels`` (P) and ``value_channels`` (V). A network of the first head is still written
as format 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
from threadpoolctl import threadpool_limits

from xqdesk.engines.errors import NetworkFileError
from xqdesk.engines.network_file import read_npz
from xqdesk.engines.zero.encoding import PLANES, POLICY_MOVES, POLICY_SIZE
from xqdesk.squares import FILES, RANKS

FORMAT = 2
FORMATS = (1, 2)
"""The formats this xqdesk reads (module docstring)."""
POLICY_CHANNELS = 2
"""The policy channels of a format-1 network."""
MAX_CHANNELS, MAX_BLOCKS, MAX_HIDDEN = 1024, 64, 4096
"""The largest sizes a network file may declare (a guard against a file that asks for gigabytes)."""
HEAD_KINDS = ("fc", "pair")
SQUARES = RANKS * FILES
PAIR_INDEX = np.array([a * SQUARES + b for a, b in POLICY_MOVES], dtype=np.int64)
"""Policy entry -> ``from * 90 + to`` in the mover's frame: where a ``pair`` head's logit lies in
its (from, to) table."""


@dataclass(frozen=True)
class Head:
    """The heads' kind and widths (module docstring); the default is the format-1 head."""

    policy: str = "fc"
    policy_channels: int = POLICY_CHANNELS
    value_channels: int = 1

    @property
    def first_format(self) -> bool:
        """Whether a format-1 file can hold it."""
        return self == FIRST_HEAD

    def check(self) -> None:
        """NetworkFileError unless the kind is known and the widths in range."""
        if self.policy not in HEAD_KINDS:
            raise NetworkFileError(f"'policy_head' must be one of {', '.join(HEAD_KINDS)}, got {self.policy!r}")
        for name, size in (("policy_channels", self.policy_channels), ("value_channels", self.value_channels)):
            if not 1 <= size <= MAX_CHANNELS:
                raise NetworkFileError(f"{name!r} must be from 1 to {MAX_CHANNELS}, got {size}")


FIRST_HEAD = Head()
"""The heads of a format-1 network."""


def array_shapes(channels: int, blocks: int, hidden: int, head: Head = FIRST_HEAD) -> dict[str, tuple[int, ...]]:
    """Every array a network file holds, with its shape."""
    shapes: dict[str, tuple[int, ...]] = {"stem.w": (9 * PLANES, channels), "stem.b": (channels,)}
    for i in range(blocks):
        for conv in ("conv1", "conv2"):
            shapes[f"block{i}.{conv}.w"] = (9 * channels, channels)
            shapes[f"block{i}.{conv}.b"] = (channels,)
    p, v = head.policy_channels, head.value_channels
    if head.policy == "fc":
        shapes.update({"policy.conv.w": (channels, p), "policy.conv.b": (p,),
                       "policy.fc.w": (SQUARES * p, POLICY_SIZE), "policy.fc.b": (POLICY_SIZE,)})
    else:
        shapes.update({"policy.from.w": (channels, p), "policy.from.b": (p,),
                       "policy.to.w": (channels, p), "policy.to.b": (p,), "policy.bias": (POLICY_SIZE,)})
    shapes.update({
        "value.conv.w": (channels, v), "value.conv.b": (v,),
        "value.fc1.w": (SQUARES * v, hidden), "value.fc1.b": (hidden,),
        "value.fc2.w": (hidden, 1), "value.fc2.b": (1,),
    })
    return shapes


def _conv3x3(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x (B, 10, 9, C) -> (B, 10, 9, C_out), zero padding."""
    batch, ranks, files, channels = x.shape
    padded = np.zeros((batch, ranks + 2, files + 2, channels), dtype=np.float32)
    padded[:, 1:-1, 1:-1, :] = x
    columns = np.empty((batch, ranks, files, 9, channels), dtype=np.float32)
    for dy in range(3):
        for dx in range(3):
            columns[:, :, :, dy * 3 + dx, :] = padded[:, dy:dy + ranks, dx:dx + files, :]
    out = columns.reshape(batch * ranks * files, 9 * channels) @ weight + bias
    return out.reshape(batch, ranks, files, -1)


_BLAS_LIMITED = False


def limit_blas_threads() -> None:
    """Run BLAS on one thread in this process: the forward pass multiplies small matrices, where
    more threads only wait for each other (measured here: 15 times slower with the default pool on
    a busy 2-core machine)."""
    global _BLAS_LIMITED
    if not _BLAS_LIMITED:
        threadpool_limits(limits=1, user_api="blas")
        _BLAS_LIMITED = True


def _whole_number(value: np.ndarray, name: str) -> int:
    """A size stored in a network file as one whole number; NetworkFileError otherwise."""
    if value.shape != () or value.dtype.kind not in "iu":
        raise NetworkFileError(f"{name!r} must be one whole number, got {value.dtype} of shape {value.shape}")
    return int(value)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


class Network:
    """A loaded network: :meth:`forward` maps planes to policy logits and values."""

    def __init__(self, arrays: dict[str, np.ndarray], channels: int, blocks: int, hidden: int,
                 head: Head = FIRST_HEAD) -> None:
        """NetworkFileError unless the sizes are in range and every array of :func:`array_shapes` is
        there, real numbers (float or integer) of its shape, and finite (no NaN, no infinity)."""
        for name, size, lowest, highest in (("channels", channels, 1, MAX_CHANNELS), ("blocks", blocks, 0, MAX_BLOCKS),
                                            ("hidden", hidden, 1, MAX_HIDDEN)):
            if not lowest <= size <= highest:
                raise NetworkFileError(f"{name!r} must be from {lowest} to {highest}, got {size}")
        head.check()
        expected = array_shapes(channels, blocks, hidden, head)
        for name, shape in expected.items():
            if name not in arrays:
                raise NetworkFileError(f"network has no array {name!r}")
            array = np.asarray(arrays[name])
            if array.dtype.kind not in "fiu":
                raise NetworkFileError(f"network array {name!r} holds {array.dtype}, not numbers")
            if tuple(array.shape) != shape:
                raise NetworkFileError(f"network array {name!r} has shape {array.shape}, expected {shape}")
            bad = int(array.size - np.count_nonzero(np.isfinite(array)))
            if bad:
                raise NetworkFileError(f"{bad} of the {array.size} values of network array {name!r} are not finite "
                                       "(NaN or infinity): the network is damaged or its training diverged")
            if array.dtype.kind == "f" and np.abs(array).max(initial=0.0) > np.finfo(np.float32).max:
                raise NetworkFileError(f"network array {name!r} has values beyond the float32 range")
        self.arrays = {name: np.ascontiguousarray(arrays[name], dtype=np.float32) for name in expected}
        self.channels, self.blocks, self.hidden = channels, blocks, hidden
        self.head = head
        self.provenance = str(arrays["provenance"]) if "provenance" in arrays else ""
        """How the network was made (JSON written by the trainer: data, epochs, wall time), or ''."""
        limit_blas_threads()

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a ``.npz`` network file; NetworkFileError saying what is wrong with it."""
        where = f"network file {str(path)!r}"
        arrays = read_npz(path, where)
        try:
            file_format = _whole_number(arrays["format"], "format")
            if file_format not in FORMATS:
                raise NetworkFileError(f"{where} has format {file_format}, this xqdesk reads "
                                       f"{' and '.join(map(str, FORMATS))}")
            channels, blocks, hidden = (_whole_number(arrays[name], name) for name in ("channels", "blocks", "hidden"))
            head = FIRST_HEAD
            if file_format >= 2:
                kind = arrays["policy_head"]
                if kind.shape != () or kind.dtype.kind != "U":
                    raise NetworkFileError(f"'policy_head' must be a text, got {kind.dtype} of shape {kind.shape}")
                head = Head(str(kind), _whole_number(arrays["policy_channels"], "policy_channels"),
                            _whole_number(arrays["value_channels"], "value_channels"))
        except KeyError as error:
            raise NetworkFileError(f"{where} lacks {error.args[0]!r}") from None
        except NetworkFileError as error:
            raise NetworkFileError(f"{where}: {error}") from None
        try:
            return cls(arrays, channels, blocks, hidden, head)
        except NetworkFileError as error:
            raise NetworkFileError(f"{where}: {error}") from None

    def save(self, path: str | Path) -> None:
        contents: dict[str, Any] = {"format": np.int64(1 if self.head.first_format else FORMAT),
                                    "channels": np.int64(self.channels), "blocks": np.int64(self.blocks),
                                    "hidden": np.int64(self.hidden), **self.arrays}
        if not self.head.first_format:
            contents.update(policy_head=np.str_(self.head.policy), policy_channels=np.int64(self.head.policy_channels),
                            value_channels=np.int64(self.head.value_channels))
        if self.provenance:
            contents["provenance"] = np.str_(self.provenance)
        np.savez_compressed(Path(path), **contents)

    def forward(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """planes (B, 10, 9, 15) -> (policy logits (B, 2086), values (B,) in [-1, 1] for the mover)."""
        a = self.arrays
        x = _relu(_conv3x3(np.asarray(planes, dtype=np.float32), a["stem.w"], a["stem.b"]))
        for i in range(self.blocks):
            y = _relu(_conv3x3(x, a[f"block{i}.conv1.w"], a[f"block{i}.conv1.b"]))
            y = _conv3x3(y, a[f"block{i}.conv2.w"], a[f"block{i}.conv2.b"])
            x = _relu(y + x)
        batch = x.shape[0]
        if self.head.policy == "fc":
            p = _relu(x @ a["policy.conv.w"] + a["policy.conv.b"]).reshape(batch, -1)
            logits = p @ a["policy.fc.w"] + a["policy.fc.b"]
        else:
            squares = x.reshape(batch, SQUARES, self.channels)
            origins = squares @ a["policy.from.w"] + a["policy.from.b"]  # (B, 90, P)
            targets = squares @ a["policy.to.w"] + a["policy.to.b"]
            table = np.matmul(origins, targets.transpose(0, 2, 1)).reshape(batch, SQUARES * SQUARES)
            logits = table[:, PAIR_INDEX] + a["policy.bias"]
        v = _relu(x @ a["value.conv.w"] + a["value.conv.b"]).reshape(batch, -1)
        v = _relu(v @ a["value.fc1.w"] + a["value.fc1.b"])
        values = np.tanh(v @ a["value.fc2.w"] + a["value.fc2.b"]).reshape(batch)
        return logits, values


Evaluator = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""Planes (B, 10, 9, 15) -> (policy logits (B, 2086), values (B,)): a network's forward pass."""
