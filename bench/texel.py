"""Texel tuning of the built-in evaluation: fit its weights so that a sigmoid of the static score of
quiet positions predicts a teacher's judgement or the games' results; prints the training figures.

    python bench/texel.py [--games FILE …] [--decided-only] [--selfplay 400 --selfplay-nodes 3000]
        [--cache data.npz]
        [--teacher-positions 25000 --teacher-depth 7 --teacher-weight 1] [--lam 1e-8] [--base JSON]
        [--write xqdesk/engines/builtin/eval_weights.json]

Positions: every position from ply 6 on of the game records given (an ``.xz`` file is read as
xz-compressed UTF-8 PGN, a game at a time; results: the ``Result`` header,
else the end position judged as ``xqdesk.engines.zero.dataset`` does; ``--decided-only`` leaves
out the games without a result in their header, such as a collection's opening lines)
and of ``--selfplay`` games of the built-in engine against itself at ``--selfplay-nodes`` nodes a
move, from openings of 2–6 random plies. Only quiet positions are kept: not in check, and no capture
sequence changes the static score (a quiescence search returns the static score itself).
``--cache`` keeps them (and the teacher's scores) in a file for the next run.

Teacher: ``--teacher-positions`` of them, drawn at random, are scored by Fairy-Stockfish at
``--teacher-depth`` (side to move's view; mates count ±3000). Its scores become win chances through
their own sigmoid scale, fitted to the results. The target is ``(1 - w) · result + w · σ(teacher)``
where there is a teacher score; with ``w = 1`` only those positions are fitted.

Fit: the evaluation is linear in its weights (``eval_features``: score = features · weights, from
the side to move's view), and in both phases' sets at once through the phased features
``[s · f, (1 − s) · f]`` (s: the position's middlegame share, ``eval_tables.midgame_share``). The sigmoid scale K of ``σ(s) = 1 / (1 + 10^(-K·s/400))`` is fitted to the
results with the ``--base`` weights w0 (default: the shipped ones), then the weights minimise
``mean((target - σ(features · w))²) + lam · |w - w0|²`` (L-BFGS; the tempo stays, as do terms no
quiet position shows). One game in ten is held out; its losses are printed before and after.
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

import numpy as np
from numba import njit
from scipy import optimize, sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.builtin import BuiltinEngine  # noqa: E402
from xqdesk.engines.builtin.board_kernel import (  # noqa: E402
    MAX_MOVES,
    STACK_SIZE,
    generate_moves,
    is_attacked_king,
    make_move,
    unmake_move,
)
from xqdesk.engines.builtin.eval_features import (  # noqa: E402
    FEATURE_COUNT,
    TERMS_OFFSET,
    features_batch,
    phased_weights_from_vector,
    phased_weights_vector,
)
from xqdesk.engines.builtin.eval_kernel import evaluate  # noqa: E402
from xqdesk.engines.builtin.eval_tables import (  # noqa: E402
    FULL_MATERIAL,
    SHIPPED_PARAMS,
    TERM_ORDER,
    WEIGHTS,
    midgame_share,
    phase_material,
    read_weights,
)
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.transport.uci_engine import UciEngine  # noqa: E402
from xqdesk.engines.zero.dataset import HEADER_RESULTS, red_result  # noqa: E402
from xqdesk.fen import format_fen  # noqa: E402
from xqdesk.game import Game  # noqa: E402
from xqdesk.opening_book import undamaged_games  # noqa: E402
from xqdesk.pieces import PIECE_NAMES, PIECE_TYPES, RED  # noqa: E402

DEFAULT_GAMES = [ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn",
                 ROOT / "tests" / "data" / "games" / "ccbridge" / "1956_national_championship_first5.cbl"]
SKIP_PLIES = 6
QUIESCE_PLIES = 16
SELFPLAY_MAX_PLIES = 240
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
TEACHER_MATE_CP = 3000


# --- positions ---------------------------------------------------------------------------------

def record_positions(paths: list[Path], decided_only: bool = False
                     ) -> tuple[list[np.ndarray], list[int], list[float], list[int]]:
    """(boards, sides, Red's results 1/0.5/0, game numbers) of the game records' positions; with
    ``decided_only``, of the games whose ``Result`` header gives the result (no opening lines)."""
    boards: list[np.ndarray] = []
    sides: list[int] = []
    results: list[float] = []
    game_ids: list[int] = []
    number = 0
    for path in paths:
        problems: list[str] = []
        for game in undamaged_games(path, problems):
            if not game.mainline_moves():
                continue
            if decided_only and game.headers.get("Result", "").strip() not in HEADER_RESULTS:
                continue
            number += 1
            add_game(game, (red_result(game) + 1) / 2, number, boards, sides, results, game_ids)
        for problem in problems:
            print(f"warning: {problem}", file=sys.stderr)
    return boards, sides, results, game_ids


def add_game(game: Game, red_score: float, number: int, boards: list[np.ndarray], sides: list[int],
             results: list[float], game_ids: list[int]) -> None:
    board = game.start_board()
    for ply, move in enumerate(game.mainline_moves()):
        if ply >= SKIP_PLIES:
            boards.append(np.array([board.code_at(sq) for sq in range(90)], np.int8))
            sides.append(1 if board.turn == RED else -1)
            results.append(red_score)
            game_ids.append(number)
        board.push(move)


def selfplay_games(count: int, nodes: int, seed: int) -> list[tuple[Game, float]]:
    """``count`` games of the built-in engine against itself, with Red's result (1, ½, 0)."""
    rng = random.Random(seed)
    engine = BuiltinEngine()
    games = []
    started = time.monotonic()
    for number in range(count):
        board = Board()
        engine.new_game()
        for _ in range(rng.randrange(2, 7)):
            board.push(rng.choice(list(board.legal_moves)))
        opening = len(board.move_stack)
        while len(board.move_stack) < SELFPLAY_MAX_PLIES and board.outcome() is None:
            move = engine.search(board, SearchLimits(nodes=nodes), threading.Event(), lambda info: None)
            if move is None:
                break
            board.push(move)
        game = Game.from_moves(list(board.move_stack), Board().fen(), outcome=board.outcome())
        red = (red_result(game) + 1) / 2
        games.append((game, red))
        if (number + 1) % 50 == 0:
            print(f"  self-play {number + 1}/{count} ({time.monotonic() - started:.0f} s), "
                  f"last {len(board.move_stack) - opening} plies", flush=True)
    return games


@njit(cache=False)
def _quiesce(board, pos, keys, clocks, psq, params, alpha, beta, ply, move_buf):
    stand = evaluate(board, pos, psq, params)
    if stand >= beta or ply >= QUIESCE_PLIES:
        return stand
    best = stand
    if stand > alpha:
        alpha = stand
    side = pos[0]
    count = generate_moves(board, side, move_buf[ply], True)
    for i in range(count):
        move = move_buf[ply, i]
        captured = make_move(board, pos, keys, clocks, psq, params, move)
        king = pos[1] if side == 1 else pos[2]
        if not is_attacked_king(board, side, king):
            score = -_quiesce(board, pos, keys, clocks, psq, params, -beta, -alpha, ply + 1, move_buf)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
        unmake_move(board, pos, move, captured)
        if best >= beta:
            break
    return best


@njit(cache=False)
def quiet_mask(boards, sides, params):
    """True for the positions not in check whose quiescence score equals their static score."""
    n = boards.shape[0]
    mask = np.zeros(n, np.bool_)
    keys = np.zeros(STACK_SIZE, np.uint64)
    clocks = np.zeros(STACK_SIZE, np.int64)
    psq = np.zeros(STACK_SIZE, np.int64)
    move_buf = np.zeros((QUIESCE_PLIES + 2, MAX_MOVES), np.int64)
    pos = np.zeros(4, np.int64)
    for i in range(n):
        board = boards[i].copy()
        score = 0
        for sq in range(90):
            code = board[sq]
            if code != 0:
                score += params[(code + 7) * 90 + sq]
                if code == 7:
                    pos[1] = sq
                elif code == -7:
                    pos[2] = sq
        pos[0] = sides[i]
        pos[3] = 0
        psq[0] = score
        king = pos[1] if sides[i] == 1 else pos[2]
        if is_attacked_king(board, sides[i], king):
            continue
        static = evaluate(board, pos, psq, params)
        mask[i] = _quiesce(board, pos, keys, clocks, psq, params, -32000, 32000, 0, move_buf) == static
    return mask


def build_dataset(args: argparse.Namespace) -> dict[str, np.ndarray]:
    started = time.monotonic()
    boards, sides, results, game_ids = record_positions([Path(p) for p in args.games], args.decided_only)
    master_games = max(game_ids, default=0)
    master_positions = len(boards)
    print(f"game records: {master_games} games, {master_positions} positions ({time.monotonic() - started:.0f} s)",
          flush=True)
    if args.selfplay:
        for number, (game, red) in enumerate(selfplay_games(args.selfplay, args.selfplay_nodes, args.seed)):
            add_game(game, red, master_games + 1 + number, boards, sides, results, game_ids)
    source = np.array([0] * master_positions + [1] * (len(boards) - master_positions), np.int8)
    board_array = np.array(boards, np.int8).reshape(len(boards), 90)
    side_array = np.array(sides, np.int64)
    mask = quiet_mask(board_array, side_array, SHIPPED_PARAMS.for_material(FULL_MATERIAL))
    red = np.array(results, np.float64)
    mover_result = np.where(side_array == 1, red, 1.0 - red)
    print(f"positions: {len(boards)} ({master_positions} from records, {len(boards) - master_positions} "
          f"self-play), quiet {int(mask.sum())} ({time.monotonic() - started:.0f} s)", flush=True)
    return {"boards": board_array[mask], "sides": side_array[mask], "result": mover_result[mask],
            "game": np.array(game_ids, np.int64)[mask], "source": source[mask]}


def teacher_scores(boards: np.ndarray, sides: np.ndarray, rows: np.ndarray, depth: int,
                   command: str) -> np.ndarray:
    """Fairy-Stockfish's score (side to move's view, centipawns, mates as ±TEACHER_MATE_CP) of the
    positions ``rows`` at ``depth``; NaN elsewhere."""
    scores = np.full(len(boards), np.nan)
    engine = UciEngine([command], options={"Threads": "1", "Hash": "16"})
    engine.start()
    started = time.monotonic()
    try:
        for done, row in enumerate(rows, start=1):
            fen = format_fen([int(c) for c in boards[row]], sides[row] == 1, 0, 1)
            result = engine.search(fen, [], SearchLimits(depth=depth), deadline=time.monotonic() + 60)
            score = next((info.score for info in reversed(result.infos) if info.score is not None), None)
            if score is not None:
                value = score.relative.score(mate_score=TEACHER_MATE_CP)
                scores[row] = np.nan if value is None else float(value)
            if done % 5000 == 0:
                print(f"  teacher {done}/{len(rows)} ({time.monotonic() - started:.0f} s)", flush=True)
    finally:
        engine.quit()
    return scores


# --- fit ---------------------------------------------------------------------------------------

def feature_matrix(boards: np.ndarray, sides: np.ndarray) -> sparse.csr_matrix:
    """The phased features of each position: ``[s · f, (1 − s) · f]`` with s its middlegame share."""
    parts = []
    for start in range(0, len(boards), 20000):
        dense = np.zeros((min(20000, len(boards) - start), FEATURE_COUNT), np.float64)
        features_batch(boards[start:start + 20000], sides[start:start + 20000], dense)
        parts.append(sparse.csr_matrix(dense))
    single = sparse.vstack(parts).tocsr()
    shares = np.array([midgame_share(phase_material(int(c) for c in board)) for board in boards])
    return sparse.hstack([sparse.diags(shares) @ single, sparse.diags(1.0 - shares) @ single]).tocsr()


def sigmoid(scores: np.ndarray, k: float) -> np.ndarray:
    return 1.0 / (1.0 + np.power(10.0, -k * scores / 400.0))


def loss(x: sparse.csr_matrix, target: np.ndarray, w: np.ndarray, k: float) -> float:
    return float(np.mean((target - sigmoid(x @ w, k)) ** 2))


def fit_k(x: sparse.csr_matrix, target: np.ndarray, w: np.ndarray) -> float:
    scores = x @ w
    found = optimize.minimize_scalar(lambda k: np.mean((target - sigmoid(scores, k)) ** 2), bounds=(0.05, 5.0),
                                     method="bounded")
    return float(found.x)


TERM_SIGNS = {"missing_defender": 1, "hollow_cannon": 1, "screened_cannon": 1, "chariot_mobility": 1,
              "horse_mobility": 1, "open_file_chariot": 1, "cannon_battery": 1, "chariot_pin": 1, "cannon_pin": 1,
              "bottom_cannon": 1, "trapped_horse": -1,
              "palace_attacker": 1, "palace_attack_pairs": 1}
"""The sign each term's meaning gives its weight (a bonus ≥ 0, a penalty ≤ 0; ``missing_defender``
is subtracted, so it is ≥ 0 too); the tempo is not fitted."""


def sign_bounds(free: np.ndarray) -> list[tuple[float | None, float | None]]:
    """L-BFGS-B bounds for the ``free`` entries of a phased vector: terms keep their :data:`TERM_SIGNS`."""
    bounds: list[tuple[float | None, float | None]] = []
    for index in free:
        offset = int(index) % FEATURE_COUNT - TERMS_OFFSET
        sign = TERM_SIGNS.get(TERM_ORDER[offset], 0) if offset >= 0 else 0
        bounds.append((0.0, None) if sign > 0 else (None, 0.0) if sign < 0 else (None, None))
    return bounds


def fit_weights(x: sparse.csr_matrix, target: np.ndarray, w0: np.ndarray, k: float, lam: float,
                free: np.ndarray, bounds: list[tuple[float | None, float | None]] | None = None) -> np.ndarray:
    """Minimise the squared error plus lam · |w - w0|² over the ``free`` entries (the rest stay),
    within ``bounds`` (one pair per free entry; the start is moved inside them)."""
    n = len(target)
    c = k * np.log(10.0) / 400.0

    def objective(v: np.ndarray) -> tuple[float, np.ndarray]:
        w = w0.copy()
        w[free] = v
        p = sigmoid(x @ w, k)
        error = p - target
        grad_scores = 2.0 * error * p * (1.0 - p) * c / n
        grad = (x.T @ grad_scores)[free] + 2.0 * lam * (v - w0[free])
        return float(np.mean(error ** 2) + lam * np.sum((v - w0[free]) ** 2)), grad

    start = w0[free].copy()
    if bounds is not None:
        low = np.array([-np.inf if b[0] is None else b[0] for b in bounds])
        high = np.array([np.inf if b[1] is None else b[1] for b in bounds])
        start = np.clip(start, low, high)
    found = optimize.minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds,
                              options={"maxiter": 5000, "maxfun": 10000, "ftol": 1e-15, "gtol": 1e-12})
    print(f"L-BFGS: {found.nit} iterations, {found.message}")
    w = w0.copy()
    w[free] = found.x
    return w


