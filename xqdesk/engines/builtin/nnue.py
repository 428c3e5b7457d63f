"""The built-in engine's learned evaluation (NNUE): the network, its file and a float reference.

The network sees the board twice, once from each side's seat. From a side's seat every piece is one
of 1,260 *features*: (own or enemy) × piece type × square, the square mirrored top to bottom for
Black so that both sides see their own pieces at the bottom (:func:`feature_index`). Each side's
seat has an *accumulator*: the first layer's bias plus the weight rows of the features present
(``accumulator`` int16 values). The search keeps both accumulators up to date by adding and
subtracting rows as pieces move (``nnue_kernel``); the rest of the network is small:

- ``x`` = clipped ReLU of the side to move's accumulator, then of the other side's (``2 · H``
  values in [0, 1]);
- with ``hidden`` = 0: the output is ``out_weights · x + out_bias``; with ``hidden`` = L > 0: a
  layer ``2H → L`` with clipped ReLU comes first, then ``L → 1``;
- the output times ``cp_scale`` is the score in centipawns for the side to move.

A network file is a ``.npz`` (written by :meth:`Network.save`, read by :meth:`Network.load`, which
refuses anything else with a message saying what is wrong) holding ``format`` (the text
``xqdesk-nnue``), ``version`` (:data:`VERSION`), ``features``, ``accumulator``, ``hidden``, the
quantisation scales ``ft_scale``, ``hidden_scale`` and ``out_scale``, ``cp_scale``, a free
``description``, and the integer arrays:

==================  ======  =================  ===========================================
array               dtype   shape              real value
==================  ======  =================  ===========================================
``ft_weights``      int16   (1260, H)          ``ft_weights / ft_scale``
``ft_bias``         int16   (H,)               ``ft_bias / ft_scale``
``hidden_weights``  int16   (L, 2H)            ``hidden_weights / hidden_scale``
``hidden_bias``     int32   (L,)               ``hidden_bias / (hidden_scale · ft_scale)``
``out_weights``     int16   (L or 2H,)         ``out_weights / out_scale``
``out_bias``        int32   ()                 ``out_bias / (out_scale · ft_scale)``
==================  ======  =================  ===========================================

:meth:`Network.from_float` quantises a trained float network; :meth:`Network.reference_scores` is
the float64 forward pass of the file's values, the reference the compiled kernel is tested against.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import numpy as np

from xqdesk.engines.errors import NetworkFileError
from xqdesk.engines.network_file import read_npz
from xqdesk.resource_files import resource

FORMAT = "xqdesk-nnue"
VERSION = 1
SQUARES = 90
PIECE_TYPES = 7
FEATURES = 2 * PIECE_TYPES * SQUARES
"""Features per seat: (own, enemy) × (pawn … king) × square."""
MAX_PIECES = 32
NO_FEATURE = FEATURES
"""Padding in :func:`feature_indices`' rows (one past the last feature)."""
MAX_ACCUMULATOR = 1024
MAX_HIDDEN = 64
INT16_MAX = 32767

SHIPPED_NETWORK = "networks/builtin_nnue.npz"
"""The network xqdesk ships (a resource, see :mod:`xqdesk.resource_files`)."""


