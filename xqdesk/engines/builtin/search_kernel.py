"""The built-in engine's compiled search: PVS with a transposition table, quiescence, pruning.

The search context ``ctx`` is a :class:`SearchContext`, a named record of arrays (built by
:class:`xqdesk.engines.builtin.searcher.Searcher`): the position state of ``board_kernel``, the
transposition table and the search's own tables. ``stop[0]`` is written by a watchdog thread; the
search polls it every 1024 nodes, so a hard deadline is honoured within well under a millisecond.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

from xqdesk.engines.builtin import (
    board_kernel, endgame_kernel, eval_kernel, eval_tables, exchange_kernel, geometry, nnue_kernel,
    perpetual_kernel, table_kernel)
from xqdesk.engines.builtin.board_kernel import (
    MAX_PLY, POS_HEIGHT, POS_SIDE, generate_moves, is_attacked_king, king_square, make_move,
    make_null_move, unmake_move, unmake_null_move)
from xqdesk.engines.builtin.compiled import COMPILE_OPTIONS, drop_stale_compiled_code
from xqdesk.engines.builtin.endgame_kernel import scale_for_winning_chances
from xqdesk.engines.builtin.eval_kernel import evaluate
from xqdesk.engines.builtin.eval_tables import PARAM_TEMPO
from xqdesk.engines.builtin.exchange_kernel import (
    check_squares, in_mask, is_en_prise, loses_material, quiet_move_loses)
from xqdesk.engines.builtin.geometry import SQUARES
from xqdesk.engines.builtin.nnue_kernel import NETWORK_STATE_TYPE, NetworkState, uses_network
from xqdesk.engines.builtin.perpetual_kernel import checking_pieces, is_banned
from xqdesk.engines.builtin.table_kernel import table_score
from xqdesk.pieces import CANNON, CHARIOT, HORSE, KING, PAWN

drop_stale_compiled_code(__file__, (geometry, eval_tables, board_kernel, eval_kernel, perpetual_kernel,
                                   exchange_kernel, endgame_kernel, table_kernel, nnue_kernel))

INFINITY = 32000
MATE = 31000
MATE_BOUND = 30000

TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3

# A transposition-table entry packs the move (14 bits), the depth (8), the bound flag (2), the
# score (offset to stay positive) and the search generation that wrote it (8) into one positive
# int64 (never 0: the flag is at least 1): see _tt_pack and _tt_unpack.
TT_MOVE_MASK = 0x3FFF
TT_DEPTH_SHIFT, TT_DEPTH_MASK = 14, 255
TT_FLAG_SHIFT, TT_FLAG_MASK = 22, 3
TT_SCORE_SHIFT, TT_SCORE_MASK, TT_SCORE_OFFSET = 24, 0x1FFFF, 65536
TT_GENERATION_SHIFT, TT_GENERATION_MASK = 41, 255

TT_BUCKET = 4
"""Entries per table index: a position may sit in any of them. A new entry replaces the same
position's entry, else the bucket's least worth keeping (see _tt_store)."""
TT_AGE_WEIGHT = 8
"""In the replacement choice, each search generation of age costs an entry this many plies of depth."""

# A move is ``origin << MOVE_FROM_SHIFT | target``.
MOVE_FROM_SHIFT, MOVE_TO_MASK = 7, 127

POLL_MASK = 1023
"""The stop flag and the node limit are polled every POLL_MASK + 1 nodes."""

(C_NODES, C_SELDEPTH, C_NODE_LIMIT, C_STOPPED, C_ROOT_DEPTH, C_DRAW_PLIES, C_ROOT_DONE, C_CHECK_LIMIT,
 C_CHECK_MIN_HISTORY, C_HISTORY_OFFSET, C_GENERATION, C_ENDGAME, C_LAZY_MARGIN) = range(13)
"""C_CHECK_LIMIT and C_CHECK_MIN_HISTORY: the ruleset's perpetual-check ban (limit 0: none);
C_HISTORY_OFFSET: the game's moves before the position's height 0 (the ban needs a long enough
history); C_GENERATION: the search's number (mod 256), which ages the table's entries;
C_ENDGAME: 1 when the root's phase count is at most ENDGAME_PHASE (the static score is then
scaled by the winning chances); C_LAZY_MARGIN: quiescence's lazy-evaluation margin (0: always
evaluate in full)."""
COUNTER_COUNT = 13



class SearchContext(NamedTuple):
    """Everything the compiled search reads and writes, one record so that the recursive functions
    take one argument (numba compiles a named tuple of arrays as a struct of pointers)."""

    board: np.ndarray
    """The position (``board_kernel``): squares, ..."""
    pos: np.ndarray
    """... side to move, height, king squares and scores, ..."""
    keys: np.ndarray
    """... the Zobrist key of every position of the game and the search, ..."""
    clocks: np.ndarray
    """... the capture-free ply count of each, ..."""
    psq: np.ndarray
    """... the piece-square tables, ..."""
    trail_moves: np.ndarray
    """... the move that led to each height ...."""
    trail_checkers: np.ndarray
    """... and the pieces then giving check (``perpetual_kernel``) ..."""
    params: np.ndarray
    """... and the evaluation's weights."""
    tt_keys: np.ndarray
    """The transposition table, :data:`TT_BUCKET` entries per index: each entry's key XOR its data
    (so an entry whose two words were written by different threads is not believed) ..."""
    tt_data: np.ndarray
    """... and its data: packed move, depth, bound, score and generation (see _tt_pack)."""
    killers: np.ndarray
    """Two killer moves per ply."""
    history: np.ndarray
    """History scores, by (origin, target)."""
    move_buf: np.ndarray
    """Generated moves, one row per ply ..."""
    score_buf: np.ndarray
    """... and their ordering scores."""
    pv: np.ndarray
    """The triangular principal-variation table ..."""
    pv_len: np.ndarray
    """... and the length of each row."""
    counters: np.ndarray
    """Nodes, selective depth, limits and flags, indexed by the C_* constants."""
    stop: np.ndarray
    """``stop[0]`` != 0 asks the search to stop (set by the watchdog thread)."""
    excluded: np.ndarray
    """The move a node's search leaves out, by ply (0: none): the singular-extension test."""
    table_meta: np.ndarray
    """The endgame tables captures can lead into (``table_kernel``; no rows: none): their rows, ..."""
    table_positions: np.ndarray
    """... their index layouts ..."""
    table_values: np.ndarray
    """... and their values."""
    network: NetworkState
    """The learned evaluation and this thread's accumulators (``nnue_kernel``; no network: the
    hand-written evaluation)."""


