"""Whole-game review: its dialog, the worker that runs it, the session that marks the moves, and
the summary. Stands on ``analysis``, ``record`` and below."""
