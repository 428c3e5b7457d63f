"""A syntax error."""


class Player:
    def __init__(self, side: str)
        self.side = side
