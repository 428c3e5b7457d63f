"""Observations as one-line text (a "fog FEN"), for engine protocols and files.

``<placement>:<observer>:<turn>:<enemy material>:<halfmove clock>:<ply>:<last move>:<taken>:<moves>``

- placement: ranks 9 down to 0 joined by ``/``, FEN letters for seen pieces, a digit for a run of
  squares seen empty, ``?`` for each unseen square;
- observer and turn: ``w`` (Red) or ``b`` (Black);
- enemy material: seven digits, the enemy's pawns, advisors, elephants, horses, cannons, chariots
  and generals;
- last move and taken: ICCS (``h2e2``, ``e6``) or ``-``; moves: the observer's moves in ICCS joined
  by ``,`` (``-`` for none).
"""
from __future__ import annotations

from typing import Optional

from xqdesk.move import Move
from xqdesk.pieces import RED, Color, Piece
from xqdesk.squares import parse_square, square_name
from xqdesk.variants.fog.observation import Observation


def _side(color: Color) -> str:
    return "w" if color == RED else "b"


def format_view(observation: Observation) -> str:
    """``observation`` as one token without spaces (see the module docstring)."""
    ranks = []
    for rank in range(9, -1, -1):
        text, empty = "", 0
        for file in range(9):
            cell = observation.cells[rank * 9 + file]
            if cell == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += "?" if cell is None else Piece.from_code(cell).symbol()
        ranks.append(text + (str(empty) if empty else ""))
    last = observation.last_move.iccs() if observation.last_move else "-"
    taken = square_name(observation.taken) if observation.taken is not None else "-"
    moves = ",".join(move.iccs() for move in observation.moves) or "-"
    material = "".join(str(count) for count in observation.enemy_material[1:])
    return ":".join(("/".join(ranks), _side(observation.side), _side(observation.turn), material,
                     str(observation.halfmove_clock), str(observation.ply), last, taken, moves))


def parse_view(text: str) -> Observation:
    """The observation a :func:`format_view` token describes; ValueError saying what is wrong."""
    fields = text.strip().split(":")
    if len(fields) != 9:
        raise ValueError(f"a fog view has 9 fields separated by ':', got {len(fields)} in {text!r}")
    placement, observer, turn, material, halfmove, ply, last, taken, moves = fields
    ranks = placement.split("/")
    if len(ranks) != 10:
        raise ValueError(f"fog view {text!r}: {len(ranks)} ranks, expected 10")
    cells: list[Optional[int]] = [0] * 90
    for row, rank_text in enumerate(ranks):
        rank, file = 9 - row, 0
        for ch in rank_text:
            if ch.isdigit():
                file += int(ch)
                continue
            if file < 9:
                try:
                    cells[rank * 9 + file] = None if ch == "?" else Piece.from_symbol(ch).code
                except ValueError:
                    raise ValueError(f"fog view {text!r}: unknown letter {ch!r} in rank {rank}") from None
            file += 1
        if file != 9:
            raise ValueError(f"fog view {text!r}: rank {rank} ({rank_text!r}) does not have 9 squares")
    sides = {"w": RED, "b": not RED}
    if observer not in sides or turn not in sides:
        raise ValueError(f"fog view {text!r}: sides must be 'w' or 'b', got {observer!r} and {turn!r}")
    if len(material) != 7 or not material.isdigit():
        raise ValueError(f"fog view {text!r}: enemy material must be 7 digits, got {material!r}")
    if not halfmove.isdigit() or not ply.isdigit():
        raise ValueError(f"fog view {text!r}: halfmove clock and ply must be numbers, got {halfmove!r}, {ply!r}")
    move_list = [] if moves == "-" else [Move.from_iccs(move) for move in moves.split(",")]
    return Observation(side=sides[observer], turn=sides[turn], cells=tuple(cells),
                       move_codes=tuple(sorted(m.from_square << 7 | m.to_square for m in move_list)),
                       enemy_material=(0,) + tuple(int(digit) for digit in material),
                       halfmove_clock=int(halfmove), ply=int(ply),
                       last_move=None if last == "-" else Move.from_iccs(last),
                       taken=None if taken == "-" else parse_square(taken))
