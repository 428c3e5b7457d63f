"""The game in progress: the controller every widget observes, the live game with one seat per
colour, the clocks, hints, and the dialogs that start a game. Stands on ``board``, ``engines`` and
``base``."""