def mirrored_square(square: int) -> int:
    """``square`` seen from Black's seat: the same file, rank 9 − rank."""
    return (9 - square // 9) * 9 + square % 9


def feature_index(code: int, square: int, red_seat: bool) -> int:
    """The feature of piece ``code`` (xqdesk's signed code) on ``square`` seen from Red's seat
    (``red_seat``) or Black's."""
    own = (code > 0) == red_seat
    seat_square = square if red_seat else mirrored_square(square)
    return ((0 if own else PIECE_TYPES) + abs(code) - 1) * SQUARES + seat_square


_MIRROR = np.array([mirrored_square(square) for square in range(SQUARES)], np.int64)


def feature_indices(boards: np.ndarray, red_seat: np.ndarray | bool) -> np.ndarray:
    """The features of each board (``boards``: int (N, 90) signed codes) from Red's seat where
    ``red_seat`` (bool, or bool (N,)) is True, else Black's: int64 (N, 32), each row's features
    ascending, padded with :data:`NO_FEATURE`. ValueError for a board with more than 32 pieces."""
    codes = np.asarray(boards, dtype=np.int64)
    if codes.ndim != 2 or codes.shape[1] != SQUARES:
        raise ValueError(f"boards must have shape (N, {SQUARES}), got {codes.shape}")
    red = np.broadcast_to(np.asarray(red_seat, dtype=bool), (codes.shape[0],))[:, None]
    squares = np.where(red, np.arange(SQUARES)[None, :], _MIRROR[None, :])
    own = (codes > 0) == red
    index = (np.where(own, 0, PIECE_TYPES) + np.abs(codes) - 1) * SQUARES + squares
    index = np.sort(np.where(codes != 0, index, NO_FEATURE), axis=1)
    if codes.shape[0] and index[:, MAX_PIECES:].min(initial=NO_FEATURE) < NO_FEATURE:
        raise ValueError(f"a board with more than {MAX_PIECES} pieces")
    return index[:, :MAX_PIECES]


def _clipped(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0.0, 1.0)


@dataclass(frozen=True, eq=False)
class Network:
    """A quantised network (see the module's table). Construct it with :meth:`load`,
    :meth:`from_float` or directly; the constructor checks every array (NetworkFileError)."""

    ft_weights: np.ndarray
    ft_bias: np.ndarray
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    out_weights: np.ndarray
    out_bias: np.ndarray
    ft_scale: int
    hidden_scale: int
    out_scale: int
    cp_scale: float
    description: str = ""

    def __post_init__(self) -> None:
        _check_network(self)

    @property
    def accumulator(self) -> int:
        """Accumulator values per seat (H)."""
        return int(self.ft_weights.shape[1])

    @property
    def hidden(self) -> int:
        """Hidden layer width (0: the accumulators feed the output directly)."""
        return int(self.hidden_weights.shape[0])

    # --- the file ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a network file; NetworkFileError saying what is wrong with it."""
        where = f"network file {str(path)!r}"
        arrays = read_npz(path, where)
        try:
            return cls._from_arrays(arrays)
        except NetworkFileError as error:
            raise NetworkFileError(f"{where}: {error}") from None

    @classmethod
    def _from_arrays(cls, arrays: dict[str, np.ndarray]) -> Network:
        def scalar(name: str, kind: type) -> Any:
            if name not in arrays:
                raise NetworkFileError(f"it has no {name!r}")
            value = arrays[name]
            if value.shape != ():
                raise NetworkFileError(f"{name!r} must be a single value, got shape {value.shape}")
            try:
                return kind(value.item())
            except (TypeError, ValueError):
                raise NetworkFileError(f"{name!r} is not a {kind.__name__}: {value.item()!r}") from None

        if "format" not in arrays or str(arrays["format"].item() if arrays["format"].shape == () else "") != FORMAT:
            raise NetworkFileError(f"it is not an {FORMAT} network (no 'format' = {FORMAT!r})")
        version = scalar("version", int)
        if version != VERSION:
            raise NetworkFileError(f"it has version {version}, this xqdesk reads version {VERSION}")
        features = scalar("features", int)
        if features != FEATURES:
            raise NetworkFileError(f"it has {features} input features, expected {FEATURES}")
        accumulator, hidden = scalar("accumulator", int), scalar("hidden", int)
        for name in ("ft_weights", "ft_bias", "hidden_weights", "hidden_bias", "out_weights", "out_bias"):
            if name not in arrays:
                raise NetworkFileError(f"it has no array {name!r}")
        network = cls(arrays["ft_weights"], arrays["ft_bias"], arrays["hidden_weights"], arrays["hidden_bias"],
                      arrays["out_weights"], arrays["out_bias"], scalar("ft_scale", int),
                      scalar("hidden_scale", int), scalar("out_scale", int), scalar("cp_scale", float),
                      scalar("description", str) if "description" in arrays else "")
        if network.accumulator != accumulator or network.hidden != hidden:
            raise NetworkFileError(f"it says accumulator {accumulator} and hidden {hidden}, but its arrays "
                                   f"have {network.accumulator} and {network.hidden}")
        return network

    @classmethod
    def load_shipped(cls) -> Network:
        """The network xqdesk ships; NetworkFileError when it is missing or unreadable."""
        try:
            with as_file(resource(SHIPPED_NETWORK)) as path:
                return cls.load(path)
        except FileNotFoundError as error:
            raise NetworkFileError(str(error)) from None

    def save(self, path: str | Path) -> None:
        """Write the network file (OSError when it cannot be written)."""
        with open(Path(path), "wb") as stream:
            np.savez(stream, format=np.array(FORMAT), version=np.int64(VERSION), features=np.int64(FEATURES),
                     accumulator=np.int64(self.accumulator), hidden=np.int64(self.hidden),
                     ft_scale=np.int64(self.ft_scale), hidden_scale=np.int64(self.hidden_scale),
                     out_scale=np.int64(self.out_scale), cp_scale=np.float64(self.cp_scale),
                     description=np.array(self.description), ft_weights=self.ft_weights, ft_bias=self.ft_bias,
                     hidden_weights=self.hidden_weights, hidden_bias=self.hidden_bias,
                     out_weights=self.out_weights, out_bias=self.out_bias)

    # --- from a trained float network --------------------------------------------------------

    @classmethod
    def from_float(cls, ft_weights: np.ndarray, ft_bias: np.ndarray, hidden_weights: np.ndarray | None,
                   hidden_bias: np.ndarray | None, out_weights: np.ndarray, out_bias: float, cp_scale: float, *,
                   ft_scale: int = 512, hidden_scale: int = 1024, out_scale: int = 1024,
                   description: str = "") -> Network:
        """Quantise float weights (``ft_weights`` (1260, H), ``hidden_weights`` (L, 2H) or None,
        ``out_weights`` (L or 2H,)). Values beyond what the integer types hold are clipped, so a
        trainer keeps its weights inside :meth:`float_limits`."""
        def rounded(values: Any, scale: float, dtype: Any) -> np.ndarray:
            info = np.iinfo(dtype)
            return np.clip(np.rint(np.asarray(values, np.float64) * scale), info.min, info.max).astype(dtype)

        accumulator = np.asarray(ft_weights).shape[1]
        if hidden_weights is None:
            hidden_q = np.zeros((0, 2 * accumulator), np.int16)
            hidden_bias_q = np.zeros(0, np.int32)
        else:
            hidden_q = rounded(hidden_weights, hidden_scale, np.int16)
            hidden_bias_q = rounded(hidden_bias, hidden_scale * ft_scale, np.int32)
        return cls(rounded(ft_weights, ft_scale, np.int16), rounded(ft_bias, ft_scale, np.int16), hidden_q,
                   hidden_bias_q, rounded(out_weights, out_scale, np.int16),
                   rounded(out_bias, out_scale * ft_scale, np.int32), ft_scale, hidden_scale, out_scale,
                   float(cp_scale), description)

    @staticmethod
    def float_limits(ft_scale: int = 512, hidden_scale: int = 1024, out_scale: int = 1024) -> dict[str, float]:
        """The largest magnitude of each float weight kind that quantises without clipping, and
        for the first layer one that no sum of 32 rows and the bias can overflow int16."""
        return {"ft": INT16_MAX / ft_scale / (MAX_PIECES + 1), "hidden": INT16_MAX / hidden_scale,
                "out": INT16_MAX / out_scale}

    # --- the float reference -----------------------------------------------------------------

    def accumulators(self, boards: np.ndarray, red_to_move: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The integer accumulators (int64 (N, H)) of the side to move and of the other side."""
        red = np.asarray(red_to_move, dtype=bool)
        padded = np.vstack([self.ft_weights.astype(np.int64), np.zeros((1, self.accumulator), np.int64)])
        bias = self.ft_bias.astype(np.int64)
        mover = padded[feature_indices(boards, red)].sum(axis=1) + bias
        other = padded[feature_indices(boards, ~red)].sum(axis=1) + bias
        return mover, other

    def reference_scores(self, boards: np.ndarray, red_to_move: np.ndarray) -> np.ndarray:
        """Float64 scores in centipawns for the side to move of each board (``boards`` int (N, 90),
        ``red_to_move`` bool (N,)): the network's arithmetic on the file's values, without the
        kernel's integer rounding."""
        mover, other = self.accumulators(np.atleast_2d(boards), np.atleast_1d(red_to_move))
        x = _clipped(np.hstack([mover, other]) / self.ft_scale)
        if self.hidden:
            weights = self.hidden_weights.astype(np.float64) / self.hidden_scale
            bias = self.hidden_bias.astype(np.float64) / (self.hidden_scale * self.ft_scale)
            x = _clipped(x @ weights.T + bias)
        out = x @ (self.out_weights.astype(np.float64) / self.out_scale) + float(self.out_bias) / (self.out_scale * self.ft_scale)
        return np.asarray(out * self.cp_scale, dtype=np.float64)


def _check_network(network: Network) -> None:
    """NetworkFileError unless every array of ``network`` has the dtype, shape and range the
    kernel needs."""
    def check(name: str, value: np.ndarray, dtype: Any, shape: tuple[int, ...]) -> None:
        if not isinstance(value, np.ndarray) or value.dtype != np.dtype(dtype):
            got = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
            raise NetworkFileError(f"{name!r} must be {np.dtype(dtype).name}, got {got}")
        if value.shape != shape:
            raise NetworkFileError(f"{name!r} has shape {value.shape}, expected {shape}")

    ft = network.ft_weights
    if not isinstance(ft, np.ndarray) or ft.ndim != 2:
        raise NetworkFileError("'ft_weights' must be a 2-D array")
    accumulator = ft.shape[1]
    if not 1 <= accumulator <= MAX_ACCUMULATOR:
        raise NetworkFileError(f"the accumulator must have 1 to {MAX_ACCUMULATOR} values, got {accumulator}")
    check("ft_weights", ft, np.int16, (FEATURES, accumulator))
    check("ft_bias", network.ft_bias, np.int16, (accumulator,))
    hidden_weights = network.hidden_weights
    if not isinstance(hidden_weights, np.ndarray) or hidden_weights.ndim != 2:
        raise NetworkFileError("'hidden_weights' must be a 2-D array")
    hidden = hidden_weights.shape[0]
    if hidden > MAX_HIDDEN:
        raise NetworkFileError(f"the hidden layer may have at most {MAX_HIDDEN} values, got {hidden}")
    check("hidden_weights", hidden_weights, np.int16, (hidden, 2 * accumulator))
    check("hidden_bias", network.hidden_bias, np.int32, (hidden,))
    check("out_weights", network.out_weights, np.int16, (hidden if hidden else 2 * accumulator,))
    check("out_bias", network.out_bias if isinstance(network.out_bias, np.ndarray) else np.asarray(network.out_bias),
          np.int32, ())
    for name in ("ft_scale", "hidden_scale", "out_scale"):
        value = getattr(network, name)
        if not isinstance(value, (int, np.integer)) or not 1 <= value <= INT16_MAX:
            raise NetworkFileError(f"{name!r} must be an integer from 1 to {INT16_MAX}, got {value!r}")
    if not np.isfinite(network.cp_scale) or not 0 < network.cp_scale < 1e5:
        raise NetworkFileError(f"'cp_scale' must be a positive number below 100000, got {network.cp_scale!r}")
    # The accumulator is int16: the bias and the 32 largest rows of any value must stay inside it.
    column_max = np.sort(np.abs(ft.astype(np.int64)), axis=0)[-MAX_PIECES:].sum(axis=0)
    worst = int((column_max + np.abs(network.ft_bias.astype(np.int64))).max())
    if worst > INT16_MAX:
        raise NetworkFileError(f"its first layer can overflow the int16 accumulator (up to {worst})")
