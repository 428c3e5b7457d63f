"""Returns an illegal action: Red's chariot jumping over its own pawn (or Black's, as Black)."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Illegal"

    def policy(self, board: tuple):
        return (9, 0, 5, 0) if self.side == "red" else (0, 0, 4, 0)

    def update_history(self, current_game_history: list):
        self.history = current_game_history
