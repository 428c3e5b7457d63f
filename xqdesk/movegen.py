"""Move generation and attack tests over a flat list of 90 signed piece codes.

Pure functions and precomputed tables, shared by :class:`xqdesk.board.Board`. A move is encoded here
as the int ``from_square << 7 | to_square`` (see :func:`encode`); the board turns these into
:class:`~xqdesk.move.Move` values at its public boundary.
"""
from __future__ import annotations

from typing import Iterable

from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN
from xqdesk.squares import FILES, RANKS, SQUARE_COUNT


def encode(from_square: int, to_square: int) -> int:
    return from_square << 7 | to_square


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _in_palace(file: int, rank: int, red: bool) -> bool:
    return 3 <= file <= 5 and (0 <= rank <= 2 if red else 7 <= rank <= 9)


def _own_half(rank: int, red: bool) -> bool:
    return rank <= 4 if red else rank >= 5


def _build_rays() -> tuple[list[tuple[tuple[int, ...], ...]], list[tuple[tuple[int, ...], ...]]]:
    file_rays: list[tuple[tuple[int, ...], ...]] = []
    rank_rays: list[tuple[tuple[int, ...], ...]] = []
    for sq in range(SQUARE_COUNT):
        r = sq // FILES
        file_rays.append((tuple(range(sq + FILES, SQUARE_COUNT, FILES)), tuple(range(sq - FILES, -1, -FILES))))
        rank_rays.append((tuple(range(sq + 1, r * FILES + FILES)), tuple(range(sq - 1, r * FILES - 1, -1))))
    return file_rays, rank_rays


FILE_RAYS, RANK_RAYS = _build_rays()
"""Per square, the squares outward along its file (up, down) and its rank (right, left)."""
RAYS = [FILE_RAYS[sq] + RANK_RAYS[sq] for sq in range(SQUARE_COUNT)]

_ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_HORSE_STEPS = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1))


def _sq(f: int, r: int) -> int:
    return r * FILES + f


