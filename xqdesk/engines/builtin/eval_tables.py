"""The built-in engine's evaluation, as data: piece values, piece-square tables and term weights.

They are read from ``eval_weights.json`` beside this module (the engine's only copy of them):

- ``piece_values``: centipawns by piece name (``pawn`` … ``king``);
- ``tables``: a 10×9 table per piece, centipawns added to the piece's value, written from Red's seat
  the way a diagram is read: the first row is rank 9 (Black's back rank), the last row is rank 0
  (Red's back rank), files a..i left to right. Black uses the same tables mirrored top to bottom.
  Tables are symmetric left to right;
- ``terms``: the weights of the terms the kernel computes from the whole board (see ``TERM_ORDER``).

:func:`build_params` packs everything into one int32 array, the layout the compiled kernel reads
(see the ``PARAM_*`` offsets); :mod:`xqdesk.engines.builtin.eval_features` gives the features the
evaluation is linear in, and ``bench/texel.py`` fits the weights to game results (the README's
engine section has its figures).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from xqdesk.engines.builtin.geometry import FILES, RANKS, SQUARES
from xqdesk.errors import XqdeskError
from xqdesk.pieces import PIECE_NAMES, PIECE_TYPES

WEIGHTS_FILE = Path(__file__).with_name("eval_weights.json")

TERM_ORDER = (
    "tempo",                # the side to move
    "missing_defender",     # per missing advisor/elephant, times the opponent's attackers
    "hollow_cannon",        # cannon facing the enemy king on its file with nothing between
    "screened_cannon",      # cannon on the enemy king's file with one screen
    "chariot_mobility",     # per empty square a chariot sees
    "horse_mobility",       # per unblocked horse jump
    "open_file_chariot",    # chariot on the enemy king's file with nothing between
    "cannon_battery",       # two own heavy pieces lined up on the enemy king's file
)


class EvalWeights:
    """Piece values, tables and term weights as read from a weights file (see the module doc)."""

    def __init__(self, piece_values: dict[int, int], tables: dict[int, tuple[tuple[int, ...], ...]],
                 terms: dict[str, int]) -> None:
        self.piece_values = piece_values
        self.tables = tables
        self.terms = terms

    def to_json(self) -> dict[str, Any]:
        return {"piece_values": {PIECE_NAMES[t]: v for t, v in self.piece_values.items()},
                "tables": {PIECE_NAMES[t]: [list(row) for row in table] for t, table in self.tables.items()},
                "terms": dict(self.terms)}

    def write(self, path: Path) -> None:
        """Write the weights as JSON, one table row a line."""
        data = self.to_json()
        lines = ["{", f'  "piece_values": {json.dumps(data["piece_values"])},', '  "tables": {']
        names = list(data["tables"])
        for i, name in enumerate(names):
            rows = data["tables"][name]
            lines.append(f'    "{name}": [')
            lines += [f"      {json.dumps(row)}{',' if j < len(rows) - 1 else ''}" for j, row in enumerate(rows)]
            lines.append("    ]" + ("," if i < len(names) - 1 else ""))
        lines += ["  },", f'  "terms": {json.dumps(data["terms"])}', "}"]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise XqdeskError(f"{where}: expected an integer, got {value!r}")
    return value


def read_weights(path: Path = WEIGHTS_FILE) -> EvalWeights:
    """The weights in ``path``; raises XqdeskError saying what is wrong where."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise XqdeskError(f"cannot read the evaluation weights {path}: {error}") from error
    if not isinstance(data, dict) or not {"piece_values", "tables", "terms"} <= set(data):
        raise XqdeskError(f"{path}: expected an object with piece_values, tables and terms")
    values: dict[int, int] = {}
    tables: dict[int, tuple[tuple[int, ...], ...]] = {}
    for piece_type in PIECE_TYPES:
        name = PIECE_NAMES[piece_type]
        values[piece_type] = _int(data["piece_values"].get(name), f"{path}: piece_values.{name}")
        rows = data["tables"].get(name)
        if not isinstance(rows, list) or len(rows) != RANKS or any(
                not isinstance(row, list) or len(row) != FILES for row in rows):
            raise XqdeskError(f"{path}: tables.{name} must be {RANKS} rows of {FILES} integers")
        table = tuple(tuple(_int(v, f"{path}: tables.{name}[{r}]") for v in row) for r, row in enumerate(rows))
        for r, row in enumerate(table):
            if row != row[::-1]:
                raise XqdeskError(f"{path}: tables.{name} row {r} is not symmetric left to right: {list(row)}")
        tables[piece_type] = table
    terms = {}
    for name in TERM_ORDER:
        terms[name] = _int(data["terms"].get(name), f"{path}: terms.{name}")
    unknown = set(data["terms"]) - set(TERM_ORDER)
    if unknown:
        raise XqdeskError(f"{path}: unknown terms {sorted(unknown)!r}; known: {list(TERM_ORDER)!r}")
    return EvalWeights(values, tables, terms)


WEIGHTS = read_weights()
PIECE_VALUES = WEIGHTS.piece_values
PIECE_TABLES = WEIGHTS.tables
TERM_WEIGHTS = WEIGHTS.terms

PSQ_SIZE = 15 * SQUARES
PARAM_TEMPO = PSQ_SIZE + TERM_ORDER.index("tempo")
PARAM_MISSING_DEFENDER = PSQ_SIZE + TERM_ORDER.index("missing_defender")
PARAM_HOLLOW_CANNON = PSQ_SIZE + TERM_ORDER.index("hollow_cannon")
PARAM_SCREENED_CANNON = PSQ_SIZE + TERM_ORDER.index("screened_cannon")
PARAM_CHARIOT_MOBILITY = PSQ_SIZE + TERM_ORDER.index("chariot_mobility")
PARAM_HORSE_MOBILITY = PSQ_SIZE + TERM_ORDER.index("horse_mobility")
PARAM_OPEN_FILE_CHARIOT = PSQ_SIZE + TERM_ORDER.index("open_file_chariot")
PARAM_CANNON_BATTERY = PSQ_SIZE + TERM_ORDER.index("cannon_battery")
PARAM_COUNT = PSQ_SIZE + len(TERM_ORDER)


def build_params(weights: dict[str, int] | None = None, base: EvalWeights | None = None) -> np.ndarray:
    """The int32 parameter array of ``base`` (default: the shipped weights) with the term weights
    ``weights`` changed: value + table for each signed code and square (from Red's point of view,
    so Black's entries are negative), then the term weights in ``TERM_ORDER``."""
    base = WEIGHTS if base is None else base
    merged = dict(base.terms)
    if weights:
        unknown = set(weights) - set(TERM_ORDER)
        if unknown:
            raise XqdeskError(f"unknown evaluation weights {sorted(unknown)!r}; known: {list(TERM_ORDER)!r}")
        merged.update(weights)
    params = np.zeros(PARAM_COUNT, np.int32)
    for piece_type, table in base.tables.items():
        for rank in range(RANKS):
            for file in range(FILES):
                red_value = base.piece_values[piece_type] + table[RANKS - 1 - rank][file]
                black_value = base.piece_values[piece_type] + table[rank][file]  # mirrored
                sq = rank * FILES + file
                params[(piece_type + 7) * SQUARES + sq] = red_value
                params[(-piece_type + 7) * SQUARES + sq] = -black_value
    for index, name in enumerate(TERM_ORDER):
        params[PSQ_SIZE + index] = merged[name]
    return params
