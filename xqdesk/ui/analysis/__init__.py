"""Analysis: the engine panel with its views and score graph, the analysis session and the
tablebase pane. Stands on ``game`` and below."""