# The context's type, spelled out so the recursive functions are compiled for exactly one
# signature (literal-typed specialisations of recursive functions do not survive numba's disk cache).
_INT64_1D = types.int64[::1]
_INT64_2D = types.int64[:, ::1]
CONTEXT_TYPE = types.NamedTuple((
    types.int8[::1], _INT64_1D, types.uint64[::1], _INT64_1D, _INT64_1D, _INT64_1D, _INT64_1D,  # position
    types.int32[::1],  # evaluation
    types.uint64[::1], _INT64_1D,  # transposition table
    _INT64_2D, _INT64_1D, _INT64_2D, _INT64_2D, _INT64_2D, _INT64_1D, _INT64_1D, types.int32[::1],  # search
    _INT64_1D,  # excluded moves
    _INT64_2D, types.int16[:, ::1], types.uint16[::1],  # endgame tables
    NETWORK_STATE_TYPE,  # learned evaluation
), SearchContext)
QUIESCE_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.boolean, types.boolean)
ALPHABETA_SIGNATURE = types.int64(CONTEXT_TYPE, types.int64, types.int64, types.int64, types.int64,
                                  types.boolean, types.boolean)
SEARCH_ROOT_SIGNATURE = types.int64(CONTEXT_TYPE, _INT64_1D, types.int64, types.int64, types.int64, types.int64)

# MVV-LVA: victim value by piece type (index 0 unused).
VICTIM_ORDER = np.array([0, 2, 3, 3, 6, 6, 10, 20], np.int64)

