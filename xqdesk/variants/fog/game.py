"""Fog-of-war game records: the full board is kept, and :meth:`FogGameRecord.view` gives either
side's view at any ply. (Games are played by :mod:`xqdesk.engines.fog.referee`, which writes the
record as any game's runner does.)"""
from __future__ import annotations

from dataclasses import dataclass

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.outcome import Outcome
from xqdesk.pieces import Color
from xqdesk.ruleset import FOG
from xqdesk.variants.fog.observation import Observation, observe


@dataclass(frozen=True)
class FogGameRecord:
    """A finished fog game with the full board: who played and its record (:attr:`game`: from
    where, the moves with how long each took, how it ended)."""

    red: str
    black: str
    game: Game

    @property
    def start_fen(self) -> str:
        return self.game.start_fen

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self.game.mainline_moves())

    @property
    def outcome(self) -> Outcome:
        return self.game.outcome if self.game.outcome is not None else Outcome.aborted("Game aborted")

    @property
    def move_times(self) -> tuple[float, ...]:
        """Seconds each move took."""
        return tuple(node.seconds or 0.0 for node in self.game.mainline())

    def board_at(self, ply: int) -> Board:
        """The full board after the first ``ply`` moves."""
        moves = self.moves
        if not 0 <= ply <= len(moves):
            raise ValueError(f"ply {ply} is outside the game (0..{len(moves)})")
        board = Board(self.start_fen, ruleset=FOG)
        for move in moves[:ply]:
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
