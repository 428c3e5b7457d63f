"""Defines no Player class."""


class Agent:
    def __init__(self, side: str):
        self.side = side