# What a capture can gain at most, by victim type, for delta pruning in quiescence (centipawns).
CAPTURE_GAIN = np.array([0, 200, 200, 200, 500, 500, 1000, 0], np.int64)
DELTA_MARGIN = 150
LAZY_MARGIN = 200
"""Quiescence skips the full evaluation when material and piece-square tables alone are this far
outside the window: the other terms move the score of master-game positions by at most about
±100 cp with the fitted weights (±210 with the earlier hand-set ones). Not with the network (its
score has no such bound), nor in the endgame (a root phase count of at most ENDGAME_PHASE): there
the winning chances (``endgame_kernel``) scale a material lead down, which the tables cannot tell.
Elsewhere the scaling is skipped: a search from
the middlegame rarely reaches such an ending, and it costs a look at the whole board."""
ENDGAME_PHASE = 40
FUTILITY_MARGIN = 130
"""Per ply of depth: quiet moves at depth <= FUTILITY_DEPTH this far below alpha are skipped."""
FUTILITY_DEPTH = 2
REVERSE_FUTILITY_MARGIN = 110
"""Per ply of depth: a static score this far above beta at depth <= REVERSE_FUTILITY_DEPTH cuts."""
REVERSE_FUTILITY_DEPTH = 3
NULL_MOVE_MIN_DEPTH = 3
NULL_MOVE_REDUCTION, NULL_MOVE_DEEP_REDUCTION, NULL_MOVE_DEEP_DEPTH = 2, 3, 7
LATE_MOVE_PRUNING_DEPTH = 3
"""At depth <= this, only the first LATE_MOVE_BASE + LATE_MOVE_SCALE * depth² quiet moves are tried."""
LATE_MOVE_BASE, LATE_MOVE_SCALE = 6, 4
NO_LATE_MOVE_LIMIT = 1000
LMR_MIN_DEPTH, LMR_FIRST_MOVES = 3, 3
"""Late-move reductions start at this depth, after this many legal moves (one ply)..."""
LMR_MORE_MOVES = 8
"""... one more ply after this many moves, and one more at LMR_DEEP_DEPTH after LMR_DEEP_MOVES."""
LMR_DEEP_DEPTH, LMR_DEEP_MOVES = 8, 16
CHECK_EXTENSION_PLY_FACTOR, CHECK_EXTENSION_PLY_SLACK = 2, 4
"""Checks, the moves of a node whose null move is mated (a mate threat) and singular moves are
extended while ply < factor * root depth + slack (so extensions cannot run away)."""
SINGULAR_MIN_DEPTH = 6
"""From this depth, a hash move whose stored lower bound is at most SINGULAR_TT_SLACK plies
shallower is searched one ply deeper when every other move, searched to half the depth, stays
SINGULAR_MARGIN per ply below its score (it is singular)."""
SINGULAR_TT_SLACK, SINGULAR_MARGIN = 3, 2

MOVE_HASH = 1 << 30
MOVE_CAPTURE = 1 << 25
MOVE_KILLER = 1 << 24
MOVE_LOSING_CAPTURE = -(1 << 12)
HISTORY_CAP = 1 << 22


@njit(**COMPILE_OPTIONS)
def _tick(counters, stop):
    """Count a node; poll the stop flag and the node limit every 1024 nodes. True = stop now."""
    counters[C_NODES] += 1
    if (counters[C_NODES] & POLL_MASK) == 0:
        if stop[0] != 0 or (counters[C_NODE_LIMIT] > 0 and counters[C_NODES] >= counters[C_NODE_LIMIT]):
            counters[C_STOPPED] = 1
    return counters[C_STOPPED] != 0


@njit(**COMPILE_OPTIONS)
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


@njit(**COMPILE_OPTIONS)
def _history_slot(move):
    """The history table's index of ``move`` (origin × squares + target)."""
    return (move >> MOVE_FROM_SHIFT) * SQUARES + (move & MOVE_TO_MASK)


@njit(**COMPILE_OPTIONS)
def _score_moves(board, moves, scores, count, hash_move, killer_a, killer_b, history, losing_last):
    """Order keys: the hash move, captures by MVV-LVA, killers, quiet moves by history; with
    ``losing_last``, captures that lose material by SEE come after every other move."""
    for i in range(count):
        move = moves[i]
        target_piece = board[move & MOVE_TO_MASK]
        if move == hash_move:
            scores[i] = MOVE_HASH
        elif target_piece != 0:
            victim = target_piece if target_piece > 0 else -target_piece
            attacker = board[move >> MOVE_FROM_SHIFT]
            attacker = attacker if attacker > 0 else -attacker
            scores[i] = MOVE_CAPTURE + VICTIM_ORDER[victim] * 64 - VICTIM_ORDER[attacker]
            if losing_last and loses_material(board, move):
                scores[i] = MOVE_LOSING_CAPTURE + VICTIM_ORDER[victim] * 64 - VICTIM_ORDER[attacker]
        elif move == killer_a:
            scores[i] = MOVE_KILLER + 1
        elif move == killer_b:
            scores[i] = MOVE_KILLER
        else:
            scores[i] = history[_history_slot(move)]


