"""The features the built-in evaluation is linear in, for fitting its weights to data.

For every position, ``evaluate(position) == features(position) · weights_vector(weights)`` exactly
(``eval_kernel.evaluate`` with ``build_params(weights)``; the test suite checks it), where
``weights`` is the shipped middlegame and endgame sets blended for the position's phase. So the
evaluation of a position with middlegame share s is linear in both sets at once: the phased
features ``[s · f, (1 − s) · f]`` times ``phased_weights_vector`` (up to the blend's rounding). The weight
vector has one entry per piece type, rank seen from the piece's own side (0 = its back rank) and
file folded onto the left half (tables are symmetric left to right), holding value + table there;
then one entry per term of ``eval_tables.TERM_ORDER``. A feature counts the side to move's pieces
(or terms) minus the opponent's; the tempo feature is always 1.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk.compiled_cache import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.engines.builtin import eval_kernel, eval_tables
from xqdesk.engines.builtin.eval_kernel import (
    cannon_pins,
    chariot_mobility_and_pins,
    horse_mobility,
    in_palace_zone,
    is_bottom_cannon,
    pieces_between_on_file,
)
from xqdesk.engines.builtin.eval_tables import TERM_ORDER, EvalWeights, PhasedWeights
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN, PIECE_TYPES
from xqdesk.squares import FILES, RANKS
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (eval_tables, eval_kernel))

HALF_FILES = (FILES + 1) // 2
SLOTS_PER_PIECE = RANKS * HALF_FILES
TERMS_OFFSET = len(PIECE_TYPES) * SLOTS_PER_PIECE
FEATURE_COUNT = TERMS_OFFSET + len(TERM_ORDER)
(F_TEMPO, F_MISSING_DEFENDER, F_HOLLOW_CANNON, F_SCREENED_CANNON, F_CHARIOT_MOBILITY, F_HORSE_MOBILITY,
 F_OPEN_FILE_CHARIOT, F_CANNON_BATTERY, F_CHARIOT_PIN, F_CANNON_PIN, F_BOTTOM_CANNON, F_TRAPPED_HORSE,
 F_PALACE_ATTACKER, F_PALACE_ATTACK_PAIRS) = (
    TERMS_OFFSET + TERM_ORDER.index(name) for name in (
        "tempo", "missing_defender", "hollow_cannon", "screened_cannon", "chariot_mobility", "horse_mobility",
        "open_file_chariot", "cannon_battery", "chariot_pin", "cannon_pin", "bottom_cannon", "trapped_horse",
        "palace_attacker", "palace_attack_pairs"))


def slot(piece_type: int, own_rank: int, file: int) -> int:
    """The weight-vector index of a ``piece_type`` on ``own_rank`` (from its own side) and ``file``."""
    return (piece_type - 1) * SLOTS_PER_PIECE + own_rank * HALF_FILES + min(file, FILES - 1 - file)


_ADVISOR_SQUARES = {(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)}
_ELEPHANT_SQUARES = {(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)}


def reachable(piece_type: int, own_rank: int, file: int) -> bool:
    """Whether a ``piece_type`` can stand on ``own_rank`` (from its own side) and ``file``."""
    if piece_type == KING:
        return own_rank <= 2 and 3 <= file <= 5
    if piece_type == ADVISOR:
        return (own_rank, file) in _ADVISOR_SQUARES
    if piece_type == ELEPHANT:
        return (own_rank, file) in _ELEPHANT_SQUARES
    if piece_type == PAWN:
        return own_rank >= 5 or (own_rank >= 3 and file % 2 == 0)
    return True


@njit(**COMPILE_OPTIONS)
def features_into(board, side, out):
    """Write the features of ``board`` (int8[90]) with ``side`` (+1/-1) to move into ``out``
    (float64[FEATURE_COUNT], overwritten)."""
    out[:] = 0.0
    red_king = 0
    black_king = 0
    for sq in range(SQUARES):
        if board[sq] == KING:
            red_king = sq
        elif board[sq] == -KING:
            black_king = sq
    defenders = np.zeros(2, np.int64)  # index 0 Red, 1 Black
    attack = np.zeros(2, np.int64)
    heavy = np.zeros(2, np.int64)
    near = np.zeros(2, np.int64)  # pieces near the enemy palace
    for sq in range(SQUARES):
        piece = board[sq]
        if piece == 0:
            continue
        own = 1 if piece > 0 else -1
        color = 0 if own == 1 else 1
        kind = piece * own
        rank = sq // FILES
        file = sq % FILES
        own_rank = rank if own == 1 else RANKS - 1 - rank
        half = file if file < FILES - 1 - file else FILES - 1 - file
        sign = 1.0 if own == side else -1.0
        out[(kind - 1) * SLOTS_PER_PIECE + own_rank * HALF_FILES + half] += sign
        enemy_king = black_king if own == 1 else red_king
        if kind == ADVISOR or kind == ELEPHANT:
            defenders[color] += 1
        elif kind == CHARIOT:
            mobility, pins = chariot_mobility_and_pins(board, sq, own)
            out[F_CHARIOT_MOBILITY] += sign * mobility
            out[F_CHARIOT_PIN] += sign * pins
            if file == enemy_king % FILES:
                heavy[color] += 1
                if pieces_between_on_file(board, sq, enemy_king) == 0:
                    out[F_OPEN_FILE_CHARIOT] += sign
            attack[color] += 2
        elif kind == HORSE:
            mobility = horse_mobility(board, sq, own)
            out[F_HORSE_MOBILITY] += sign * mobility
            if mobility <= 1:
                out[F_TRAPPED_HORSE] += sign
            attack[color] += 1
        elif kind == CANNON:
            out[F_CANNON_PIN] += sign * cannon_pins(board, sq, own, enemy_king)
            if file == enemy_king % FILES:
                heavy[color] += 1
                between = pieces_between_on_file(board, sq, enemy_king)
                if between == 0:
                    out[F_HOLLOW_CANNON] += sign
                elif between == 1:
                    out[F_SCREENED_CANNON] += sign
            elif is_bottom_cannon(board, sq, enemy_king):
                out[F_BOTTOM_CANNON] += sign
            attack[color] += 1
        elif kind == PAWN:
            if own_rank >= 5:
                attack[color] += 1
        if kind in (CHARIOT, HORSE, CANNON, PAWN) and in_palace_zone(sq, enemy_king):
            near[color] += 1
    mover = 0 if side == 1 else 1
    other = 1 - mover
    # Each side loses missing_defender per own missing defender times the opponent's attackers.
    out[F_MISSING_DEFENDER] = float((4 - defenders[other]) * attack[mover] - (4 - defenders[mover]) * attack[other])
    out[F_CANNON_BATTERY] = (1.0 if heavy[mover] >= 2 else 0.0) - (1.0 if heavy[other] >= 2 else 0.0)
    out[F_PALACE_ATTACKER] = float(near[mover] - near[other])
    out[F_PALACE_ATTACK_PAIRS] = float(near[mover] * (near[mover] - 1) // 2 - near[other] * (near[other] - 1) // 2)
    out[F_TEMPO] = 1.0


@njit(**COMPILE_OPTIONS)
def features_batch(boards, sides, out):
    """:func:`features_into` for each row of ``boards`` (N×90 int8) and ``sides`` (N)."""
    for i in range(boards.shape[0]):
        features_into(boards[i], sides[i], out[i])


def features(board: np.ndarray, side: int) -> np.ndarray:
    """The feature vector of one position (see the module doc)."""
    out = np.zeros(FEATURE_COUNT, np.float64)
    features_into(np.ascontiguousarray(board, dtype=np.int8), side, out)
    return out


def weights_vector(weights: EvalWeights) -> np.ndarray:
    """The weight vector (float64[FEATURE_COUNT]) of ``weights``."""
    vector = np.zeros(FEATURE_COUNT, np.float64)
    for piece_type in PIECE_TYPES:
        table = weights.tables[piece_type]
        for own_rank in range(RANKS):
            for file in range(HALF_FILES):
                vector[slot(piece_type, own_rank, file)] = (weights.piece_values[piece_type]
                                                            + table[RANKS - 1 - own_rank][file])
    for index, name in enumerate(TERM_ORDER):
        vector[TERMS_OFFSET + index] = weights.terms[name]
    return vector


def weights_from_vector(vector: np.ndarray, piece_values: dict[int, int]) -> EvalWeights:
    """The weights of a (fitted) vector, rounded to integers, with the tables written relative to
    ``piece_values`` (which stay as given); squares a piece can never reach get 0."""
    tables = {}
    for piece_type in PIECE_TYPES:
        rows = []
        for row in range(RANKS):
            own_rank = RANKS - 1 - row
            rows.append(tuple(int(round(vector[slot(piece_type, own_rank, file)])) - piece_values[piece_type]
                              if reachable(piece_type, own_rank, file) else 0 for file in range(FILES)))
        tables[piece_type] = tuple(rows)
    terms = {name: int(round(vector[TERMS_OFFSET + index])) for index, name in enumerate(TERM_ORDER)}
    return EvalWeights(dict(piece_values), tables, terms)


def phased_weights_vector(weights: PhasedWeights) -> np.ndarray:
    """The middlegame set's weight vector followed by the endgame set's (float64[2·FEATURE_COUNT])."""
    return np.concatenate([weights_vector(weights.midgame), weights_vector(weights.endgame)])


def phased_weights_from_vector(vector: np.ndarray, midgame_values: dict[int, int],
                               endgame_values: dict[int, int]) -> PhasedWeights:
    """:func:`weights_from_vector` of both halves of a phased vector."""
    return PhasedWeights(weights_from_vector(vector[:FEATURE_COUNT], midgame_values),
                         weights_from_vector(vector[FEATURE_COUNT:], endgame_values))
