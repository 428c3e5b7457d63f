"""Fog-of-war game records: the full board is kept, and :meth:`FogGameRecord.view` gives either
side's view at any ply. (Games are played by :mod:`xqdesk.engines.fog.referee`.)"""
from __future__ import annotations

from dataclasses import dataclass

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import Color
from xqdesk.ruleset import FOG
from xqdesk.variants.fog.observation import Observation, observe


@dataclass(frozen=True)
class FogGameRecord:
    """A finished fog game with the full board: who played, from where, the moves, how it ended
    and how long each move took (seconds)."""

    red: str
    black: str
    start_fen: str
    moves: tuple[Move, ...]
    outcome: Outcome
    move_times: tuple[float, ...] = ()

    def board_at(self, ply: int) -> Board:
        """The full board after the first ``ply`` moves."""
        if not 0 <= ply <= len(self.moves):
            raise ValueError(f"ply {ply} is outside the game (0..{len(self.moves)})")
        board = Board(self.start_fen, ruleset=FOG)
        for move in self.moves[:ply]:
            board.push(move)
        return board

    def view(self, ply: int, side: Color) -> Observation:
        """What ``side`` saw after the first ``ply`` moves."""
        return observe(self.board_at(ply), side)


def start_board(start_fen: str = STARTING_FEN) -> Board:
    """A fog board at ``start_fen`` (raises InvalidFenError for an impossible position)."""
    return Board(start_fen, ruleset=FOG)


def views(start_fen: str, moves: tuple[Move, ...] | list[Move], side: Color) -> list[Observation]:
    """What ``side`` saw at every ply of a game (index = ply), from its start and moves."""
    board = start_board(start_fen)
    seen = [observe(board, side)]
    for move in moves:
        board.push(move)
        seen.append(observe(board, side))
    return seen
