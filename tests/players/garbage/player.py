"""Returns text instead of an action."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Garbage"

    def policy(self, board: tuple):
        return "h2e2"

    def update_history(self, current_game_history: list):
        self.history = current_game_history
