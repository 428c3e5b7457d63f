"""The built-in engine's compiled search: PVS with a transposition table, quiescence, pruning.

The search context ``ctx`` is a :class:`~xqdesk.engines.builtin.search_context.SearchContext`, a
named record of arrays (built by :class:`xqdesk.engines.builtin.searcher.Searcher`): the position
state of ``board_kernel``, the transposition table and the search's own tables. The entry points
and the helpers called at every node take it as a ``handle`` and rebuild it with ``context_from``
(``search_context`` says why). ``stop[0]`` is written by a watchdog thread; the search polls it
every 1024 nodes, so a hard deadline is honoured within well under a millisecond.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from xqdesk.compiled_cache import BORROWING_OPTIONS, drop_stale_compiled_code
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.engines.builtin import (
    board_kernel,
    endgame_kernel,
    eval_kernel,
    eval_tables,
    exchange_kernel,
    move_order_kernel,
    nnue_kernel,
    perpetual_kernel,
    search_context,
    search_tunables,
    table_kernel,
    tt_kernel,
)
from xqdesk.engines.builtin.board_kernel import (
    MAX_PLY,
    POS_HEIGHT,
    POS_SIDE,
    generate_moves,
    is_attacked_king,
    king_square,
    make_move,
    make_null_move,
    unmake_move,
    unmake_null_move,
)
from xqdesk.engines.builtin.endgame_kernel import scale_for_winning_chances
from xqdesk.engines.builtin.eval_kernel import evaluate
from xqdesk.engines.builtin.eval_tables import PARAM_TEMPO
from xqdesk.engines.builtin.exchange_kernel import check_squares, in_mask, is_en_prise, loses_material, quiet_move_loses
from xqdesk.engines.builtin.move_order_kernel import MOVE_FROM_SHIFT, MOVE_TO_MASK, pick, reward_cut, score_moves, take
from xqdesk.engines.builtin.nnue_kernel import uses_network
from xqdesk.engines.builtin.perpetual_kernel import checking_pieces, is_banned
from xqdesk.engines.builtin.search_context import (
    ALPHABETA_SIGNATURE,
    QUIESCE_SIGNATURE,
    SEARCH_ROOT_SIGNATURE,
    context_from,
)
from xqdesk.engines.builtin.search_tunables import (
    T_CHECK_EXTENSION_PLY_FACTOR,
    T_CHECK_EXTENSION_PLY_SLACK,
    T_DELTA_MARGIN,
    T_FUTILITY_DEPTH,
    T_FUTILITY_MARGIN,
    T_LATE_MOVE_BASE,
    T_LATE_MOVE_PRUNING_DEPTH,
    T_LATE_MOVE_SCALE,
    T_LMR_DEEP_DEPTH,
    T_LMR_DEEP_MOVES,
    T_LMR_FIRST_MOVES,
    T_LMR_MIN_DEPTH,
    T_LMR_MORE_MOVES,
    T_NULL_MOVE_DEEP_DEPTH,
    T_NULL_MOVE_DEEP_REDUCTION,
    T_NULL_MOVE_MIN_DEPTH,
    T_NULL_MOVE_REDUCTION,
    T_REVERSE_FUTILITY_DEPTH,
    T_REVERSE_FUTILITY_MARGIN,
    T_SINGULAR_MARGIN,
    T_SINGULAR_MIN_DEPTH,
    T_SINGULAR_TT_SLACK,
)
from xqdesk.engines.builtin.table_kernel import table_score
from xqdesk.engines.builtin.tt_kernel import (
    MATE,
    MATE_BOUND,
    TT_EXACT,
    TT_LOWER,
    TT_MOVE_MASK,
    TT_UPPER,
    tt_decides,
    tt_prefetch,
    tt_probe,
    tt_score_at,
    tt_store,
    tt_unpack,
)
from xqdesk.pieces import CANNON, CHARIOT, HORSE, KING, PAWN
from xqdesk.squares import SQUARE_COUNT as SQUARES

drop_stale_compiled_code(__file__, (eval_tables, board_kernel, eval_kernel, perpetual_kernel,
                                   exchange_kernel, endgame_kernel, table_kernel, nnue_kernel, tt_kernel,
                                   move_order_kernel, search_context, search_tunables))
index_without_wraparound(__name__)


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

INFINITY = 32000
"""Beyond every score, mates included (:data:`~xqdesk.engines.builtin.tt_kernel.MATE`)."""

# What a capture can gain at most, by victim type, for delta pruning in quiescence (centipawns).
CAPTURE_GAIN = np.array([0, 200, 200, 200, 500, 500, 1000, 0], np.int64)
LAZY_MARGIN = 200
"""Quiescence skips the full evaluation when material and piece-square tables alone are this far
outside the window: the other terms move the score of master-game positions by at most about
±100 cp with the fitted weights (±210 with the earlier hand-set ones). Not with the network (its
score has no such bound), nor in the endgame (a root phase count of at most ENDGAME_PHASE): there
the winning chances (``endgame_kernel``) scale a material lead down, which the tables cannot tell.
Elsewhere the scaling is skipped: a search from
the middlegame rarely reaches such an ending, and it costs a look at the whole board."""
ENDGAME_PHASE = 40
NO_LATE_MOVE_LIMIT = 1000
"""Late-move pruning's limit where it does not apply. The margins, depths and move counts of the
pruning, reductions and extensions are the search's tunables (``search_tunables``), read from
``ctx.tunables``."""


@njit(**BORROWING_OPTIONS)
def _tick(counters, stop):
    """Count a node; poll the stop flag and the node limit every 1024 nodes. True = stop now."""
    counters[C_NODES] += 1
    if (counters[C_NODES] & POLL_MASK) == 0:
        if stop[0] != 0 or (counters[C_NODE_LIMIT] > 0 and counters[C_NODES] >= counters[C_NODE_LIMIT]):
            counters[C_STOPPED] = 1
    return counters[C_STOPPED] != 0


@njit(**BORROWING_OPTIONS)
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


@njit(**BORROWING_OPTIONS)
def _static_score(handle):
    """The evaluation for the side to move of the context ``handle`` points to — the network's
    when one is loaded, else the hand-written one — scaled, when the root is an endgame
    (``C_ENDGAME``), by the winning chances of the side it favours."""
    ctx = context_from(handle)
    board, pos, keys, psq, params, counters, network = \
        ctx.board, ctx.pos, ctx.keys, ctx.psq, ctx.params, ctx.counters, ctx.network
    if uses_network(network):
        score = nnue_kernel.evaluate(network, board, pos, keys)
    else:
        score = evaluate(board, pos, psq, params)
    if counters[C_ENDGAME] == 0:
        return score
    return scale_for_winning_chances(board, score, pos[POS_SIDE])


@njit(**BORROWING_OPTIONS)
def _probe_tables(handle, ply):
    """``(found, score)`` of the position from the endgame tables, probed only right after a
    capture (the material is the root's until one, and the root's own balance is not packed)."""
    ctx = context_from(handle)
    board, pos, clocks, counters = ctx.board, ctx.pos, ctx.clocks, ctx.counters
    table_meta, table_positions, table_values = ctx.table_meta, ctx.table_positions, ctx.table_values
    h = pos[POS_HEIGHT]
    if len(table_meta) == 0 or ply == 0 or clocks[h] != 0:
        return False, 0
    return table_score(board, pos[POS_SIDE], ply, table_meta, table_positions, table_values,
                       counters[C_DRAW_PLIES] - clocks[h], MATE)


@njit(**BORROWING_OPTIONS)
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


@njit(**BORROWING_OPTIONS)
def _has_big_pieces(board, side):
    for sq in range(SQUARES):
        piece = board[sq] * side
        if piece == HORSE or piece == CANNON or piece == CHARIOT:
            return True
    return False


@njit(**BORROWING_OPTIONS)
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


@njit(**BORROWING_OPTIONS)
def _drawn_repetition(keys, clocks, trail_checkers, counters, h):
    """A position seen before, scored as a draw — unless the ruleset bans perpetual checks and
    either of the last two moves gave check: such a cycle is searched on, since the ban (or the
    opponent) will break it."""
    if not _is_repetition(keys, clocks, h):
        return False
    if counters[C_CHECK_LIMIT] == 0:
        return True
    return trail_checkers[h] == 0 and (h == 0 or trail_checkers[h - 1] == 0)


@njit(QUIESCE_SIGNATURE, **BORROWING_OPTIONS)
def quiesce(handle, ply, alpha, beta, checked, quiet_checks):
    """The value of the position on the board of the context ``handle`` points to, after captures
    only, searched until it is quiet.

    Contract: fail-soft (the result may lie outside ``alpha``..``beta``: at most alpha means an
    upper bound, at least beta a lower bound), from the side to move's view; mate in ``n`` plies
    from the root scores ``MATE - n``. When ``checked`` every evasion is searched and no legal
    move is mate; otherwise the side may stand pat on its static score. With ``quiet_checks``
    (the first quiescence ply) the quiet moves that give a direct check without losing the piece
    are searched too. A stopped search returns 0, which the caller must not use. The board is left
    as it was given; the result is stored in the table at depth 0.

    Steps: 1. count the node, draws and tablebases; 2. the table; 3. stand pat (lazily);
    4. captures by MVV-LVA, pruned by delta and SEE, then quiet checks; 5. store."""
    ctx = context_from(handle)
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, history, move_buf = ctx.psq, ctx.params, ctx.history, ctx.move_buf
    score_buf, counters, stop = ctx.score_buf, ctx.counters, ctx.stop
    tt, tun = ctx.tt, ctx.tunables
    never = ply < 0  # a run-time False (see alphabeta)

    # Step 1. Count the node; the capture-free ply limit, the tablebases and the ply limit end it.
    if _tick(counters, stop):
        return 0
    if ply > counters[C_SELDEPTH]:
        counters[C_SELDEPTH] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES]:
        return 0
    in_table, table_value = _probe_tables(handle, ply)
    if in_table:
        return table_value
    if ply >= MAX_PLY - 1:
        return _static_score(handle)

    # Step 2. The transposition table: any stored depth answers outside principal-variation nodes.
    key = keys[h]
    hash_move = 0
    entry = tt_probe(tt, key)
    if entry != 0:
        hash_move, _stored_depth, flag, score = tt_unpack(entry)
        if beta - alpha == 1:
            score = tt_score_at(score, ply)
            if tt_decides(flag, score, alpha, beta):
                return score
    original_alpha = alpha
    side = pos[POS_SIDE]
    moves = move_buf[ply]
    scores = score_buf[ply]

    # Step 3. Stand pat: in check, nothing (every evasion is searched); otherwise the static score,
    # or lazily the material and piece-square tables alone when they are further outside the
    # window than the other terms ever move a score.
    if checked:
        best = -MATE + ply
        count = generate_moves(board, side, moves, False)
    else:
        estimate = side * psq[h] + params[PARAM_TEMPO]
        lazy = counters[C_LAZY_MARGIN]
        if lazy > 0 and estimate - lazy >= beta:
            return estimate - lazy
        if lazy > 0 and estimate + lazy <= alpha:
            best = estimate + lazy  # at most this; stand pat cannot raise alpha
        else:
            best = _static_score(handle)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        count = generate_moves(board, side, moves, True)
    first = score_moves(board, moves, scores, count, hash_move, 0, 0, history, False)
    stand_pat = best
    best_move = 0

    # Step 4. The moves, in two phases: 0, the captures (all moves in check) best first; 1, where
    # asked, the quiet moves of a chariot, cannon, horse or pawn onto a square it gives direct check
    # from (a discovered check is left to the main search), verified after the move.
    no_squares = (np.int64(0), np.int64(0))
    chariot_checks = cannon_checks = horse_checks = pawn_checks = no_squares
    for phase in range(2):
        if phase == 1:
            if not quiet_checks or checked or best >= beta:
                break
            chariot_checks, cannon_checks, horse_checks, pawn_checks = check_squares(board, king_square(pos, -side),
                                                                                     side)
            count = generate_moves(board, side, moves, False)
        for i in range(count):
            if phase == 0:
                move = take(moves, scores, 0, first) if i == 0 else pick(moves, scores, i, count)
                if not checked:
                    victim = board[move & MOVE_TO_MASK]
                    victim = victim if victim > 0 else -victim
                    if victim != KING and stand_pat + CAPTURE_GAIN[victim] + tun[T_DELTA_MARGIN] <= alpha:
                        continue  # delta pruning: even winning this piece cannot reach alpha
                    if loses_material(board, move):
                        continue  # the exchange on the target square loses: not a way to get quiet
            else:
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
            tt_prefetch(tt, keys[h + 1])
            if is_attacked_king(board, side, king_square(pos, side)):
                unmake_move(board, pos, move, captured)
                continue
            gives_check = is_attacked_king(board, -side, king_square(pos, -side))
            if phase == 1 and not gives_check:
                unmake_move(board, pos, move, captured)
                continue
            score = -quiesce(handle, ply + 1, -beta, -alpha, gives_check, never)
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

    # Step 5. Store the result at depth 0.
    flag = TT_LOWER if best >= beta else (TT_EXACT if best > original_alpha else TT_UPPER)
    tt_store(tt, key, best_move, 0, flag, best, ply, counters[C_GENERATION])
    return best


@njit(ALPHABETA_SIGNATURE, **BORROWING_OPTIONS)
def alphabeta(handle, depth, ply, alpha, beta, checked, null_ok):
    """The value of the position on the board of the context ``handle`` points to, searched
    ``depth`` plies deep (then :func:`quiesce`): a principal-variation search with a
    transposition table, null move, futility and late-move pruning, late-move reductions, and
    check, mate-threat and singular extensions.

    Contract: fail-soft, from the side to move's view (a result at most ``alpha`` is an upper
    bound, at least ``beta`` a lower bound); mate in ``n`` plies from the root scores ``MATE - n``,
    and no legal move (mate, stalemate or the perpetual-check ban) loses. A repetition without
    checks, and the ruleset's capture-free ply limit, score 0. ``ctx.excluded[ply]``, when set, is
    a move left out (the singular-extension test): the result is then not stored. ``null_ok``
    allows a null move; ``checked`` says the side to move is in check. A stopped search returns 0,
    which the caller must not use. The board is left as it was given; the principal variation is
    in ``ctx.pv[ply]``.

    Steps: 1. initialise the node; 2. the table; 3. static score and reverse futility; 4. null
    move; 5. singular test; 6. generate and order; 7. the moves: legality and the ban; 8. pruning;
    9. extensions; 10. the search of a move (reduced, null window, re-searched); 11. a better
    move; 12. mate; 13. store."""
    ctx = context_from(handle)
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, tt = ctx.psq, ctx.params, ctx.tt
    killers, history, move_buf, score_buf = ctx.killers, ctx.history, ctx.move_buf, ctx.score_buf
    pv, pv_len, counters, stop = ctx.pv, ctx.pv_len, ctx.counters, ctx.stop
    trail_moves, trail_checkers, tun = ctx.trail_moves, ctx.trail_checkers, ctx.tunables
    # Booleans computed at run time: a literal True/False argument would make numba compile a
    # separate specialisation of this recursive function, which its disk cache cannot reload.
    allowed = depth > -INFINITY
    forbidden = not allowed

    # Step 1. Initialise the node: quiescence at the horizon; draws, tablebases, the ply limit;
    # mate-distance pruning.
    if depth <= 0:
        return quiesce(handle, ply, alpha, beta, checked, allowed)
    if _tick(counters, stop):
        return 0
    pv_len[ply] = ply
    h = pos[POS_HEIGHT]
    if clocks[h] >= counters[C_DRAW_PLIES] or _drawn_repetition(keys, clocks, trail_checkers, counters, h):
        return 0
    in_table, table_value = _probe_tables(handle, ply)
    if in_table:
        return table_value
    if ply >= MAX_PLY - 1:
        return _static_score(handle)
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

    # Step 2. The transposition table: a deep enough entry decides outside principal-variation nodes.
    hash_move = 0
    stored_depth = 0
    flag = 0
    tt_score = 0
    entry = tt_probe(tt, key)
    if entry != 0:
        hash_move, stored_depth, flag, tt_score = tt_unpack(entry)
        tt_score = tt_score_at(tt_score, ply)
        if stored_depth >= depth and not is_pv and excluded == 0 and tt_decides(flag, tt_score, alpha, beta):
            return tt_score

    # Step 3. The static score (not in check, nor at principal-variation nodes), and reverse futility.
    static = -INFINITY
    threat_square = -1  # the square the opponent's best reply to a null move goes to
    mate_threat = False  # that reply mates
    if not checked and not is_pv and excluded == 0:
        static = _static_score(handle)
        if depth <= tun[T_REVERSE_FUTILITY_DEPTH] and static - tun[T_REVERSE_FUTILITY_MARGIN] * depth >= beta \
                and beta > -MATE_BOUND and beta < MATE_BOUND:
            return static
        # Step 4. Null move: if passing still fails high, so would a move; otherwise the reply
        # found tells which piece is threatened, and whether a mate is.
        if null_ok and depth >= tun[T_NULL_MOVE_MIN_DEPTH] and static >= beta and _has_big_pieces(board, side):
            reduction = tun[T_NULL_MOVE_DEEP_REDUCTION] if depth >= tun[T_NULL_MOVE_DEEP_DEPTH] \
                else tun[T_NULL_MOVE_REDUCTION]
            make_null_move(pos, keys, clocks, psq)
            trail_moves[h + 1] = 0
            trail_checkers[h + 1] = 0
            score = -alphabeta(handle, depth - 1 - reduction, ply + 1, -beta, -beta + 1, forbidden, forbidden)
            unmake_null_move(pos)
            if counters[C_STOPPED] != 0:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score
            threat = tt_probe(tt, keys[h + 1])
            if threat != 0 and (threat & TT_MOVE_MASK) != 0:
                threat_square = threat & MOVE_TO_MASK
            mate_threat = score < -MATE_BOUND

    extension_room = ply < tun[T_CHECK_EXTENSION_PLY_FACTOR] * counters[C_ROOT_DEPTH] \
        + tun[T_CHECK_EXTENSION_PLY_SLACK]
    # Step 5. Singular extension: is the hash move far better than every other? Tested before this
    # node's move list is made, since the test searches the same ply.
    singular_move = 0
    if depth >= tun[T_SINGULAR_MIN_DEPTH] and excluded == 0 and hash_move != 0 and extension_room \
            and (flag == TT_LOWER or flag == TT_EXACT) and stored_depth >= depth - tun[T_SINGULAR_TT_SLACK] \
            and tt_score > -MATE_BOUND and tt_score < MATE_BOUND:
        singular_beta = tt_score - tun[T_SINGULAR_MARGIN] * depth
        ctx.excluded[ply] = hash_move
        score = alphabeta(handle, (depth - 1) // 2, ply, singular_beta - 1, singular_beta, checked, forbidden)
        ctx.excluded[ply] = 0
        if counters[C_STOPPED] != 0:
            return 0
        if score < singular_beta:
            singular_move = hash_move
        pv_len[ply] = ply

    # Step 6. Generate the moves and order them: hash move, good captures, killers, history.
    moves = move_buf[ply]
    scores = score_buf[ply]
    count = generate_moves(board, side, moves, False)
    first = score_moves(board, moves, scores, count, hash_move, killers[ply, 0], killers[ply, 1], history, allowed)
    best = -INFINITY
    best_move = 0
    legal = 0
    original_alpha = alpha
    # Frontier nodes far below alpha: quiet moves that give no check are skipped (futility), and
    # at small depths only the first quiet moves in order are tried (late-move pruning).
    futile = static > -INFINITY and depth <= tun[T_FUTILITY_DEPTH] \
        and static + tun[T_FUTILITY_MARGIN] * depth <= alpha \
        and alpha > -MATE_BOUND and alpha < MATE_BOUND
    late_move_limit = tun[T_LATE_MOVE_BASE] + tun[T_LATE_MOVE_SCALE] * depth * depth \
        if (depth <= tun[T_LATE_MOVE_PRUNING_DEPTH] and static > -INFINITY) else NO_LATE_MOVE_LIMIT
    known = threatened = (np.int64(0), np.int64(0))  # origin squares tested for a threat, and the threatened
    for i in range(count):
        move = take(moves, scores, 0, first) if i == 0 else pick(moves, scores, i, count)
        # Step 7. Legality: the own general safe, and no check the perpetual-check ban forbids.
        if move == excluded:
            continue
        is_quiet = board[move & MOVE_TO_MASK] == 0
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        tt_prefetch(tt, keys[h + 1])
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
        # Step 8. Pruning of quiet moves that give no check (futility, late-move pruning).
        if legal > 1 and is_quiet and not gives_check and (futile or legal > late_move_limit) \
                and move != killers[ply, 0]:
            unmake_move(board, pos, move, captured)
            continue
        # Step 9. Extensions: checks and mate threats (within the room left), the singular move.
        new_depth = depth - 1
        if (gives_check or mate_threat) and extension_room or move == singular_move:
            new_depth += 1
        # Step 10. The first move with the full window; later ones reduced (late quiet moves that
        # do not escape the threat) with a null window, re-searched when they beat alpha.
        if legal == 1:
            score = -alphabeta(handle, new_depth, ply + 1, -beta, -alpha, gives_check, allowed)
        else:
            reduction = 0
            if depth >= tun[T_LMR_MIN_DEPTH] and is_quiet and not checked and not gives_check \
                    and legal > tun[T_LMR_FIRST_MOVES] \
                    and move != killers[ply, 0] and move != killers[ply, 1]:
                escapes, known, threatened = _escapes_threat(board, move, threat_square, known, threatened)
                if not escapes:
                    reduction = 1
                if reduction > 0 and legal > tun[T_LMR_MORE_MOVES]:
                    reduction += 1
                if reduction > 0 and depth >= tun[T_LMR_DEEP_DEPTH] and legal > tun[T_LMR_DEEP_MOVES]:
                    reduction += 1
                if is_pv and reduction > 1:
                    reduction -= 1
            score = -alphabeta(handle, new_depth - reduction, ply + 1, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and reduction > 0:
                score = -alphabeta(handle, new_depth, ply + 1, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and score < beta:
                score = -alphabeta(handle, new_depth, ply + 1, -beta, -alpha, gives_check, allowed)
        unmake_move(board, pos, move, captured)
        if counters[C_STOPPED] != 0:
            return 0
        # Step 11. A better move: the principal variation; at a cut, the killers and history (the
        # quiet move that cut gains, the quiet moves tried before it lose).
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
                        reward_cut(board, history, moves, i, depth)
                    break
    # Step 12. No legal move: the side to move loses (checkmate, stalemate or the ban); with a move
    # left out, that move was the only one.
    if legal == 0:
        return -MATE + ply
    # Step 13. Store the result (not a singular test's: it is not this node's value). At a fail-low
    # no move is known best (every one failed), so none is stored and the entry keeps its old one.
    if excluded != 0:
        return best
    if best >= beta:
        flag = TT_LOWER
    elif best > original_alpha:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
        best_move = 0
    tt_store(tt, key, best_move, depth, flag, best, ply, counters[C_GENERATION])
    return best


@njit(SEARCH_ROOT_SIGNATURE, **BORROWING_OPTIONS)
def search_root(handle, root_moves, root_count, depth, alpha, beta):
    """Search the given root moves (best first) to ``depth`` on the context ``handle`` points to.
    Returns the best score; the best line is left in ``pv[0, :pv_len[0]]`` and
    ``counters[C_ROOT_DONE]`` counts completed root moves (so a stopped iteration's partial result
    can be judged)."""
    ctx = context_from(handle)
    board, pos, keys, clocks = ctx.board, ctx.pos, ctx.keys, ctx.clocks
    psq, params, tt = ctx.psq, ctx.params, ctx.tt
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
            score = -alphabeta(handle, new_depth, child_ply, -beta, -alpha, gives_check, allowed)
        else:
            score = -alphabeta(handle, new_depth, child_ply, -alpha - 1, -alpha, gives_check, allowed)
            if score > alpha and score < beta:
                score = -alphabeta(handle, new_depth, child_ply, -beta, -alpha, gives_check, allowed)
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
        tt_store(tt, keys[pos[POS_HEIGHT]], pv[0, 0], depth, flag, best, 0,
                  counters[C_GENERATION])
    return best
