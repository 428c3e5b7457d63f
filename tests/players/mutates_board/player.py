"""Wipes the board it is given (and the history list) before answering with a legal action."""
from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "MutatesBoard"

    def policy(self, board: tuple):
        action = get_legal_actions(board, self.side, self.history)[0]
        for row in board:
            row[:] = [0] * len(row)
        self.history.clear()
        return action

    def update_history(self, current_game_history: list):
        self.history = current_game_history
