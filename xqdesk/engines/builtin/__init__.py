"""The built-in engine: a compiled alpha-beta searcher with Xiangqi knowledge.

:class:`BuiltinEngine` is the in-process engine the engine host wraps as a UCI engine
(``python -m xqdesk.engines.host builtin``).
"""
from xqdesk.engines.builtin.engine import BuiltinEngine

__all__ = ["BuiltinEngine"]
