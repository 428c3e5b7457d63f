"""An ordinary course player without its own utils.py: plays a random legal action."""
import random

from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Ordinary"

    def policy(self, board: tuple):
        return random.choice(get_legal_actions(board, self.side, self.history))

    def update_history(self, current_game_history: list):
        self.history = current_game_history

    def get_name(self):
        return self.name
