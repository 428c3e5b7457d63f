"""The board: drawing it (pieces, themes, arrows), the board widget and its evaluation bar, the
view options, and the position editor. Stands on ``base`` alone."""
