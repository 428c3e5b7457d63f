"""The built-in engine's evaluation, as data: piece values, piece-square tables and term weights,
one set for the middlegame and one for the endgame.

They are read from ``eval_weights.json`` beside this module (the engine's only copy of them): an
object with ``midgame`` and ``endgame``, each holding

- ``piece_values``: centipawns by piece name (``pawn`` … ``king``);
- ``tables``: a 10×9 table per piece, centipawns added to the piece's value, written from Red's seat
  the way a diagram is read: the first row is rank 9 (Black's back rank), the last row is rank 0
  (Red's back rank), files a..i left to right. Black uses the same tables mirrored top to bottom.
  Tables are symmetric left to right;
- ``terms``: the weights of the terms the kernel computes from the whole board (see ``TERM_ORDER``).

A position is evaluated with the two sets blended by its phase (:func:`midgame_share`, from the
material left, as ElephantEye's pre-evaluation does): the search blends once, at its root, so the
compiled kernel reads one integer set and stays as fast as with a single one. :func:`build_params`
packs a set into the int32 array the kernel reads (see the ``PARAM_*`` offsets);
:class:`ParamsByPhase` keeps the packed blend of each phase; :mod:`xqdesk.engines.builtin.eval_features`
gives the features the evaluation is linear in, and ``bench/texel.py`` fits the weights to data.
The shipped weights are fitted to the results of the master games of the Chinese Chess Practical
Dataset (CCPD; Yu-Han Tseng and Bo-Nian Chen (2026), CC BY 4.0): ``docs/engines/builtin.md`` gives
the command, the figures and the credit.
"""
from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from xqdesk.errors import XqdeskError
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, PIECE_NAMES, PIECE_TYPES
from xqdesk.squares import FILES, RANKS
from xqdesk.squares import SQUARE_COUNT as SQUARES

WEIGHTS_FILE: Traversable = resources.files("xqdesk.engines.builtin") / "eval_weights.json"
"""The shipped weights (package data, so they are read from a zip file too)."""

TERM_ORDER = (
    "tempo",                # the side to move
    "missing_defender",     # per missing advisor/elephant, times the opponent's attackers
    "hollow_cannon",        # cannon facing the enemy king on its file with nothing between
    "screened_cannon",      # cannon on the enemy king's file with one screen
    "chariot_mobility",     # per empty square a chariot sees
    "horse_mobility",       # per unblocked horse jump
    "open_file_chariot",    # chariot on the enemy king's file with nothing between
    "cannon_battery",       # two own heavy pieces lined up on the enemy king's file
    "chariot_pin",          # chariot facing an enemy horse or cannon with the enemy king or a chariot behind it
    "cannon_pin",           # cannon over a screen facing an enemy horse or chariot with the enemy king behind it
    "bottom_cannon",        # cannon on the enemy's back rank with nothing between it and the enemy king
    "trapped_horse",        # horse with at most one unblocked jump
    "palace_attacker",      # chariot, horse, cannon or pawn near the enemy palace (in_palace_zone)
    "palace_attack_pairs",  # pairs of the side's pieces near the enemy palace: n·(n − 1)/2 for n of them
)


class EvalWeights:
    """One phase's piece values, tables and term weights (see the module doc)."""

    def __init__(self, piece_values: dict[int, int], tables: dict[int, tuple[tuple[int, ...], ...]],
                 terms: dict[str, int]) -> None:
        self.piece_values = piece_values
        self.tables = tables
        self.terms = terms

    def to_json(self) -> dict[str, Any]:
        return {"piece_values": {PIECE_NAMES[t]: v for t, v in self.piece_values.items()},
                "tables": {PIECE_NAMES[t]: [list(row) for row in table] for t, table in self.tables.items()},
                "terms": dict(self.terms)}


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise XqdeskError(f"{where}: expected an integer, got {value!r}")
    return value