@njit(**COMPILE_OPTIONS)
def _static_score(board, pos, keys, psq, params, counters, network):
    """The evaluation for the side to move — the ``network``'s when one is loaded, else the
    hand-written one — scaled, when the root is an endgame (``C_ENDGAME``), by the winning chances
    of the side it favours. (It takes the context's arrays, not the context: passing the whole
    context at every node costs speed.)"""
    if uses_network(network):
        score = nnue_kernel.evaluate(network, board, pos, keys)
    else:
        score = evaluate(board, pos, psq, params)
    if counters[C_ENDGAME] == 0:
        return score
    return scale_for_winning_chances(board, score, pos[POS_SIDE])


@njit(**COMPILE_OPTIONS)
def _probe_tables(board, pos, clocks, counters, ply, table_meta, table_positions, table_values):
    """``(found, score)`` of the position from the endgame tables, probed only right after a
    capture (the material is the root's until one, and the root's own balance is not packed)."""
    h = pos[POS_HEIGHT]
    if len(table_meta) == 0 or ply == 0 or clocks[h] != 0:
        return False, 0
    return table_score(board, pos[POS_SIDE], ply, table_meta, table_positions, table_values,
                       counters[C_DRAW_PLIES] - clocks[h], MATE)


@njit(**COMPILE_OPTIONS)
def _escapes_threat(board, move, threat_square, known, threatened):
    """``(escapes, known, threatened)``: whether the quiet ``move`` (already made) moved a piece the
    opponent threatened — the reply to a null move went to its square, or it was en prise there —
    and the node's answers so far by origin square, as bit masks (bit ``square`` of a pair of
    64-bit words: ``known`` the squares answered, ``threatened`` those answered yes)."""
    origin = move >> MOVE_FROM_SHIFT
    if origin == threat_square:
        return True, known, threatened
    word = origin >> 6
    bit = np.int64(1) << (origin & 63)
    if known[word] & bit == 0:
        target = move & MOVE_TO_MASK
        board[origin] = board[target]  # the piece back on its square for a moment
        board[target] = 0
        prise = is_en_prise(board, origin)
        board[target] = board[origin]
        board[origin] = 0
        known = (known[0] | bit, known[1]) if word == 0 else (known[0], known[1] | bit)
        if prise:
            threatened = (threatened[0] | bit, threatened[1]) if word == 0 else (threatened[0], threatened[1] | bit)
    return threatened[word] & bit != 0, known, threatened


@njit(**COMPILE_OPTIONS)
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


@njit(**COMPILE_OPTIONS)
def _has_big_pieces(board, side):
    for sq in range(SQUARES):
        piece = board[sq] * side
        if piece == HORSE or piece == CANNON or piece == CHARIOT:
            return True
    return False


@njit(**COMPILE_OPTIONS)
def _tt_pack(move, depth, flag, score, generation):
    """One table entry's data (see the TT_* layout)."""
    return ((move & TT_MOVE_MASK) | ((depth & TT_DEPTH_MASK) << TT_DEPTH_SHIFT) | (flag << TT_FLAG_SHIFT)
            | ((score + TT_SCORE_OFFSET) << TT_SCORE_SHIFT)
            | ((generation & TT_GENERATION_MASK) << TT_GENERATION_SHIFT))


@njit(**COMPILE_OPTIONS)
def _tt_unpack(data):
    """``(move, depth, flag, score)`` of one table entry's data."""
    return (data & TT_MOVE_MASK, (data >> TT_DEPTH_SHIFT) & TT_DEPTH_MASK, (data >> TT_FLAG_SHIFT) & TT_FLAG_MASK,
            ((data >> TT_SCORE_SHIFT) & TT_SCORE_MASK) - TT_SCORE_OFFSET)


