"""The built-in engine's compiled kernel: array board, move generation, evaluation and search.

Everything here is compiled by numba (``nopython``, cached on disk, GIL released) and works on plain
numpy arrays, so a search runs at native speed and a Python thread can stop it by writing one flag.

Position state (all owned by :class:`xqdesk.engines.builtin.position.Position`):

- ``board``: int8[90], the course's signed piece codes indexed by square (``rank * 9 + file``);
- ``pos``: int64[4], side to move (+1 Red, -1 Black), Red's and Black's king squares, and the height
  ``h`` of the position stacks;
- ``keys``/``clocks``/``psq``: per-ply stacks, entry ``h`` is the current position's Zobrist key,
  capture-free ply count, and material + piece-square score from Red's point of view.

A move is an int ``from_square << 7 | to_square``; 0 means "no move".

The search context ``ctx`` is one tuple of arrays (see :func:`make_context` in ``searcher``):
``(board, pos, keys, clocks, psq, params, tt_keys, tt_data, killers, history, move_buf, score_buf,
pv, pv_len, counters, stop)``. ``stop[0]`` is written by a watchdog thread; the search polls it every
1024 nodes, so a hard deadline is honoured within well under a millisecond.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, types

from xqdesk.engines.builtin import eval_tables, geometry
from xqdesk.engines.builtin.eval_tables import (
    PARAM_CANNON_BATTERY, PARAM_CHARIOT_MOBILITY, PARAM_HOLLOW_CANNON, PARAM_HORSE_MOBILITY,
    PARAM_MISSING_DEFENDER, PARAM_OPEN_FILE_CHARIOT, PARAM_SCREENED_CANNON, PARAM_TEMPO)
from xqdesk.engines.builtin.geometry import (
    ADVISOR_STEPS, ELEPHANT_EYES, ELEPHANT_STEPS, HORSE_ATTACKER_LEGS, HORSE_ATTACKERS, HORSE_LEGS,
    HORSE_TARGETS, KING_STEPS, PAWN_ATTACKERS, PAWN_STEPS, RAYS, zobrist_keys)



def _drop_stale_compiled_code() -> None:
    """numba's disk cache is keyed on this file only, but the tables and offsets imported above
    are baked into the compiled code: drop cached entries older than those modules."""
    cache_dir = Path(__file__).with_name("__pycache__")
    try:
        newest = max(Path(module.__file__).stat().st_mtime for module in (geometry, eval_tables))
        for index in cache_dir.glob(Path(__file__).stem + ".*.nbi"):
            if index.stat().st_mtime < newest:
                index.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only install: its files never change under the cache


_drop_stale_compiled_code()

ZOBRIST_PIECES, ZOBRIST_BLACK_TO_MOVE = zobrist_keys()

POS_SIDE, POS_RED_KING, POS_BLACK_KING, POS_HEIGHT = 0, 1, 2, 3
MAX_PLY = 96
MAX_MOVES = 128
STACK_SIZE = 512

INFINITY = 32000
MATE = 31000
MATE_BOUND = 30000

TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3

C_NODES, C_SELDEPTH, C_NODE_LIMIT, C_STOPPED, C_ROOT_DEPTH, C_DRAW_PLIES, C_ROOT_DONE = range(7)
COUNTER_COUNT = 8

# The search context's type, spelled out so the recursive functions are compiled for exactly one
# signature (literal-typed specialisations of recursive functions do not survive numba's disk cache).
_INT64_1D = types.int64[::1]
_INT64_2D = types.int64[:, ::1]
CONTEXT_TYPE = types.Tuple((
    types.int8[::1], _INT64_1D, types.uint64[::1], _INT64_1D, _INT64_1D, types.int32[::1],  # position
    types.uint64[::1], _INT64_1D,  # transposition table
    _INT64_2D, _INT64_1D, _INT64_2D, _INT64_2D, _INT64_2D, _INT64_1D, _INT64_1D, types.int32[::1],  # search
))
QUIESCE_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.boolean)
ALPHABETA_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.int64,
                                  types.boolean, types.boolean)
SEARCH_ROOT_SIGNATURE = types.int64(CONTEXT_TYPE, _INT64_1D, types.int64, types.int64, types.int64, types.int64)

# MVV-LVA: victim value by piece type (index 0 unused).
VICTIM_ORDER = np.array([0, 2, 3, 3, 6, 6, 10, 20], np.int64)

# What a capture can gain at most, by victim type, for delta pruning in quiescence (centipawns).
CAPTURE_GAIN = np.array([0, 200, 200, 200, 500, 500, 1000, 0], np.int64)
DELTA_MARGIN = 150
FUTILITY_MARGIN = 130

MOVE_HASH = 1 << 30
MOVE_CAPTURE = 1 << 25
MOVE_KILLER = 1 << 24
HISTORY_CAP = 1 << 22


# ---------------------------------------------------------------- board primitives

@njit(cache=True, nogil=True)
def king_square(pos, side):
    return pos[POS_RED_KING] if side == 1 else pos[POS_BLACK_KING]


@njit(cache=True, nogil=True)
def is_attacked_king(board, side, king_sq):
    """True when the king of ``side`` (+1/-1) on ``king_sq`` could be captured by the opponent,
    counting the two kings facing each other on an open file."""
    enemy = -side
    for d in range(4):
        k = 0
        piece = 0
        while k < 10:
            target = RAYS[king_sq, d, k]
            if target < 0:
                break
            piece = board[target]
            if piece != 0:
                break
            k += 1
        if k >= 10 or RAYS[king_sq, d, k] < 0:
            continue
        if piece == enemy * 6 or piece == enemy * 7:
            return True
        k += 1
        while k < 10:
            target = RAYS[king_sq, d, k]
            if target < 0:
                break
            piece = board[target]
            if piece != 0:
                if piece == enemy * 5:
                    return True
                break
            k += 1
    for i in range(8):
        horse = HORSE_ATTACKERS[king_sq, i]
        if horse < 0:
            break
        if board[horse] == enemy * 4 and board[HORSE_ATTACKER_LEGS[king_sq, i]] == 0:
            return True
    color = 0 if enemy == 1 else 1
    for i in range(3):
        pawn = PAWN_ATTACKERS[color, king_sq, i]
        if pawn < 0:
            break
        if board[pawn] == enemy:
            return True
    return False


@njit(cache=True, nogil=True)
def in_check(board, pos):
    side = pos[POS_SIDE]
    return is_attacked_king(board, side, king_square(pos, side))


@njit(cache=True, nogil=True)
def generate_moves(board, side, out, captures_only):
    """Write the pseudo-legal moves of ``side`` into ``out``; return how many. With
    ``captures_only`` only captures are written."""
    n = 0
    for sq in range(90):
        piece = board[sq]
        if piece * side <= 0:
            continue
        kind = piece if piece > 0 else -piece
        origin = sq << 7
        if kind == 6:
            for d in range(4):
                for k in range(10):
                    target = RAYS[sq, d, k]
                    if target < 0:
                        break
                    other = board[target]
                    if other == 0:
                        if not captures_only:
                            out[n] = origin | target
                            n += 1
                    else:
                        if other * side < 0:
                            out[n] = origin | target
                            n += 1
                        break
        elif kind == 5:
            for d in range(4):
                screened = False
                for k in range(10):
                    target = RAYS[sq, d, k]
                    if target < 0:
                        break
                    other = board[target]
                    if not screened:
                        if other == 0:
                            if not captures_only:
                                out[n] = origin | target
                                n += 1
                        else:
                            screened = True
                    elif other != 0:
                        if other * side < 0:
                            out[n] = origin | target
                            n += 1
                        break
        elif kind == 4:
            for i in range(8):
                target = HORSE_TARGETS[sq, i]
                if target < 0:
                    break
                if board[HORSE_LEGS[sq, i]] != 0:
                    continue
                other = board[target]
                if other * side > 0 or (other == 0 and captures_only):
                    continue
                out[n] = origin | target
                n += 1
        elif kind == 1:
            color = 0 if side == 1 else 1
            for i in range(3):
                target = PAWN_STEPS[color, sq, i]
                if target < 0:
                    break
                other = board[target]
                if other * side > 0 or (other == 0 and captures_only):
                    continue
                out[n] = origin | target
                n += 1
        elif kind == 3:
            for i in range(4):
                target = ELEPHANT_STEPS[sq, i]
                if target < 0:
                    break
                if board[ELEPHANT_EYES[sq, i]] != 0:
                    continue
                other = board[target]
                if other * side > 0 or (other == 0 and captures_only):
                    continue
                out[n] = origin | target
                n += 1
        else:
            steps = ADVISOR_STEPS if kind == 2 else KING_STEPS
            for i in range(4):
                target = steps[sq, i]
                if target < 0:
                    break
                other = board[target]
                if other * side > 0 or (other == 0 and captures_only):
                    continue
                out[n] = origin | target
                n += 1
    return n


@njit(cache=True, nogil=True)
def make_move(board, pos, keys, clocks, psq, params, move):
    """Play ``move`` (assumed pseudo-legal) and push the new stack entry; return the captured code."""
    origin = move >> 7
    target = move & 127
    piece = board[origin]
    captured = board[target]
    h = pos[POS_HEIGHT]
    key = keys[h] ^ ZOBRIST_PIECES[piece + 7, origin] ^ ZOBRIST_PIECES[piece + 7, target] ^ ZOBRIST_BLACK_TO_MOVE
    score = psq[h] - params[(piece + 7) * 90 + origin] + params[(piece + 7) * 90 + target]
    if captured != 0:
        key ^= ZOBRIST_PIECES[captured + 7, target]
        score -= params[(captured + 7) * 90 + target]
        clock = 0
    else:
        clock = clocks[h] + 1
    board[target] = piece
    board[origin] = 0
    if piece == 7:
        pos[POS_RED_KING] = target
    elif piece == -7:
        pos[POS_BLACK_KING] = target
    h += 1
    keys[h] = key
    clocks[h] = clock
    psq[h] = score
    pos[POS_HEIGHT] = h
    pos[POS_SIDE] = -pos[POS_SIDE]
    return captured


@njit(cache=True, nogil=True)
def unmake_move(board, pos, move, captured):
    origin = move >> 7
    target = move & 127
    piece = board[target]
    board[origin] = piece
    board[target] = captured
    if piece == 7:
        pos[POS_RED_KING] = origin
    elif piece == -7:
        pos[POS_BLACK_KING] = origin
    pos[POS_HEIGHT] -= 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(cache=True, nogil=True)
def make_null_move(pos, keys, clocks, psq):
    h = pos[POS_HEIGHT]
    keys[h + 1] = keys[h] ^ ZOBRIST_BLACK_TO_MOVE
    clocks[h + 1] = 0  # no repetition is detected across a null move
    psq[h + 1] = psq[h]
    pos[POS_HEIGHT] = h + 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(cache=True, nogil=True)
def unmake_null_move(pos):
    pos[POS_HEIGHT] -= 1
    pos[POS_SIDE] = -pos[POS_SIDE]


@njit(cache=True, nogil=True)
def legal_moves(board, pos, keys, clocks, psq, params, out):
    """Write the legal moves of the side to move into ``out`` (course rules except the
    perpetual-check restriction, which needs the game's history); return how many."""
    side = pos[POS_SIDE]
    buffer = np.empty(MAX_MOVES, np.int64)
    count = generate_moves(board, side, buffer, False)
    n = 0
    for i in range(count):
        move = buffer[i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if not is_attacked_king(board, side, king_square(pos, side)):
            out[n] = move
            n += 1
        unmake_move(board, pos, move, captured)
    return n


@njit(cache=True, nogil=True)
def perft(board, pos, keys, clocks, psq, params, move_buf, depth, ply):
    """The number of legal move sequences of length ``depth`` (leaf nodes)."""
    side = pos[POS_SIDE]
    count = generate_moves(board, side, move_buf[ply], False)
    total = 0
    for i in range(count):
        move = move_buf[ply, i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if not is_attacked_king(board, side, king_square(pos, side)):
            total += 1 if depth <= 1 else perft(board, pos, keys, clocks, psq, params, move_buf, depth - 1, ply + 1)
        unmake_move(board, pos, move, captured)
    return total


# ---------------------------------------------------------------- evaluation

@njit(cache=True, nogil=True)
def _pieces_between_on_file(board, a, b):
    low = a if a < b else b
    high = b if a < b else a
    count = 0
    sq = low + 9
    while sq < high:
        if board[sq] != 0:
            count += 1
        sq += 9
    return count


@njit(cache=True, nogil=True)
def _side_terms(board, params, sq, piece, enemy_king):
    """(attack weight, evaluation terms, heavy piece on the enemy king's file) of one piece."""
    own = 1 if piece > 0 else -1
    kind = piece * own
    if kind == 6:
        mobility = 0
        for d in range(4):
            for k in range(10):
                target = RAYS[sq, d, k]
                if target < 0 or board[target] != 0:
                    break
                mobility += 1
        terms = mobility * params[PARAM_CHARIOT_MOBILITY]
        on_file = sq % 9 == enemy_king % 9
        if on_file and _pieces_between_on_file(board, sq, enemy_king) == 0:
            terms += params[PARAM_OPEN_FILE_CHARIOT]
        return 2, terms, on_file
    if kind == 4:
        mobility = 0
        for i in range(8):
            target = HORSE_TARGETS[sq, i]
            if target < 0:
                break
            if board[HORSE_LEGS[sq, i]] == 0 and board[target] * own <= 0:
                mobility += 1
        return 1, mobility * params[PARAM_HORSE_MOBILITY], False
    if kind == 5:
        terms = 0
        on_file = sq % 9 == enemy_king % 9
        if on_file:
            between = _pieces_between_on_file(board, sq, enemy_king)
            if between == 0:
                terms = params[PARAM_HOLLOW_CANNON]
            elif between == 1:
                terms = params[PARAM_SCREENED_CANNON]
        return 1, terms, on_file
    if kind == 1:
        rank = sq // 9
        crossed = (own == 1 and rank >= 5) or (own == -1 and rank <= 4)
        return (1 if crossed else 0), 0, False
    return 0, 0, False


@njit(cache=True, nogil=True)
def evaluate(board, pos, psq, params):
    """Static score for the side to move: incremental material and piece-square tables, plus
    mobility, king safety (missing advisors/elephants against attackers), cannons and chariots
    aimed at the enemy king, and tempo."""
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
    for sq in range(90):
        piece = board[sq]
        if piece == 0:
            continue
        if piece == 2 or piece == 3:
            red_defenders += 1
        elif piece == -2 or piece == -3:
            black_defenders += 1
        elif piece > 0:
            attack, terms, heavy = _side_terms(board, params, sq, piece, black_king)
            red_attack += attack
            red_terms += terms
            red_heavy += 1 if heavy else 0
        else:
            attack, terms, heavy = _side_terms(board, params, sq, piece, red_king)
            black_attack += attack
            black_terms += terms
            black_heavy += 1 if heavy else 0
    red_terms -= (4 - red_defenders) * black_attack * params[PARAM_MISSING_DEFENDER]
    black_terms -= (4 - black_defenders) * red_attack * params[PARAM_MISSING_DEFENDER]
    if red_heavy >= 2:
        red_terms += params[PARAM_CANNON_BATTERY]
    if black_heavy >= 2:
        black_terms += params[PARAM_CANNON_BATTERY]
    red_score = psq[pos[POS_HEIGHT]] + red_terms - black_terms
    return pos[POS_SIDE] * red_score + params[PARAM_TEMPO]


# ---------------------------------------------------------------- search

@njit(cache=True, nogil=True)
def _tick(counters, stop):
    """Count a node; poll the stop flag and the node limit every 1024 nodes. True = stop now."""
    counters[C_NODES] += 1
    if (counters[C_NODES] & 1023) == 0:
        if stop[0] != 0 or (counters[C_NODE_LIMIT] > 0 and counters[C_NODES] >= counters[C_NODE_LIMIT]):
            counters[C_STOPPED] = 1
    return counters[C_STOPPED] != 0


@njit(cache=True, nogil=True)
def _is_repetition(keys, clocks, h):
    key = keys[h]
    lowest = h - clocks[h]
    if lowest < 0:
        lowest = 0
    i = h - 4
    while i >= lowest:
        if keys[i] == key:
            return True
        i -= 2
    return False


@njit(cache=True, nogil=True)
def _score_moves(board, moves, scores, count, hash_move, killer_a, killer_b, history):
    for i in range(count):
        move = moves[i]
        target_piece = board[move & 127]
        if move == hash_move:
            scores[i] = MOVE_HASH
        elif target_piece != 0:
            victim = target_piece if target_piece > 0 else -target_piece
            attacker = board[move >> 7]
            attacker = attacker if attacker > 0 else -attacker
            scores[i] = MOVE_CAPTURE + VICTIM_ORDER[victim] * 64 - VICTIM_ORDER[attacker]
        elif move == killer_a:
            scores[i] = MOVE_KILLER + 1
        elif move == killer_b:
            scores[i] = MOVE_KILLER
        else:
            scores[i] = history[(move >> 7) * 90 + (move & 127)]


@njit(cache=True, nogil=True)
def _pick(moves, scores, start, count):
    """Swap the best-scored move among ``start..count-1`` into ``start`` and return it."""
    best = start
    for i in range(start + 1, count):
        if scores[i] > scores[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        scores[start], scores[best] = scores[best], scores[start]
    return moves[start]


@njit(cache=True, nogil=True)
def _has_big_pieces(board, side):
    for sq in range(90):
        piece = board[sq] * side
        if piece == 4 or piece == 5 or piece == 6:
            return True
    return False


@njit(cache=True, nogil=True)
def _tt_store(tt_keys, tt_data, key, move, depth, flag, score, ply):
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    index = key & np.uint64(len(tt_keys) - 1)
    if tt_keys[index] == key and ((tt_data[index] >> 14) & 255) > depth and flag != TT_EXACT:
        return
    if move == 0 and tt_keys[index] == key:
        move = tt_data[index] & 0x3FFF
    tt_keys[index] = key
    tt_data[index] = (move & 0x3FFF) | ((depth & 255) << 14) | (flag << 22) | ((score + 65536) << 24)


@njit(QUIESCE_SIGNATURE, cache=True, nogil=True)
def quiesce(ctx, ply, alpha, beta, checked):
    (board, pos, keys, clocks, psq, params, tt_keys, tt_data, killers, history, move_buf, score_buf,
     pv, pv_len, counters, stop) = ctx
    if _tick(counters, stop):
        return 0
    if ply > counters[C_SELDEPTH]:
        counters[C_SELDEPTH] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES]:
        return 0
    if ply >= MAX_PLY - 1:
        return evaluate(board, pos, psq, params)
    side = pos[POS_SIDE]
    moves = move_buf[ply]
    scores = score_buf[ply]
    if checked:
        best = -MATE + ply
        count = generate_moves(board, side, moves, False)
    else:
        best = evaluate(board, pos, psq, params)
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
        count = generate_moves(board, side, moves, True)
    _score_moves(board, moves, scores, count, 0, 0, 0, history)
    stand_pat = best
    for i in range(count):
        move = _pick(moves, scores, i, count)
        if not checked:
            victim = board[move & 127]
            victim = victim if victim > 0 else -victim
            if victim != 7 and stand_pat + CAPTURE_GAIN[victim] + DELTA_MARGIN <= alpha:
                continue  # delta pruning: even winning this piece cannot reach alpha
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if is_attacked_king(board, side, king_square(pos, side)):
            unmake_move(board, pos, move, captured)
            continue
        gives_check = is_attacked_king(board, -side, king_square(pos, -side))
        score = -quiesce(ctx, ply + 1, -beta, -alpha, gives_check)
        unmake_move(board, pos, move, captured)
        if counters[C_STOPPED] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


@njit(ALPHABETA_SIGNATURE, cache=True, nogil=True)
def alphabeta(ctx, depth, ply, alpha, beta, checked, null_ok):
    """Principal-variation search with TT, null move, late-move reductions and check extensions.
    Scores are from the side to move's view; mate in n plies scores ``MATE - n``."""
    (board, pos, keys, clocks, psq, params, tt_keys, tt_data, killers, history, move_buf, score_buf,
     pv, pv_len, counters, stop) = ctx
    # Booleans computed at run time: a literal True/False argument would make numba compile a
    # separate specialisation of this recursive function, which its disk cache cannot reload.
    allowed = depth > -INFINITY
    forbidden = not allowed
    if depth <= 0:
        return quiesce(ctx, ply, alpha, beta, checked)
    if _tick(counters, stop):
        return 0
    pv_len[ply] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES] or _is_repetition(keys, clocks, h):
        return 0
    if ply >= MAX_PLY - 1:
        return evaluate(board, pos, psq, params)
    if alpha < -MATE + ply:
        alpha = -MATE + ply
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha
    is_pv = beta - alpha > 1
    side = pos[POS_SIDE]
    key = keys[h]
    index = key & np.uint64(len(tt_keys) - 1)
    hash_move = 0
    if tt_keys[index] == key:
        data = tt_data[index]
        hash_move = data & 0x3FFF
        stored_depth = (data >> 14) & 255
        if stored_depth >= depth and not is_pv:
            flag = (data >> 22) & 3
            score = ((data >> 24) & 0x1FFFF) - 65536
            if score > MATE_BOUND:
                score -= ply
            elif score < -MATE_BOUND:
                score += ply
            if flag == TT_EXACT or (flag == TT_LOWER and score >= beta) or (flag == TT_UPPER and score <= alpha):
                return score

    static = -INFINITY
    if not checked and not is_pv:
        static = evaluate(board, pos, psq, params)
        if depth <= 3 and static - 110 * depth >= beta and beta > -MATE_BOUND and beta < MATE_BOUND:
            return static
        if null_ok and depth >= 3 and static >= beta and _has_big_pieces(board, side):
            reduction = 3 if depth >= 7 else 2
            make_null_move(pos, keys, clocks, psq)
            score = -alphabeta(ctx, depth - 1 - reduction, ply + 1, -beta, -beta + 1, forbidden, forbidden)
            unmake_null_move(pos)
            if counters[C_STOPPED] != 0:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score

    moves = move_buf[ply]
    scores = score_buf[ply]
    count = generate_moves(board, side, moves, False)
    _score_moves(board, moves, scores, count, hash_move, killers[ply, 0], killers[ply, 1], history)
    best = -INFINITY
    best_move = 0
    legal = 0
    original_alpha = alpha
    extension_room = ply < 2 * counters[C_ROOT_DEPTH] + 4
    # Frontier nodes far below alpha: quiet moves that give no check are skipped (futility), and
    # at small depths only the first quiet moves in order are tried (late-move pruning).
    futile = static > -INFINITY and depth <= 2 and static + FUTILITY_MARGIN * depth <= alpha \
        and alpha > -MATE_BOUND and alpha < MATE_BOUND
    late_move_limit = 6 + 4 * depth * depth if (depth <= 3 and static > -INFINITY) else 1000
    for i in range(count):
        move = _pick(moves, scores, i, count)
        is_quiet = board[move & 127] == 0
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if is_attacked_king(board, side, king_square(pos, side)):
            unmake_move(board, pos, move, captured)
            continue
        legal += 1
        pv_len[ply + 1] = ply + 1
        gives_check = is_attacked_king(board, -side, king_square(pos, -side))
        if legal > 1 and is_quiet and not gives_check and (futile or legal > late_move_limit) \
                and move != killers[ply, 0]:
            unmake_move(board, pos, move, captured)
            continue
        new_depth = depth - 1
        if gives_check and extension_room:
            new_depth += 1
        if legal == 1:
            score = -alphabeta(ctx, new_depth, ply + 1, -beta, -alpha, gives_check, allowed)
        else:
            reduction = 0
            if depth >= 3 and is_quiet and not checked and not gives_check and legal > 3 \
                    and move != killers[ply, 0] and move != killers[ply, 1]:
                reduction = 1
                if legal > 8:
                    reduction += 1
                if depth >= 8 and legal > 16:
                    reduction += 1
                if is_pv and reduction > 1:
                    reduction -= 1
            score = -alphabeta(ctx, new_depth - reduction, ply + 1, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and reduction > 0:
                score = -alphabeta(ctx, new_depth, ply + 1, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and score < beta:
                score = -alphabeta(ctx, new_depth, ply + 1, -beta, -alpha, gives_check, allowed)
        unmake_move(board, pos, move, captured)
        if counters[C_STOPPED] != 0:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                pv[ply, ply] = move
                for j in range(ply + 1, pv_len[ply + 1]):
                    pv[ply, j] = pv[ply + 1, j]
                pv_len[ply] = pv_len[ply + 1] if pv_len[ply + 1] > ply + 1 else ply + 1
                if score >= beta:
                    if is_quiet:
                        if killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        slot = (move >> 7) * 90 + (move & 127)
                        history[slot] += depth * depth
                        if history[slot] > HISTORY_CAP:
                            for j in range(len(history)):
                                history[j] >>= 1
                    break
    if legal == 0:
        return -MATE + ply  # no legal move: the side to move loses (checkmate or stalemate)
    if best >= beta:
        flag = TT_LOWER
    elif best > original_alpha:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    _tt_store(tt_keys, tt_data, key, best_move, depth, flag, best, ply)
    return best


@njit(SEARCH_ROOT_SIGNATURE, cache=True, nogil=True)
def search_root(ctx, root_moves, root_count, depth, alpha, beta):
    """Search the given root moves (best first) to ``depth``. Returns the best score; the best line
    is left in ``pv[0, :pv_len[0]]`` and ``counters[C_ROOT_DONE]`` counts completed root moves (so a
    stopped iteration's partial result can be judged)."""
    (board, pos, keys, clocks, psq, params, tt_keys, tt_data, killers, history, move_buf, score_buf,
     pv, pv_len, counters, stop) = ctx
    counters[C_ROOT_DEPTH] = depth
    counters[C_ROOT_DONE] = 0
    pv_len[0] = 0
    side = pos[POS_SIDE]
    best = -INFINITY
    original_alpha = alpha
    allowed = depth > -INFINITY  # run-time values, see alphabeta
    child_ply = np.int64(1)
    for i in range(root_count):
        move = root_moves[i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        pv_len[1] = 1
        gives_check = is_attacked_king(board, -side, king_square(pos, -side))
        new_depth = depth - 1 + (1 if gives_check else 0)
        if i == 0:
            score = -alphabeta(ctx, new_depth, child_ply, -beta, -alpha, gives_check, allowed)
        else:
            score = -alphabeta(ctx, new_depth, child_ply, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and score < beta:
                score = -alphabeta(ctx, new_depth, child_ply, -beta, -alpha, gives_check, allowed)
        unmake_move(board, pos, move, captured)
        if counters[C_STOPPED] != 0:
            break
        counters[C_ROOT_DONE] += 1
        if score > best:
            best = score
            if score > alpha or i == 0:
                pv[0, 0] = move
                for j in range(1, pv_len[1]):
                    pv[0, j] = pv[1, j]
                pv_len[0] = pv_len[1] if pv_len[1] > 1 else 1
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    if counters[C_STOPPED] == 0 and root_count > 0:
        flag = TT_LOWER if best >= beta else (TT_EXACT if best > original_alpha else TT_UPPER)
        _tt_store(tt_keys, tt_data, keys[pos[POS_HEIGHT]], pv[0, 0], depth, flag, best, 0)
    return best