def _read_phase(data: object, where: str) -> EvalWeights:
    """One phase's weights from parsed JSON; raises XqdeskError saying what is wrong where."""
    if not isinstance(data, dict) or not {"piece_values", "tables", "terms"} <= set(data):
        raise XqdeskError(f"{where}: expected an object with piece_values, tables and terms")
    values: dict[int, int] = {}
    tables: dict[int, tuple[tuple[int, ...], ...]] = {}
    for piece_type in PIECE_TYPES:
        name = PIECE_NAMES[piece_type]
        values[piece_type] = _int(data["piece_values"].get(name), f"{where}.piece_values.{name}")
        rows = data["tables"].get(name)
        if not isinstance(rows, list) or len(rows) != RANKS or any(
                not isinstance(row, list) or len(row) != FILES for row in rows):
            raise XqdeskError(f"{where}.tables.{name} must be {RANKS} rows of {FILES} integers")
        table = tuple(tuple(_int(v, f"{where}.tables.{name}[{r}]") for v in row) for r, row in enumerate(rows))
        for r, row in enumerate(table):
            if row != row[::-1]:
                raise XqdeskError(f"{where}.tables.{name} row {r} is not symmetric left to right: {list(row)}")
        tables[piece_type] = table
    terms = {}
    for name in TERM_ORDER:
        terms[name] = _int(data["terms"].get(name), f"{where}.terms.{name}")
    unknown = set(data["terms"]) - set(TERM_ORDER)
    if unknown:
        raise XqdeskError(f"{where}: unknown terms {sorted(unknown)!r}; known: {list(TERM_ORDER)!r}")
    return EvalWeights(values, tables, terms)


PHASE_MATERIAL = {CHARIOT: 6, HORSE: 3, CANNON: 3, ADVISOR: 1, ELEPHANT: 1, PAWN: 1, KING: 0}
"""Each piece's weight in the phase count (ElephantEye's: chariot 6, horse and cannon 3, others 1)."""
STARTING_PIECES = {CHARIOT: 2, HORSE: 2, CANNON: 2, ADVISOR: 2, ELEPHANT: 2, PAWN: 5, KING: 1}
FULL_MATERIAL = 2 * sum(PHASE_MATERIAL[t] * count for t, count in STARTING_PIECES.items())
"""The phase count of the starting position (66)."""


def phase_material(codes: Iterable[int]) -> int:
    """The phase count of a position (square codes): :data:`PHASE_MATERIAL` summed over both sides."""
    return sum(PHASE_MATERIAL[abs(code)] for code in codes if code)


def midgame_share(material: int) -> float:
    """How much of the middlegame set a position with phase count ``material`` gets (1 at the start,
    0 with bare kings): ``(2F - m)·m / F²``, so the middlegame fades slowly at first and fast once
    most pieces are gone (F = :data:`FULL_MATERIAL`)."""
    m = min(max(material, 0), FULL_MATERIAL)
    return (2 * FULL_MATERIAL - m) * m / (FULL_MATERIAL * FULL_MATERIAL)


