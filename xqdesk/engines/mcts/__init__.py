"""Monte-Carlo tree search: the ``mcts`` engine (UCT with playouts) and the tree the ``zero``
engine shares."""
