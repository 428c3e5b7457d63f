"""Raises inside policy with a message full of terminal escape sequences: the verdict quotes the
message, and whoever prints the verdict must not let the terminal obey them."""


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "HostileText"

    def policy(self, board: tuple):
        raise ValueError("boom \x1b]0;PWNED\x07 \x1b]52;c;cm0gLXJmIH4=\x07 \x1b[2J\x1b[H \u202eevil")

    def update_history(self, current_game_history: list):
        self.history = current_game_history
