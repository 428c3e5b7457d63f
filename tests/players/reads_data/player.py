"""Reads a data file next to it by relative path, as real submissions do."""
import json

from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        with open("book.json", encoding="utf-8") as handle:
            self.book = json.load(handle)
        self.name = self.book["name"]

    def policy(self, board: tuple):
        actions = get_legal_actions(board, self.side, self.history)
        preferred = tuple(self.book["first_move"][self.side])
        return preferred if preferred in actions else actions[0]

    def update_history(self, current_game_history: list):
        self.history = current_game_history

    def get_name(self):
        return self.name
