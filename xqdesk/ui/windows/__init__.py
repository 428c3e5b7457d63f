"""Windows beside the main one: fog of war, engine tournaments. Stand on ``analysis``, ``record``
and below."""
