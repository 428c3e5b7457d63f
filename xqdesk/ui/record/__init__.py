"""The record on show: opening and saving files, the game list, the move list, variations,
comments, game information, the clipboard and the autosave. Stands on ``game`` and below."""