@njit(**COMPILE_OPTIONS)
def _tt_bucket(tt_keys, key):
    """The first entry of ``key``'s bucket."""
    return np.int64(key & np.uint64(len(tt_keys) // TT_BUCKET - 1)) * TT_BUCKET


@njit(**COMPILE_OPTIONS)
def _tt_probe(tt_keys, tt_data, key):
    """The data of ``key``'s entry, or 0 when the table holds none. An entry counts only when its
    stored word equals ``key`` XOR its data: data written over another position's key (two threads
    storing at once) is ignored."""
    base = _tt_bucket(tt_keys, key)
    for slot in range(base, base + TT_BUCKET):
        data = tt_data[slot]
        if data != 0 and (tt_keys[slot] ^ np.uint64(data)) == key:
            return data
    return np.int64(0)


@njit(**COMPILE_OPTIONS)
def _tt_score_at(score, ply):
    """A stored score as seen ``ply`` plies from the root (mate scores are stored from the node)."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(**COMPILE_OPTIONS)
def _tt_decides(flag, score, alpha, beta):
    """Whether a stored bound of kind ``flag`` settles the window (alpha, beta) by itself."""
    return flag == TT_EXACT or (flag == TT_LOWER and score >= beta) or (flag == TT_UPPER and score <= alpha)


@njit(**COMPILE_OPTIONS)
def _tt_age(data, generation):
    """How many searches ago the entry ``data`` was written (mod 256)."""
    return (generation - ((data >> TT_GENERATION_SHIFT) & TT_GENERATION_MASK)) & TT_GENERATION_MASK


@njit(**COMPILE_OPTIONS)
def _tt_store(tt_keys, tt_data, key, move, depth, flag, score, ply, generation):
    """Store a search result. The position's own entry is updated (but a deeper entry of this
    search is kept unless the new result is exact and not quiescence's, depth 0; a missing move
    keeps the old one); otherwise
    the bucket's empty entry or the one of least depth minus TT_AGE_WEIGHT per search of age is
    replaced."""
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    base = _tt_bucket(tt_keys, key)
    victim = base
    victim_worth = np.int64(1 << 30)
    for slot in range(base, base + TT_BUCKET):
        data = tt_data[slot]
        if data == 0:
            worth = np.int64(-(1 << 20))
        elif (tt_keys[slot] ^ np.uint64(data)) == key:
            stored_move, stored_depth, _flag, _score = _tt_unpack(data)
            if stored_depth > depth and (flag != TT_EXACT or depth == 0) and _tt_age(data, generation) == 0:
                return
            if move == 0:
                move = stored_move
            victim = slot
            break
        else:
            worth = ((data >> TT_DEPTH_SHIFT) & TT_DEPTH_MASK) - TT_AGE_WEIGHT * _tt_age(data, generation)
        if worth < victim_worth:
            victim, victim_worth = slot, worth
    data = _tt_pack(move, depth, flag, score, generation)
    tt_data[victim] = data
    tt_keys[victim] = key ^ np.uint64(data)


@njit(**COMPILE_OPTIONS)
def _check_on_trail(board, pos, trail_moves, trail_checkers, counters, move):
    """Record a checking ``move`` (just made) on the trail; True when the ruleset's
    perpetual-check ban forbids it. A move that gives no check only clears its height's
    ``trail_checkers`` entry (its ``trail_moves`` entry is then never read)."""
    h = pos[POS_HEIGHT]
    trail_moves[h] = move
    side = pos[POS_SIDE]
    trail_checkers[h] = checking_pieces(board, side, king_square(pos, side))
    return is_banned(trail_moves, trail_checkers, h, counters[C_CHECK_LIMIT],
                     counters[C_CHECK_MIN_HISTORY], counters[C_HISTORY_OFFSET])


@njit(**COMPILE_OPTIONS)
def _drawn_repetition(keys, clocks, trail_checkers, counters, h):
    """A position seen before, scored as a draw — unless the ruleset bans perpetual checks and
    either of the last two moves gave check: such a cycle is searched on, since the ban (or the
    opponent) will break it."""
    if not _is_repetition(keys, clocks, h):
        return False
    if counters[C_CHECK_LIMIT] == 0:
        return True
    return trail_checkers[h] == 0 and (h == 0 or trail_checkers[h - 1] == 0)


@njit(QUIESCE_SIGNATURE, **COMPILE_OPTIONS)
def quiesce(ctx, ply, alpha, beta, checked, quiet_checks):
    """Captures (all moves when ``checked``) until the position is quiet; with ``quiet_checks``
    (the first quiescence ply) also the quiet moves that give a direct check without losing the
    piece.
    Captures that lose material by SEE are skipped. The table is probed (any stored depth answers
    here, outside principal-variation nodes) and the result stored at depth 0."""
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, history, move_buf = ctx.psq, ctx.params, ctx.history, ctx.move_buf
    score_buf, counters, stop = ctx.score_buf, ctx.counters, ctx.stop
    tt_keys, tt_data = ctx.tt_keys, ctx.tt_data
    never = ply < 0  # a run-time False (see alphabeta)
    if _tick(counters, stop):
        return 0
    if ply > counters[C_SELDEPTH]:
        counters[C_SELDEPTH] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES]:
        return 0
    in_table, table_value = _probe_tables(board, pos, clocks, counters, ply, ctx.table_meta, ctx.table_positions,
                                          ctx.table_values)
    if in_table:
        return table_value
    if ply >= MAX_PLY - 1:
        return _static_score(board, pos, keys, psq, params, counters, ctx.network)
    key = keys[h]
    hash_move = 0
    entry = _tt_probe(tt_keys, tt_data, key)
    if entry != 0:
        hash_move, _stored_depth, flag, score = _tt_unpack(entry)
        if beta - alpha == 1:
            score = _tt_score_at(score, ply)
            if _tt_decides(flag, score, alpha, beta):
                return score
    original_alpha = alpha
    side = pos[POS_SIDE]
    moves = move_buf[ply]
    scores = score_buf[ply]
    if checked:
        best = -MATE + ply
        count = generate_moves(board, side, moves, False)
    else:
        # Lazy evaluation: material and piece-square tables alone decide when they are further
        # outside the window than the other terms ever move a score.
        estimate = side * psq[h] + params[PARAM_TEMPO]
        lazy = counters[C_LAZY_MARGIN]
        if lazy > 0 and estimate - lazy >= beta:
            return estimate - lazy
        if lazy > 0 and estimate + lazy <= alpha:
            best = estimate + lazy  # at most this; stand pat cannot raise alpha
        else:
            best = _static_score(board, pos, keys, psq, params, counters, ctx.network)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        count = generate_moves(board, side, moves, True)
    _score_moves(board, moves, scores, count, hash_move, 0, 0, history, False)
    stand_pat = best
    best_move = 0
    for i in range(count):
        move = _pick(moves, scores, i, count)
        if not checked:
            victim = board[move & MOVE_TO_MASK]
            victim = victim if victim > 0 else -victim
            if victim != KING and stand_pat + CAPTURE_GAIN[victim] + DELTA_MARGIN <= alpha:
                continue  # delta pruning: even winning this piece cannot reach alpha
            if loses_material(board, move):
                continue  # the exchange on the target square loses: not a way to get quiet
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if is_attacked_king(board, side, king_square(pos, side)):
            unmake_move(board, pos, move, captured)
            continue
        gives_check = is_attacked_king(board, -side, king_square(pos, -side))
        score = -quiesce(ctx, ply + 1, -beta, -alpha, gives_check, never)
        unmake_move(board, pos, move, captured)
        if counters[C_STOPPED] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = move
                if score >= beta:
                    break
    if quiet_checks and not checked and best < beta:
        # Direct checks only (a discovered check is left to the main search): a quiet move of a
        # chariot, cannon, horse or pawn onto a square it would check from, verified after the move.
        chariot_checks, cannon_checks, horse_checks, pawn_checks = check_squares(board, king_square(pos, -side), side)
        count = generate_moves(board, side, moves, False)
        for i in range(count):
            move = moves[i]
            target = move & MOVE_TO_MASK
            if board[target] != 0:
                continue
            kind = board[move >> MOVE_FROM_SHIFT] * side
            if not ((kind == CHARIOT and in_mask(chariot_checks, target))
                    or (kind == CANNON and in_mask(cannon_checks, target))
                    or (kind == HORSE and in_mask(horse_checks, target))
                    or (kind == PAWN and in_mask(pawn_checks, target))) or quiet_move_loses(board, move):
                continue
            captured = make_move(board, pos, keys, clocks, psq, params, move)
            if is_attacked_king(board, side, king_square(pos, side)) \
                    or not is_attacked_king(board, -side, king_square(pos, -side)):
                unmake_move(board, pos, move, captured)
                continue
            score = -quiesce(ctx, ply + 1, -beta, -alpha, not never, never)  # the reply is in check
            unmake_move(board, pos, move, captured)
            if counters[C_STOPPED] != 0:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    best_move = move
                    if score >= beta:
                        break
    flag = TT_LOWER if best >= beta else (TT_EXACT if best > original_alpha else TT_UPPER)
    _tt_store(tt_keys, tt_data, key, best_move, 0, flag, best, ply, counters[C_GENERATION])
    return best


@njit(ALPHABETA_SIGNATURE, **COMPILE_OPTIONS)
def alphabeta(ctx, depth, ply, alpha, beta, checked, null_ok):
    """Principal-variation search with TT, null move, late-move reductions and check extensions.
    Scores are from the side to move's view; mate in n plies scores ``MATE - n``."""
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, tt_keys, tt_data = ctx.psq, ctx.params, ctx.tt_keys, ctx.tt_data
    killers, history, move_buf, score_buf = ctx.killers, ctx.history, ctx.move_buf, ctx.score_buf
    pv, pv_len, counters, stop = ctx.pv, ctx.pv_len, ctx.counters, ctx.stop
    trail_moves, trail_checkers = ctx.trail_moves, ctx.trail_checkers
    # Booleans computed at run time: a literal True/False argument would make numba compile a
    # separate specialisation of this recursive function, which its disk cache cannot reload.
    allowed = depth > -INFINITY
    forbidden = not allowed
    if depth <= 0:
        return quiesce(ctx, ply, alpha, beta, checked, allowed)
    if _tick(counters, stop):
        return 0
    pv_len[ply] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES] or _drawn_repetition(keys, clocks, trail_checkers, counters, h):
        return 0
    in_table, table_value = _probe_tables(board, pos, clocks, counters, ply, ctx.table_meta, ctx.table_positions,
                                          ctx.table_values)
    if in_table:
        return table_value
    if ply >= MAX_PLY - 1:
        return _static_score(board, pos, keys, psq, params, counters, ctx.network)
    if alpha < -MATE + ply:
        alpha = -MATE + ply
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha
    is_pv = beta - alpha > 1
    side = pos[POS_SIDE]
    key = keys[h]
    excluded = ctx.excluded[ply]
    hash_move = 0
    stored_depth = 0
    flag = 0
    tt_score = 0
    entry = _tt_probe(tt_keys, tt_data, key)
    if entry != 0:
        hash_move, stored_depth, flag, tt_score = _tt_unpack(entry)
        tt_score = _tt_score_at(tt_score, ply)
        if stored_depth >= depth and not is_pv and excluded == 0 and _tt_decides(flag, tt_score, alpha, beta):
            return tt_score

    static = -INFINITY
    threat_square = -1  # the square the opponent's best reply to a null move goes to
    mate_threat = False  # that reply mates
    if not checked and not is_pv and excluded == 0:
        static = _static_score(board, pos, keys, psq, params, counters, ctx.network)
        if depth <= REVERSE_FUTILITY_DEPTH and static - REVERSE_FUTILITY_MARGIN * depth >= beta \
                and beta > -MATE_BOUND and beta < MATE_BOUND:
            return static
        if null_ok and depth >= NULL_MOVE_MIN_DEPTH and static >= beta and _has_big_pieces(board, side):
            reduction = NULL_MOVE_DEEP_REDUCTION if depth >= NULL_MOVE_DEEP_DEPTH else NULL_MOVE_REDUCTION
            make_null_move(pos, keys, clocks, psq)
            trail_moves[h + 1] = 0
            trail_checkers[h + 1] = 0
            score = -alphabeta(ctx, depth - 1 - reduction, ply + 1, -beta, -beta + 1, forbidden, forbidden)
            unmake_null_move(pos)
            if counters[C_STOPPED] != 0:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score
            threat = _tt_probe(tt_keys, tt_data, keys[h + 1])
            if threat != 0 and (threat & TT_MOVE_MASK) != 0:
                threat_square = threat & MOVE_TO_MASK
            mate_threat = score < -MATE_BOUND

    extension_room = ply < CHECK_EXTENSION_PLY_FACTOR * counters[C_ROOT_DEPTH] + CHECK_EXTENSION_PLY_SLACK
    # Singular extension: is the hash move far better than every other? Tested before this node's
    # move list is made, since the test searches the same ply.
    singular_move = 0
    if depth >= SINGULAR_MIN_DEPTH and excluded == 0 and hash_move != 0 and extension_room \
            and (flag == TT_LOWER or flag == TT_EXACT) and stored_depth >= depth - SINGULAR_TT_SLACK \
            and tt_score > -MATE_BOUND and tt_score < MATE_BOUND:
        singular_beta = tt_score - SINGULAR_MARGIN * depth
        ctx.excluded[ply] = hash_move
        score = alphabeta(ctx, (depth - 1) // 2, ply, singular_beta - 1, singular_beta, checked, forbidden)
        ctx.excluded[ply] = 0
        if counters[C_STOPPED] != 0:
            return 0
        if score < singular_beta:
            singular_move = hash_move
        pv_len[ply] = ply

    moves = move_buf[ply]
    scores = score_buf[ply]
    count = generate_moves(board, side, moves, False)
    _score_moves(board, moves, scores, count, hash_move, killers[ply, 0], killers[ply, 1], history, allowed)
    best = -INFINITY
    best_move = 0
    legal = 0
    original_alpha = alpha
    # Frontier nodes far below alpha: quiet moves that give no check are skipped (futility), and
    # at small depths only the first quiet moves in order are tried (late-move pruning).
    futile = static > -INFINITY and depth <= FUTILITY_DEPTH and static + FUTILITY_MARGIN * depth <= alpha \
        and alpha > -MATE_BOUND and alpha < MATE_BOUND
    late_move_limit = LATE_MOVE_BASE + LATE_MOVE_SCALE * depth * depth \
        if (depth <= LATE_MOVE_PRUNING_DEPTH and static > -INFINITY) else NO_LATE_MOVE_LIMIT
    known = threatened = (np.int64(0), np.int64(0))  # origin squares tested for a threat, and the threatened
    for i in range(count):
        move = _pick(moves, scores, i, count)
        if move == excluded:
            continue
        is_quiet = board[move & MOVE_TO_MASK] == 0
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        if is_attacked_king(board, side, king_square(pos, side)):
            unmake_move(board, pos, move, captured)
            continue
        gives_check = is_attacked_king(board, -side, king_square(pos, -side))
        if not gives_check:
            trail_checkers[h + 1] = 0
        elif _check_on_trail(board, pos, trail_moves, trail_checkers, counters, move):
            unmake_move(board, pos, move, captured)
            continue
        legal += 1
        pv_len[ply + 1] = ply + 1
        if legal > 1 and is_quiet and not gives_check and (futile or legal > late_move_limit) \
                and move != killers[ply, 0]:
            unmake_move(board, pos, move, captured)
            continue
        new_depth = depth - 1
        if (gives_check or mate_threat) and extension_room or move == singular_move:
            new_depth += 1
        if legal == 1:
            score = -alphabeta(ctx, new_depth, ply + 1, -beta, -alpha, gives_check, allowed)
        else:
            reduction = 0
            if depth >= LMR_MIN_DEPTH and is_quiet and not checked and not gives_check and legal > LMR_FIRST_MOVES \
                    and move != killers[ply, 0] and move != killers[ply, 1]:
                escapes, known, threatened = _escapes_threat(board, move, threat_square, known, threatened)
                if not escapes:
                    reduction = 1
                if reduction > 0 and legal > LMR_MORE_MOVES:
                    reduction += 1
                if reduction > 0 and depth >= LMR_DEEP_DEPTH and legal > LMR_DEEP_MOVES:
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
                        slot = _history_slot(move)
                        history[slot] += depth * depth
                        if history[slot] > HISTORY_CAP:
                            for j in range(len(history)):
                                history[j] >>= 1
                    break
    if legal == 0:
        # no legal move: the side to move loses (checkmate, stalemate or the ban); with a move left
        # out, that move was the only one
        return -MATE + ply
    if excluded != 0:
        return best  # a singular-extension test: not this node's value, so not stored
    if best >= beta:
        flag = TT_LOWER
    elif best > original_alpha:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    _tt_store(tt_keys, tt_data, key, best_move, depth, flag, best, ply, counters[C_GENERATION])
    return best


@njit(SEARCH_ROOT_SIGNATURE, **COMPILE_OPTIONS)
def search_root(ctx, root_moves, root_count, depth, alpha, beta):
    """Search the given root moves (best first) to ``depth``. Returns the best score; the best line
    is left in ``pv[0, :pv_len[0]]`` and ``counters[C_ROOT_DONE]`` counts completed root moves (so a
    stopped iteration's partial result can be judged)."""
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, tt_keys, tt_data = ctx.psq, ctx.params, ctx.tt_keys, ctx.tt_data
    pv, pv_len, counters = ctx.pv, ctx.pv_len, ctx.counters
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
        if gives_check:  # root moves are legal: only the trail is wanted
            _check_on_trail(board, pos, ctx.trail_moves, ctx.trail_checkers, counters, move)
        else:
            ctx.trail_checkers[pos[POS_HEIGHT]] = 0
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
        _tt_store(tt_keys, tt_data, keys[pos[POS_HEIGHT]], pv[0, 0], depth, flag, best, 0,
                  counters[C_GENERATION])
    return best
