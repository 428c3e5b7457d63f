"""Xiangqi variants: a ruleset (:mod:`xqdesk.ruleset`) and, where a side does not see the whole
board, what it sees. Qt-free core."""