def _build_tables():
    king: dict[bool, list[tuple[int, ...]]] = {True: [], False: []}
    advisor: dict[bool, list[tuple[int, ...]]] = {True: [], False: []}
    elephant: dict[bool, list[tuple[tuple[int, int], ...]]] = {True: [], False: []}  # (to, eye)
    pawn: dict[bool, list[tuple[int, ...]]] = {True: [], False: []}
    horse = []  # (to, leg)
    horse_attackers = []  # (from, leg) of horses that attack this square
    for sq in range(SQUARE_COUNT):
        f, r = sq % FILES, sq // FILES
        for red in (True, False):
            king[red].append(tuple(_sq(f + df, r + dr) for df, dr in _ORTHOGONAL
                                   if _in_palace(f + df, r + dr, red)))
            advisor[red].append(tuple(_sq(f + df, r + dr) for df, dr in _DIAGONAL
                                      if _in_palace(f, r, red) and _in_palace(f + df, r + dr, red)))
            elephant[red].append(tuple((_sq(f + 2 * df, r + 2 * dr), _sq(f + df, r + dr)) for df, dr in _DIAGONAL
                                       if _on_board(f + 2 * df, r + 2 * dr) and _own_half(r, red)
                                       and _own_half(r + 2 * dr, red)))
            forward = 1 if red else -1
            steps = [(0, forward)]
            if not _own_half(r, red):
                steps += [(1, 0), (-1, 0)]
            pawn[red].append(tuple(_sq(f + df, r + dr) for df, dr in steps if _on_board(f + df, r + dr)))
        moves, attackers = [], []
        for df, dr in _HORSE_STEPS:
            leg_df, leg_dr = (0, dr // 2) if abs(dr) == 2 else (df // 2, 0)
            if _on_board(f + df, r + dr):
                moves.append((_sq(f + df, r + dr), _sq(f + leg_df, r + leg_dr)))
            # A horse at (f - df, r - dr) reaches sq; its leg is one orthogonal step from it.
            hf, hr = f - df, r - dr
            if _on_board(hf, hr):
                attackers.append((_sq(hf, hr), _sq(hf + leg_df, hr + leg_dr)))
        horse.append(tuple(moves))
        horse_attackers.append(tuple(attackers))
    pawn_attackers = {red: [tuple(p for p in range(SQUARE_COUNT) if sq in pawn[red][p]) for sq in range(SQUARE_COUNT)]
                      for red in (True, False)}
    return king, advisor, elephant, pawn, horse, horse_attackers, pawn_attackers


(KING_STEPS, ADVISOR_STEPS, ELEPHANT_STEPS, PAWN_STEPS, HORSE_STEPS,
 HORSE_ATTACKERS, PAWN_ATTACKERS) = _build_tables()
"""Step tables, indexed ``[is_red][square]`` for side-dependent pieces and ``[square]`` otherwise.
``PAWN_ATTACKERS[is_red][sq]``: squares from which a pawn of that side attacks ``sq``."""

_KING_ZONE = [frozenset(sq + d for d in (-10, -8, 8, 10) if 0 <= sq + d < SQUARE_COUNT
                        and abs((sq + d) % FILES - sq % FILES) == 1) for sq in range(SQUARE_COUNT)]
KING_LINES = [frozenset(sq2 for ray in RAYS[sq] for sq2 in ray) for sq in range(SQUARE_COUNT)]
"""Squares on the same file or rank: where a piece may block or screen an attack on ``sq``."""
KING_SENSITIVE = [KING_LINES[sq] | _KING_ZONE[sq] for sq in range(SQUARE_COUNT)]
"""Squares whose emptying may expose ``sq``: its lines and its horse-leg (diagonal) neighbours."""


def pseudo_legal_moves(codes: list[int], own: Iterable[int], red: bool) -> list[int]:
    """Encoded moves of the pieces on ``own`` squares by their piece moves, landing on no own piece.

    King safety and the perpetual-check rule are not considered here.
    """
    moves: list[int] = []
    append = moves.append
    for sq in own:
        kind = codes[sq] if red else -codes[sq]
        base = sq << 7
        if kind == CHARIOT:
            for ray in RAYS[sq]:
                for to in ray:
                    target = codes[to]
                    if target == 0:
                        append(base | to)
                    else:
                        if (target < 0) == red:
                            append(base | to)
                        break
        elif kind == HORSE:
            for to, leg in HORSE_STEPS[sq]:
                if codes[leg] == 0:
                    target = codes[to]
                    if target == 0 or (target < 0) == red:
                        append(base | to)
        elif kind == CANNON:
            for ray in RAYS[sq]:
                screened = False
                for to in ray:
                    target = codes[to]
                    if not screened:
                        if target == 0:
                            append(base | to)
                        else:
                            screened = True
                    elif target != 0:
                        if (target < 0) == red:
                            append(base | to)
                        break
        elif kind == PAWN:
            for to in PAWN_STEPS[red][sq]:
                target = codes[to]
                if target == 0 or (target < 0) == red:
                    append(base | to)
        elif kind == ELEPHANT:
            for to, eye in ELEPHANT_STEPS[red][sq]:
                if codes[eye] == 0:
                    target = codes[to]
                    if target == 0 or (target < 0) == red:
                        append(base | to)
        elif kind == ADVISOR:
            for to in ADVISOR_STEPS[red][sq]:
                target = codes[to]
                if target == 0 or (target < 0) == red:
                    append(base | to)
        else:  # KING
            for to in KING_STEPS[red][sq]:
                target = codes[to]
                if target == 0 or (target < 0) == red:
                    append(base | to)
    return moves


def unchecked_moves(codes: list[int], own: Iterable[int], red: bool) -> list[int]:
    """Every move the movement of the pieces on ``own`` allows, with no regard to the king's safety:
    :func:`pseudo_legal_moves` plus the king capturing the other king when they face each other on
    an open file. These are the legal moves of the rules without check (fog of war)."""
    moves = pseudo_legal_moves(codes, own, red)
    king = KING if red else -KING
    step = FILES if red else -FILES
    for sq in own:
        if codes[sq] == king:
            to = sq + step
            while 0 <= to < SQUARE_COUNT and codes[to] == 0:
                to += step
            if 0 <= to < SQUARE_COUNT and codes[to] == -king:
                moves.append(sq << 7 | to)
    return moves


def king_attacked(codes: list[int], king_square: int, red: bool) -> bool:
    """Whether the king of side ``red`` standing on ``king_square`` can be captured by the other
    side, counting the facing kings ("flying general") as an attack."""
    sign = -1 if red else 1  # sign of the attacker's codes
    chariot, cannon, horse, pawn, king = sign * CHARIOT, sign * CANNON, sign * HORSE, sign * PAWN, sign * KING
    # The kings' palaces share no rank, so the other king can only be met along a file.
    for ray in RAYS[king_square]:
        screened = False
        for sq in ray:
            code = codes[sq]
            if code:
                if screened:
                    if code == cannon:
                        return True
                    break
                if code == chariot or code == king:
                    return True
                screened = True
    for sq, leg in HORSE_ATTACKERS[king_square]:
        if codes[sq] == horse and codes[leg] == 0:
            return True
    for sq in PAWN_ATTACKERS[not red][king_square]:
        if codes[sq] == pawn:
            return True
    return False


def piece_attacks(codes: list[int], from_square: int, target: int) -> bool:
    """Whether the piece on ``from_square`` could move to ``target`` by its piece move (ignoring
    what stands on ``target`` and its own king's safety). Two kings on one open file attack each
    other."""
    code = codes[from_square]
    red = code > 0
    kind = code if red else -code
    if kind == CHARIOT or kind == CANNON or kind == KING:
        if kind == KING and target in KING_STEPS[red][from_square]:
            return True
        for ray in RAYS[from_square]:
            if target not in ray:
                continue
            between = 0
            for sq in ray:
                if sq == target:
                    break
                if codes[sq]:
                    between += 1
            if kind == CHARIOT:
                return between == 0
            if kind == CANNON:
                return between == 1
            return between == 0 and abs(codes[target]) == KING and ray in FILE_RAYS[from_square]
        return False
    if kind == HORSE:
        return any(to == target and codes[leg] == 0 for to, leg in HORSE_STEPS[from_square])
    if kind == PAWN:
        return target in PAWN_STEPS[red][from_square]
    if kind == ELEPHANT:
        return any(to == target and codes[eye] == 0 for to, eye in ELEPHANT_STEPS[red][from_square])
    if kind == ADVISOR:
        return target in ADVISOR_STEPS[red][from_square]
    return False
