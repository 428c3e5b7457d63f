"""The built-in engine: a compiled alpha-beta searcher with Xiangqi knowledge."""
