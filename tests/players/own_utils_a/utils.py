"""This player's own utils: the course functions, and a mark that says whose utils it is."""
from xqdesk.compat import change_round, get_legal_actions, init_board  # noqa: F401

MARK = "utils-a"


def pick(actions):
    return actions[0]
