"""Labelled positions for the learning engines: one pipeline, one sharded format.

Positions from every record collection xqdesk reads and from games a teacher plays against
itself are labelled by the teacher's fixed-depth MultiPV search (Fairy-Stockfish where installed,
else the built-in engine) and by the game's result (:mod:`.tasks`), with parallel teachers or as Ray
tasks (:mod:`.pipeline`), and written as shards that training streams (:mod:`.shards`). The
``zero`` network and the built-in engine's evaluation network (:mod:`.nnue_training`) both train
from them.
"""