def piece_values_of(w: np.ndarray, x: sparse.csr_matrix) -> dict[int, int]:
    """Each piece's value in one phase (``w`` and ``x`` that phase's half): its fitted square values
    averaged over where it stood in the data, weighted by the phase's share."""
    occupancy = np.asarray(abs(x).sum(axis=0)).ravel()
    values = {}
    slots = TERMS_OFFSET // len(PIECE_TYPES)
    for index, piece_type in enumerate(PIECE_TYPES):
        seen = occupancy[index * slots:(index + 1) * slots]
        squares = w[index * slots:(index + 1) * slots]
        values[piece_type] = 0 if piece_type == 7 or seen.sum() == 0 else int(round(
            float(np.dot(seen, squares) / seen.sum())))
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=[str(p) for p in DEFAULT_GAMES], help="game records")
    parser.add_argument("--decided-only", action="store_true",
                        help="only the record games whose Result header gives the result (not '*')")
    parser.add_argument("--selfplay", type=int, default=400, help="self-play games to add (default 400)")
    parser.add_argument("--selfplay-nodes", type=int, default=3000, help="nodes a move in self-play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=None, metavar="NPZ",
                        help="read the positions from this file if it exists, else write them there")
    parser.add_argument("--teacher-positions", type=int, default=25000,
                        help="label this many positions (drawn at random) with Fairy-Stockfish's score; 0: none")
    parser.add_argument("--teacher-depth", type=int, default=7, help="Fairy-Stockfish's search depth (default 7)")
    parser.add_argument("--teacher-weight", type=float, default=1.0,
                        help="target = (1 - w) · result + w · σ(teacher score) where there is one; at 1 "
                             "(default) only the teacher-scored positions are fitted")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH, help="the Fairy-Stockfish executable")
    parser.add_argument("--lam", type=float, default=1e-8, help="L2 pull toward the shipped weights")
    parser.add_argument("--base", default=None, metavar="JSON",
                        help="the weights to start from and pull toward (default: the shipped ones)")
    parser.add_argument("--free-signs", action="store_true",
                        help="let term weights take either sign (default: each keeps the sign of its meaning)")
    parser.add_argument("--write", default=None, metavar="JSON", help="write the fitted weights here")
    args = parser.parse_args()
    started = time.monotonic()
    if args.cache and Path(args.cache).exists():
        data = dict(np.load(args.cache))
        print(f"positions from {args.cache}")
    else:
        data = build_dataset(args)
        if args.cache:
            np.savez_compressed(args.cache, **data)
    if args.teacher_positions and int(np.sum(~np.isnan(data.get("teacher", np.array([np.nan]))))) < min(
            args.teacher_positions, len(data["result"])):
        rows = np.random.default_rng(args.seed).permutation(len(data["result"]))[:args.teacher_positions]
        teacher = data.get("teacher", np.full(len(data["result"]), np.nan))
        missing = np.sort(rows[np.isnan(teacher[rows])])  # a larger --teacher-positions adds to a cache
        teacher[missing] = teacher_scores(data["boards"], data["sides"], missing, args.teacher_depth,
                                          args.fairy_stockfish)[missing]
        data["teacher"] = teacher
        print(f"teacher: {len(missing)} positions at depth {args.teacher_depth} ({time.monotonic() - started:.0f} s)")
        if args.cache:
            np.savez_compressed(args.cache, **data)
    x = feature_matrix(data["boards"], data["sides"])
    result = data["result"]
    held_out = data["game"] % 10 == 0
    held_out_games = held_out.copy()
    train = ~held_out
    w0 = phased_weights_vector(read_weights(Path(args.base)) if args.base else WEIGHTS)
    k = fit_k(x[train], result[train], w0)
    target = result
    if args.teacher_positions and "teacher" in data:
        teacher = data["teacher"]
        known = ~np.isnan(teacher)
        k_teacher = fit_k(sparse.csr_matrix(np.nan_to_num(teacher[known & train])[:, None]),
                          result[known & train], np.ones(1))
        target = result.copy()
        target[known] = ((1 - args.teacher_weight) * result[known]
                         + args.teacher_weight * sigmoid(teacher[known], k_teacher))
        alone = loss(sparse.csr_matrix(teacher[known & held_out][:, None]), result[known & held_out], np.ones(1),
                     k_teacher)
        print(f"teacher: {int(known.sum())} positions, its K = {k_teacher:.3f}, weight {args.teacher_weight}; "
              f"its own loss against the results {alone:.5f} (held out)")
        held_out = held_out & known  # the figures below: held-out positions with a teacher score
        if args.teacher_weight >= 1.0:
            train = train & known  # the teacher alone: positions without its score say nothing
    print(f"quiet positions: {len(target)} ({int(np.sum(data['source'] == 0))} from records, "
          f"{int(np.sum(data['source'] == 1))} self-play); train {int(train.sum())}, held out {int(held_out.sum())}")
    print(f"K = {k:.3f}; loss against the {'results' if target is result else 'teacher' if args.teacher_weight >= 1 else 'mixed target'} before: "
          f"train {loss(x[train], target[train], w0, k):.5f} "
          f"held out {loss(x[held_out], target[held_out], w0, k):.5f}", flush=True)
    occupancy = np.asarray(abs(x[train]).sum(axis=0)).ravel()
    free = np.flatnonzero(occupancy > 0)
    tempo = TERMS_OFFSET + TERM_ORDER.index("tempo")
    free = free[(free != tempo) & (free != FEATURE_COUNT + tempo)]  # the tempo is the search's, not the data's
    w = fit_weights(x[train], target[train], w0, k, args.lam, free, None if args.free_signs else sign_bounds(free))
    halves = (slice(0, FEATURE_COUNT), slice(FEATURE_COUNT, 2 * FEATURE_COUNT))
    fitted = phased_weights_from_vector(w, *(piece_values_of(w[half], x[:, half]) for half in halves))
    w_int = phased_weights_vector(fitted)
    print(f"loss after (integer weights): train {loss(x[train], target[train], w_int, k):.5f} "
          f"held out {loss(x[held_out], target[held_out], w_int, k):.5f}  ({time.monotonic() - started:.0f} s)")
    print(f"loss against the results of all held-out positions ({int(held_out_games.sum())}): "
          f"before {loss(x[held_out_games], result[held_out_games], w0, k):.5f} "
          f"after {loss(x[held_out_games], result[held_out_games], w_int, k):.5f}")
    for name, phase in (("middlegame", fitted.midgame), ("endgame", fitted.endgame)):
        print(f"{name} piece values:", {PIECE_NAMES[t]: v for t, v in phase.piece_values.items()})
        print(f"{name} terms:", phase.terms)
    if args.write:
        fitted.write(Path(args.write))
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
