"""Raises inside policy."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Raises"

    def policy(self, board: tuple):
        raise ValueError("boom in policy")

    def update_history(self, current_game_history: list):
        self.history = current_game_history
