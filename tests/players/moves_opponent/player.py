"""Moves a piece of the other side (a pawn one step forward)."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "MovesOpponent"

    def policy(self, board: tuple):
        return (3, 0, 4, 0) if self.side == "red" else (6, 0, 5, 0)

    def update_history(self, current_game_history: list):
        self.history = current_game_history
