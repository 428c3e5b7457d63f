"""The opening explorer: its panel, its session over the position index and the master book, and
building an index in the background. Stands on ``game`` and below."""
