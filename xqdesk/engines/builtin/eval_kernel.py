"""The built-in engine's compiled evaluation (the weights are data, see ``eval_tables``)."""
from __future__ import annotations

from numba import njit

from xqdesk import move_tables
from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.engines.builtin import board_kernel, eval_tables
from xqdesk.engines.builtin.board_kernel import POS_BLACK_KING, POS_HEIGHT, POS_RED_KING, POS_SIDE
from xqdesk.engines.builtin.eval_tables import (
    PARAM_BOTTOM_CANNON,
    PARAM_CANNON_BATTERY,
    PARAM_CANNON_PIN,
    PARAM_CHARIOT_MOBILITY,
    PARAM_CHARIOT_PIN,
    PARAM_HOLLOW_CANNON,
    PARAM_HORSE_MOBILITY,
    PARAM_MISSING_DEFENDER,
    PARAM_OPEN_FILE_CHARIOT,
    PARAM_PALACE_ATTACK_PAIRS,
    PARAM_PALACE_ATTACKER,
    PARAM_SCREENED_CANNON,
    PARAM_TEMPO,
    PARAM_TRAPPED_HORSE,
)
from xqdesk.move_tables import HORSE_LEGS, HORSE_TARGETS, RAY_LENGTHS, RAYS
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (move_tables, eval_tables, board_kernel))
index_without_wraparound(__name__)


@njit(**BORROWING_OPTIONS)
def pieces_between_on_file(board, a, b):
    low = a if a < b else b
    high = b if a < b else a
    count = 0
    sq = low + 9
    while sq < high:
        if board[sq] != 0:
            count += 1
        sq += 9
    return count


@njit(**BORROWING_OPTIONS)
def next_piece(board, sq, d, k):
    """(index along ray ``d`` of ``sq``, square) of the first piece past index ``k``; (-1, -1) if none."""
    k += 1
    while k < 10:
        target = RAYS[sq, d, k]
        if target < 0:
            return -1, -1
        if board[target] != 0:
            return k, target
        k += 1
    return -1, -1


@njit(**BORROWING_OPTIONS)
def pieces_between_on_rank(board, a, b):
    low = a if a < b else b
    high = b if a < b else a
    count = 0
    for sq in range(low + 1, high):
        if board[sq] != 0:
            count += 1
    return count


@njit(**BORROWING_OPTIONS)
def chariot_mobility_and_pins(board, sq, own):
    """(empty squares the chariot on ``sq`` of side ``own`` sees, enemy horses and cannons it pins
    against the enemy king or a chariot behind them)."""
    mobility = 0
    pins = 0
    for d in range(4):
        k, target = next_piece(board, sq, d, -1)
        mobility += k if k >= 0 else RAY_LENGTHS[sq, d]
        if target >= 0 and (board[target] == -own * HORSE or board[target] == -own * CANNON):
            behind = next_piece(board, sq, d, k)[1]
            if behind >= 0 and (board[behind] == -own * KING or board[behind] == -own * CHARIOT):
                pins += 1
    return mobility, pins


@njit(**BORROWING_OPTIONS)
def horse_mobility(board, sq, own):
    """Unblocked jumps of the horse on ``sq`` of side ``own`` to an empty or enemy square."""
    mobility = 0
    for i in range(8):
        target = HORSE_TARGETS[sq, i]
        if target < 0:
            break
        if board[HORSE_LEGS[sq, i]] == 0 and board[target] * own <= 0:
            mobility += 1
    return mobility


@njit(**BORROWING_OPTIONS)
def cannon_pins(board, sq, own, enemy_king):
    """Enemy horses and chariots the cannon on ``sq`` of side ``own`` faces over a screen with the
    enemy king (on ``enemy_king``) behind them: 0 or 1, looked for only on the ray towards the king."""
    if sq // 9 == enemy_king // 9:  # RAYS' directions: +file, -file, +rank, -rank
        d = 0 if enemy_king > sq else 1
    elif sq % 9 == enemy_king % 9:
        d = 2 if enemy_king > sq else 3
    else:
        return 0
    k = next_piece(board, sq, d, -1)[0]  # the screen
    if k < 0:
        return 0
    k, target = next_piece(board, sq, d, k)
    if target >= 0 and (board[target] == -own * HORSE or board[target] == -own * CHARIOT):
        behind = next_piece(board, sq, d, k)[1]
        if behind >= 0 and board[behind] == -own * KING:
            return 1
    return 0


@njit(**BORROWING_OPTIONS)
def is_bottom_cannon(board, sq, enemy_king):
    """Whether a cannon on ``sq``, off the enemy king's file, stands on a back rank with the enemy
    king on it and nothing between them."""
    rank = sq // 9
    return rank == enemy_king // 9 and (rank == 0 or rank == 9) and pieces_between_on_rank(board, sq, enemy_king) == 0


