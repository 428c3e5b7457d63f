"""Thinks for 30 seconds."""
import time


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Sleeps"

    def policy(self, board: tuple):
        time.sleep(30)
        return (9, 0, 8, 0)

    def update_history(self, current_game_history: list):
        self.history = current_game_history
