"""The ``zero`` engine: PUCT tree search guided by a policy/value network run with numpy.

Options: ``Network`` (a ``.npz`` network file; empty = the network shipped in
``resources/networks/zero.npz``), ``Simulations`` (a move; 0 = as many as the move time allows),
``CPuct`` (the exploration constant), ``Temperature`` (0: play the most visited move; T > 0: draw
a move with probability ∝ visits^(1/T)), ``Noise`` (Dirichlet noise on the root priors, for
self-play only: α = :data:`DIRICHLET_ALPHA`, weight :data:`DIRICHLET_WEIGHT`), ``Batch`` (leaves
evaluated together), ``Mirror`` (read each position both ways, as it stands and mirrored between
the files, and play by the mean: see :func:`network_outputs`), ``MultiPV``, ``Seed``,
``Move Overhead``. The tree is kept between moves.
"""
from __future__ import annotations

import threading
from importlib.resources import as_file
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from xqdesk.board import Board
from xqdesk.engines.builtin.position import Position
from xqdesk.engines.errors import EngineOptionError, EngineStartError
from xqdesk.engines.mcts.searching import TREE_SEARCH_FIELDS, TreeSearchEngine, run_search, tree_search
from xqdesk.engines.mcts.tree import Node
from xqdesk.engines.options import (
    OptionField,
    OptionFields,
    OptionValue,
    UciOption,
    flag_value,
    number_between,
    spin_value,
)
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.zero.encoding import (
    POLICY_INDEX,
    ROTATED_POLICY_INDEX,
    mirror_codes,
    mirror_policy,
    mover_codes,
    planes_from_codes,
)
from xqdesk.engines.zero.network import Network, NetworkFileError
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.resource_files import resource

SHIPPED_NETWORK = "networks/zero.npz"
DIRICHLET_ALPHA = 0.3
DIRICHLET_WEIGHT = 0.25
DEFAULT_CPUCT = 1.5

NETWORK_OPTION = UciOption("Network", "string", default="")
"""Loaded when set (a bad file is reported then), so it is not a plain field."""

FIELDS = OptionFields("xqdesk zero", (
    OptionField(UciOption("Simulations", "spin", default="0", min=0, max=10_000_000), "simulations", spin_value),
    OptionField(UciOption("CPuct", "string", default=str(DEFAULT_CPUCT)), "cpuct", number_between(0.0, 100.0)),
    OptionField(UciOption("Temperature", "string", default="0"), "temperature", number_between(0.0, 100.0)),
    OptionField(UciOption("Noise", "check", default="false"), "noise", flag_value),
    OptionField(UciOption("Batch", "spin", default="8", min=1, max=256), "batch", spin_value),
    OptionField(UciOption("Mirror", "check", default="false"), "mirror", flag_value),
    *TREE_SEARCH_FIELDS,
))
OPTIONS = (NETWORK_OPTION,) + FIELDS.options


def load_shipped_network() -> Network:
    """The network xqdesk ships (see :mod:`xqdesk.resource_files`); FileNotFoundError naming the
    places looked in, NetworkFileError when it cannot be read."""
    with as_file(resource(SHIPPED_NETWORK)) as path:
        return Network.load(path)


def network_outputs(network: Network, codes: np.ndarray, mirror: bool) -> tuple[np.ndarray, np.ndarray]:
    """(policy logits (n, POLICY_SIZE), values (n,)) of ``network`` for mover-frame codes (n, 90).

    With ``mirror``, each position is read as it stands and mirrored between the files, in one
    forward pass of both, and the answer is their mean (the mirror's logits mapped back): a
    network trained on both images answers each a little differently, and the mean of the two
    agrees more with the masters than either (``bench/zero_policy.py --mirror``) at twice the
    arithmetic."""
    if not mirror:
        return network.forward(planes_from_codes(codes))
    count = len(codes)
    logits, values = network.forward(planes_from_codes(np.concatenate([codes, mirror_codes(codes)])))
    return (logits[:count] + mirror_policy(logits[count:])) / 2, (values[:count] + values[count:]) / 2