@njit(**BORROWING_OPTIONS)
def in_palace_zone(sq, enemy_king):
    """Whether ``sq`` is near the palace of the king on ``enemy_king``: the four ranks nearest that
    king's edge of the board, files c..g (the palace and one file either side of it, one rank in front)."""
    file = sq % 9
    if file < 2 or file > 6:
        return False
    rank = sq // 9
    return rank <= 3 if enemy_king < 45 else rank >= 6


@njit(**BORROWING_OPTIONS)
def _side_terms(board, params, sq, piece, enemy_king):
    """(attack weight, evaluation terms, heavy piece on the enemy king's file) of one piece."""
    own = 1 if piece > 0 else -1
    kind = piece * own
    if kind == CHARIOT:
        mobility, pins = chariot_mobility_and_pins(board, sq, own)
        terms = mobility * params[PARAM_CHARIOT_MOBILITY] + pins * params[PARAM_CHARIOT_PIN]
        on_file = sq % 9 == enemy_king % 9
        if on_file and pieces_between_on_file(board, sq, enemy_king) == 0:
            terms += params[PARAM_OPEN_FILE_CHARIOT]
        return 2, terms, on_file
    if kind == HORSE:
        mobility = horse_mobility(board, sq, own)
        terms = mobility * params[PARAM_HORSE_MOBILITY]
        if mobility <= 1:
            terms += params[PARAM_TRAPPED_HORSE]
        return 1, terms, False
    if kind == CANNON:
        terms = cannon_pins(board, sq, own, enemy_king) * params[PARAM_CANNON_PIN]
        on_file = sq % 9 == enemy_king % 9
        if on_file:
            between = pieces_between_on_file(board, sq, enemy_king)
            if between == 0:
                terms += params[PARAM_HOLLOW_CANNON]
            elif between == 1:
                terms += params[PARAM_SCREENED_CANNON]
        elif is_bottom_cannon(board, sq, enemy_king):
            terms += params[PARAM_BOTTOM_CANNON]
        return 1, terms, on_file
    if kind == PAWN:
        rank = sq // 9
        crossed = (own == 1 and rank >= 5) or (own == -1 and rank <= 4)
        return (1 if crossed else 0), 0, False
    return 0, 0, False


@njit(**BORROWING_OPTIONS)
def palace_attack(attackers, params):
    """The bonus of a side with ``attackers`` pieces near the enemy palace: each counts, and each
    pair of them more (one attacker rarely mates; two together often do)."""
    return attackers * params[PARAM_PALACE_ATTACKER] + attackers * (attackers - 1) // 2 * params[PARAM_PALACE_ATTACK_PAIRS]


@njit(**BORROWING_OPTIONS)
def evaluate(board, pos, psq, params):
    """Static score for the side to move: incremental material and piece-square tables, plus
    mobility and trapped horses, king safety (missing advisors/elephants against attackers,
    attackers near the palace and their pairs), cannons and chariots aimed at the enemy king, pins,
    and tempo."""
    red_king = pos[POS_RED_KING]
    black_king = pos[POS_BLACK_KING]
    red_defenders = 0
    black_defenders = 0
    red_attack = 0
    black_attack = 0
    red_terms = 0
    black_terms = 0
    red_heavy = 0
    black_heavy = 0
    red_near = 0
    black_near = 0
    for sq in range(SQUARES):
        piece = board[sq]
        if piece == 0:
            continue
        if piece == ADVISOR or piece == ELEPHANT:
            red_defenders += 1
        elif piece == -ADVISOR or piece == -ELEPHANT:
            black_defenders += 1
        elif piece > 0:
            attack, terms, heavy = _side_terms(board, params, sq, piece, black_king)
            red_attack += attack
            red_terms += terms
            red_heavy += 1 if heavy else 0
            if attack > 0 and in_palace_zone(sq, black_king):
                red_near += 1
        else:
            attack, terms, heavy = _side_terms(board, params, sq, piece, red_king)
            black_attack += attack
            black_terms += terms
            black_heavy += 1 if heavy else 0
            if attack > 0 and in_palace_zone(sq, red_king):
                black_near += 1
    red_terms += palace_attack(red_near, params)
    black_terms += palace_attack(black_near, params)
    red_terms -= (4 - red_defenders) * black_attack * params[PARAM_MISSING_DEFENDER]
    black_terms -= (4 - black_defenders) * red_attack * params[PARAM_MISSING_DEFENDER]
    if red_heavy >= 2:
        red_terms += params[PARAM_CANNON_BATTERY]
    if black_heavy >= 2:
        black_terms += params[PARAM_CANNON_BATTERY]
    red_score = psq[pos[POS_HEIGHT]] + red_terms - black_terms
    return pos[POS_SIDE] * red_score + params[PARAM_TEMPO]
