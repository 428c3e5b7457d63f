"""Pictures, GIFs and PDF documents of the game, made off the GUI thread. Stands on ``record`` and
below."""
