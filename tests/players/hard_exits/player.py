"""Ends its process with os._exit in policy."""
import os


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "HardExits"

    def policy(self, board: tuple):
        os._exit(4)

    def update_history(self, current_game_history: list):
        self.history = current_game_history
