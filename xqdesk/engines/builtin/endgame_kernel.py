"""The built-in engine's endgame knowledge: how much of its lead a side can turn into a win.

Material alone misjudges endgames where the side ahead has too little to mate: advisors and
elephants never cross the river, a lone cannon needs a screen, a lone horse cannot break two
advisors, a lone pawn cannot break two defenders, a pawn on the enemy's back rank can no longer
advance. :func:`winning_share` scales a score toward a draw in those cases (in sixteenths), so the
search trades into them only when that is all it has, and does not mistake one for a won ending.
"""
from __future__ import annotations

from numba import njit

from xqdesk.compiled_cache import BORROWING_OPTIONS
from xqdesk.compiled_indexing import index_without_wraparound
from xqdesk.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, PAWN

index_without_wraparound(__name__)

FULL_SHARE = 16
"""A score is kept whole (16 sixteenths) unless one of the cases below applies."""
NO_ATTACKER_SHARE = 1
"""The side ahead has nothing that can cross the river (or a pawn that can still advance)."""
HELD_SHARE = 2
"""A lone horse against two advisors, a lone pawn against two defenders, a lone cannon that
has no screen of its own or meets defenders: drawn with correct defence."""
HARD_SHARE = 8
"""A lone pawn against one defender: won or drawn by where the pawn stands."""


@njit(**BORROWING_OPTIONS)
def winning_share(board, strong):
    """The sixteenths of its score that side ``strong`` (+1 Red, -1 Black) — the side ahead —
    keeps given the material on ``board`` (see the module doc): 16 when it has a chariot or two
    pieces able to attack; less when its attack cannot break the other side's defenders."""
    chariots = horses = cannons = pawns = own_defenders = 0
    advisors = elephants = 0
    last_rank = 9 if strong == 1 else 0
    for sq in range(90):
        piece = board[sq] * strong
        if piece == 0:
            continue
        if piece > 0:
            if piece == CHARIOT:
                chariots += 1
            elif piece == HORSE:
                horses += 1
            elif piece == CANNON:
                cannons += 1
            elif piece == PAWN:
                if sq // 9 != last_rank:
                    pawns += 1
            elif piece == ADVISOR or piece == ELEPHANT:
                own_defenders += 1
        elif piece == -ADVISOR:
            advisors += 1
        elif piece == -ELEPHANT:
            elephants += 1
    if chariots > 0:
        return FULL_SHARE
    attackers = horses + cannons + pawns
    if attackers == 0:
        return NO_ATTACKER_SHARE
    if attackers > 1:
        return FULL_SHARE
    defenders = advisors + elephants
    if horses == 1:
        return HELD_SHARE if advisors == 2 else FULL_SHARE
    if cannons == 1:
        if defenders == 0 and own_defenders > 0:
            return FULL_SHARE  # an advisor or elephant of its own is the screen that mates
        return HELD_SHARE
    if defenders >= 2:
        return HELD_SHARE
    return HARD_SHARE if defenders == 1 else FULL_SHARE


@njit(**BORROWING_OPTIONS)
def scale_for_winning_chances(board, score, side):
    """``score`` (from the view of ``side``, +1 Red or -1 Black) scaled by :func:`winning_share`
    of the side it favours, rounded toward zero."""
    if score == 0:
        return score
    strong = side if score > 0 else -side
    share = winning_share(board, strong)
    if share == FULL_SHARE:
        return score
    magnitude = (score if score > 0 else -score) * share // FULL_SHARE
    return magnitude if score > 0 else -magnitude
