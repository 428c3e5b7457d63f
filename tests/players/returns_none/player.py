"""Returns None."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "ReturnsNone"

    def policy(self, board: tuple):
        return None

    def update_history(self, current_game_history: list):
        self.history = current_game_history
