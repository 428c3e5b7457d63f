"""Boards a fog agent believes possible: every hidden enemy piece placed on an unseen square, such
that the board would show the observer exactly what it sees.

:func:`is_consistent` is the test (the board's :func:`~xqdesk.variants.fog.observation.sight`
equals the observation's cells and moves). :func:`sample_board` draws such a board uniformly: which
enemy pieces are out of sight follows from the enemy's material and what is seen; each is put on an
unseen square where a piece of its kind can stand. What the view implies is honoured first — an
unseen cannon screen, horse leg or elephant eye that blocks a move must hold a piece, and so must
the square where the opponent just took one of the observer's pieces; an unseen square a move
passes over or a cannon shoots across must be empty — and every draw is checked.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

from xqdesk.movegen import ELEPHANT_STEPS, HORSE_STEPS, RAYS
from xqdesk.pieces import CANNON, ELEPHANT, HORSE, Piece
from xqdesk.position_check import placement_problem
from xqdesk.squares import SQUARE_COUNT
from xqdesk.variants.fog.observation import Observation, sight

Codes = tuple[int, ...]
"""A full board: 90 piece codes indexed by square."""


@lru_cache(maxsize=None)
def standing_squares(code: int) -> frozenset[int]:
    """The squares a piece of ``code`` can ever stand on."""
    piece = Piece.from_code(code)
    return frozenset(sq for sq in range(SQUARE_COUNT) if placement_problem(piece, sq) is None)


def is_consistent(codes: Sequence[int], observation: Observation) -> bool:
    """Whether the board ``codes`` shows the observer exactly what ``observation`` shows."""
    cells, moves = sight(codes, observation.side)
    return moves == observation.move_codes and cells == observation.cells


@dataclass(frozen=True)
class Implied:
    """What a view implies about unseen squares: ``occupied`` ones must hold an (enemy) piece,
    ``empty`` ones must not."""

    occupied: frozenset[int]
    empty: frozenset[int]


def implied(observation: Observation) -> Implied:
    """The unseen squares the observer's own moves (and missing moves) tell about."""
    cells, side = observation.cells, observation.side
    moves = set(observation.move_codes)
    occupied: set[int] = set()
    empty: set[int] = set()

    def own(sq: int) -> bool:
        cell = cells[sq]
        return bool(cell) and (cell > 0) == side  # type: ignore[operator]

    for sq, cell in enumerate(cells):
        if not cell or (cell > 0) != side:
            continue
        kind = abs(cell)
        if kind in (HORSE, ELEPHANT):
            steps = HORSE_STEPS[sq] if kind == HORSE else ELEPHANT_STEPS[side][sq]
            for to, block in steps:
                if cells[block] is not None:
                    continue
                if sq << 7 | to in moves:
                    empty.add(block)
                elif not own(to):
                    occupied.add(block)
        elif kind == CANNON:
            for ray in RAYS[sq]:
                index = 0
                while index < len(ray) and cells[ray[index]] == 0:
                    index += 1  # the empty squares a cannon slides to are all seen
                if index == len(ray):
                    continue
                if cells[ray[index]] is None:
                    occupied.add(ray[index])  # the screen
                beyond = ray[index + 1:]
                target = next((i for i, to in enumerate(beyond) if sq << 7 | to in moves), None)
                for to in beyond[:target]:
                    if cells[to] is None:
                        empty.add(to)
                    elif cells[to] != 0:
                        break  # an own piece ends the ray (an enemy one would be a target)
    if observation.taken is not None and cells[observation.taken] is None:
        occupied.add(observation.taken)  # the piece that just took ours stands there
    return Implied(frozenset(occupied), frozenset(empty - occupied))


def sample_board(observation: Observation, rng: random.Random, attempts: int = 40,
                 hint: Optional[Implied] = None) -> Optional[Codes]:
    """A board consistent with ``observation``, the hidden enemy pieces placed uniformly at random
    over the unseen squares where each can stand; None when ``attempts`` draws all fail."""
    constraints = implied(observation) if hint is None else hint
    base = [cell or 0 for cell in observation.cells]
    hidden = observation.hidden_enemy()
    free = [sq for sq, cell in enumerate(observation.cells) if cell is None and sq not in constraints.empty]
    must = sorted(constraints.occupied)
    for _ in range(attempts):
        codes = base[:]
        pieces = list(hidden)
        rng.shuffle(pieces)
        rng.shuffle(must)
        placed = True
        for sq in must:
            fitting = [index for index, code in enumerate(pieces) if sq in standing_squares(code)]
            if not fitting:
                placed = False
                break
            codes[sq] = pieces.pop(rng.choice(fitting))
        if placed:
            for code in pieces:
                stands = standing_squares(code)
                options = [sq for sq in free if codes[sq] == 0 and sq in stands]
                if not options:
                    placed = False
                    break
                codes[rng.choice(options)] = code
        if placed and is_consistent(codes, observation):
            return tuple(codes)
    return None
