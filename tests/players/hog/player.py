"""Allocates memory without bound."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Hog"

    def policy(self, board: tuple):
        hoard = []
        while True:
            hoard.append(bytearray(16 * 1024 * 1024))

    def update_history(self, current_game_history: list):
        self.history = current_game_history
