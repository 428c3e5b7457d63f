"""Prints to stdout (lines that look like UCI, too) every move, then plays a legal action."""
import random

from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Chatty"
        print("bestmove a0a1")

    def policy(self, board: tuple):
        actions = get_legal_actions(board, self.side, self.history)
        print("searching", len(actions), "actions")
        print("bestmove i9i8\nuciok\nreadyok", flush=True)
        return random.choice(actions)

    def update_history(self, current_game_history: list):
        self.history = current_game_history
