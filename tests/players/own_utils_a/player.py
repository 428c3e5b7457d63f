"""Uses its own utils.py (which says which one it is in the player's name)."""
import utils
from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = utils.MARK

    def policy(self, board: tuple):
        return utils.pick(get_legal_actions(board, self.side, self.history))

    def update_history(self, current_game_history: list):
        self.history = current_game_history

    def get_name(self):
        return self.name
