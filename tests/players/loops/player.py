"""Never returns."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Loops"

    def policy(self, board: tuple):
        count = 0
        while True:
            count += 1

    def update_history(self, current_game_history: list):
        self.history = current_game_history