class NetworkEvaluator:
    """Values leaves with a network: priors = softmax of the legal moves' logits (read both ways
    with ``mirror``, see :func:`network_outputs`)."""

    def __init__(self, network: Network, batch_size: int, mirror: bool = False) -> None:
        self.network = network
        self.batch_size = batch_size
        self.mirror = mirror

    def prepare(self, position: Position, moves: np.ndarray) -> Any:
        red = position.red_to_move
        table = POLICY_INDEX if red else ROTATED_POLICY_INDEX
        return mover_codes(position.board, red), table[(moves >> 7) * 90 + (moves & 127)]

    def evaluate(self, items: list[Any]) -> list[tuple[np.ndarray, float]]:
        logits, values = network_outputs(self.network, np.stack([item[0] for item in items]), self.mirror)
        results = []
        for row, (_, entries) in enumerate(items):
            chosen = logits[row, entries].astype(np.float64)
            chosen = np.exp(chosen - chosen.max()) if len(chosen) else chosen
            results.append((chosen / chosen.sum() if len(chosen) else chosen, float(values[row])))
        return results


class ZeroEngine(TreeSearchEngine):
    """PUCT search with a policy/value network (module docstring)."""

    name = "xqdesk zero"
    fields = FIELDS
    simulations: int
    cpuct: float
    temperature: float
    noise: bool
    batch: int
    mirror: bool

    def __init__(self, network: Optional[Network] = None) -> None:
        super().__init__()
        self._network = network
        self.network_file = ""
        self._network_lock = threading.Lock()
        """Loading and replacing the network are one step (the host's warm-up runs in a thread)."""

    def warm_up(self) -> None:
        """Load the network (and the kernels) before the first move."""
        self.search(Board(STARTING_FEN), SearchLimits(nodes=2), threading.Event(), lambda info: None)
        self.new_game()

    def network(self) -> Network:
        """The network (loaded on first use); EngineStartError naming a file that cannot be read."""
        with self._network_lock:
            return self._loaded_network()

    def _loaded_network(self) -> Network:
        if self._network is None:
            try:
                self._network = self._read_network(self.network_file)
            except (NetworkFileError, FileNotFoundError) as error:
                raise EngineStartError(f"zero: {error}") from None
        return self._network

    @staticmethod
    def _read_network(network_file: str) -> Network:
        """The network in ``network_file`` ('' for the shipped one); NetworkFileError (or, for the
        shipped one, FileNotFoundError) saying why it cannot be used."""
        return Network.load(Path(network_file).expanduser()) if network_file else load_shipped_network()

    def uci_options(self) -> tuple[UciOption, ...]:
        return OPTIONS

    def set_option(self, name: str, value: OptionValue) -> None:
        if name != NETWORK_OPTION.name:
            super().set_option(name, value)
            return
        with self._network_lock:  # a bad file is refused now (the network before it is kept), not at a move
            try:
                network = self._read_network(str(value or ""))
            except (NetworkFileError, FileNotFoundError) as error:
                raise EngineOptionError(f"Network: {error}") from None
            self.network_file, self._network = str(value or ""), network
        self._reuse.clear()

    def _add_noise(self, root: Node) -> None:
        if root.moves is not None and len(root.moves) > 1:
            noise = self._rng.dirichlet(np.full(len(root.moves), DIRICHLET_ALPHA))
            root.prior = (1 - DIRICHLET_WEIGHT) * root.prior + DIRICHLET_WEIGHT * noise

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """The chosen root move within ``limits`` (None only without a legal move)."""
        evaluator = NetworkEvaluator(self.network(), self.batch, self.mirror)
        tree = tree_search(evaluator, board, self.cpuct, puct=True, rng=self._rng)
        multipv = limits.multipv if limits.multipv > 1 else self.multipv
        return run_search(board, limits, stop, on_info, evaluator, tree, None if self.noise else self._reuse,
                          self.simulations, self.temperature, multipv, self.overhead_ms / 1000, self._rng,
                          prepare_root=self._add_noise if self.noise else None)