class PhasedWeights:
    """The middlegame and endgame sets (see the module doc)."""

    def __init__(self, midgame: EvalWeights, endgame: EvalWeights) -> None:
        self.midgame = midgame
        self.endgame = endgame

    def at(self, share: float) -> EvalWeights:
        """The blend ``share`` · middlegame + (1 − share) · endgame, each entry rounded."""
        def blend(a: int, b: int) -> int:
            return int(round(share * a + (1.0 - share) * b))
        mid, end = self.midgame, self.endgame
        values = {t: blend(mid.piece_values[t], end.piece_values[t]) for t in PIECE_TYPES}
        tables = {t: tuple(tuple(blend(mid.piece_values[t] + a, end.piece_values[t] + b) - values[t]
                                 for a, b in zip(row_a, row_b))
                           for row_a, row_b in zip(mid.tables[t], end.tables[t])) for t in PIECE_TYPES}
        terms = {name: blend(mid.terms[name], end.terms[name]) for name in TERM_ORDER}
        return EvalWeights(values, tables, terms)

    def with_terms(self, changes: dict[str, int]) -> PhasedWeights:
        """These weights with the terms ``changes`` set to the same value in both phases."""
        unknown = set(changes) - set(TERM_ORDER)
        if unknown:
            raise XqdeskError(f"unknown evaluation weights {sorted(unknown)!r}; known: {list(TERM_ORDER)!r}")
        return PhasedWeights(*(EvalWeights(phase.piece_values, phase.tables, {**phase.terms, **changes})
                               for phase in (self.midgame, self.endgame)))

    def write(self, path: Path) -> None:
        """Write the weights as JSON, one table row a line."""
        lines = ["{"]
        for key, phase in (("midgame", self.midgame), ("endgame", self.endgame)):
            data = phase.to_json()
            lines += [f'  "{key}": {{', f'    "piece_values": {json.dumps(data["piece_values"])},', '    "tables": {']
            names = list(data["tables"])
            for i, name in enumerate(names):
                rows = data["tables"][name]
                lines.append(f'      "{name}": [')
                lines += [f"        {json.dumps(row)}{',' if j < len(rows) - 1 else ''}" for j, row in enumerate(rows)]
                lines.append("      ]" + ("," if i < len(names) - 1 else ""))
            lines += ["    },", f'    "terms": {json.dumps(data["terms"])}', "  }" + ("," if key == "midgame" else "")]
        lines.append("}")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_weights(path: Traversable = WEIGHTS_FILE) -> PhasedWeights:
    """The weights in ``path``; raises XqdeskError saying what is wrong where."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise XqdeskError(f"cannot read the evaluation weights {path}: {error}") from error
    if not isinstance(data, dict) or not {"midgame", "endgame"} <= set(data):
        raise XqdeskError(f"{path}: expected an object with midgame and endgame")
    return PhasedWeights(_read_phase(data["midgame"], f"{path}: midgame"),
                         _read_phase(data["endgame"], f"{path}: endgame"))


WEIGHTS = read_weights()
TERM_WEIGHTS = WEIGHTS.midgame.terms

PSQ_SIZE = 15 * SQUARES
PARAM_TEMPO = PSQ_SIZE + TERM_ORDER.index("tempo")
PARAM_MISSING_DEFENDER = PSQ_SIZE + TERM_ORDER.index("missing_defender")
PARAM_HOLLOW_CANNON = PSQ_SIZE + TERM_ORDER.index("hollow_cannon")
PARAM_SCREENED_CANNON = PSQ_SIZE + TERM_ORDER.index("screened_cannon")
PARAM_CHARIOT_MOBILITY = PSQ_SIZE + TERM_ORDER.index("chariot_mobility")
PARAM_HORSE_MOBILITY = PSQ_SIZE + TERM_ORDER.index("horse_mobility")
PARAM_OPEN_FILE_CHARIOT = PSQ_SIZE + TERM_ORDER.index("open_file_chariot")
PARAM_CANNON_BATTERY = PSQ_SIZE + TERM_ORDER.index("cannon_battery")
PARAM_CHARIOT_PIN = PSQ_SIZE + TERM_ORDER.index("chariot_pin")
PARAM_CANNON_PIN = PSQ_SIZE + TERM_ORDER.index("cannon_pin")
PARAM_BOTTOM_CANNON = PSQ_SIZE + TERM_ORDER.index("bottom_cannon")
PARAM_TRAPPED_HORSE = PSQ_SIZE + TERM_ORDER.index("trapped_horse")
PARAM_PALACE_ATTACKER = PSQ_SIZE + TERM_ORDER.index("palace_attacker")
PARAM_PALACE_ATTACK_PAIRS = PSQ_SIZE + TERM_ORDER.index("palace_attack_pairs")
PARAM_COUNT = PSQ_SIZE + len(TERM_ORDER)


def build_params(base: EvalWeights) -> np.ndarray:
    """The int32 parameter array of one set of weights: value + table for each signed code and
    square (from Red's point of view, so Black's entries are negative), then the term weights in
    ``TERM_ORDER``."""
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
        params[PSQ_SIZE + index] = base.terms[name]
    return params


class ParamsByPhase:
    """The packed parameters of ``weights`` blended for each phase count, made once each."""

    def __init__(self, weights: PhasedWeights = WEIGHTS) -> None:
        self.weights = weights
        self._made: dict[int, np.ndarray] = {}

    def for_material(self, material: int) -> np.ndarray:
        """The parameters for a position of phase count ``material`` (shared: never write them)."""
        params = self._made.get(material)
        if params is None:
            params = build_params(self.weights.at(midgame_share(material)))
            self._made[material] = params
        return params

    def for_codes(self, codes: Iterable[int]) -> np.ndarray:
        """The parameters for the position with these square codes."""
        return self.for_material(phase_material(codes))


SHIPPED_PARAMS = ParamsByPhase()
"""The shipped weights' parameters by phase."""
