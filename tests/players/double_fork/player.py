"""Escapes on every move: forks, the child leaves the session with setsid and forks again, and the
grandchild (reparented away from the player) sleeps forever. Plays a random legal move. Writes each
grandchild's pid (before the move is returned) to the file named by XQDESK_TEST_PID_FILE, when set."""
import os
import random
import time

from utils import get_legal_actions


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "DoubleFork"

    def policy(self, board: tuple):
        child = os.fork()
        if child == 0:
            os.setsid()
            grandchild = os.fork()
            if grandchild == 0:
                while True:
                    time.sleep(1)
            record = os.environ.get("XQDESK_TEST_PID_FILE")
            if record:  # written before this child exits, so before the move is returned
                with open(record, "a") as handle:
                    handle.write(f"{grandchild}\n")
            os._exit(0)
        os.waitpid(child, 0)
        return random.choice(get_legal_actions(board, self.side, self.history))

    def update_history(self, current_game_history: list):
        self.history = current_game_history
