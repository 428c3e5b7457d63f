"""Its constructor raises."""


class Player:
    def __init__(self, side: str):
        raise RuntimeError("cannot find my weights")
