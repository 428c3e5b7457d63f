"""Sends SIGTERM to its parent process on every move (hoping to kill the referee), then plays a
random legal move."""
import os
import random
import signal

from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "KillsParent"

    def policy(self, board: tuple):
        os.kill(os.getppid(), signal.SIGTERM)
        return random.choice(get_legal_actions(board, self.side, self.history))

    def update_history(self, current_game_history: list):
        self.history = current_game_history
