"""A reference opponent written the way a course student would: a course ``Player`` that searches
three plies with minimax (alpha-beta pruned, same result) on material only, using the course's
``get_legal_actions`` for every node. Ties between equally good moves are broken at random.

Run it like any course player, e.g. ``xqdesk match --red builtin --black player:bench/minimax_student``.
"""
import random

from utils import get_legal_actions

PIECE_VALUES = {1: 1.0, 2: 2.0, 3: 2.0, 4: 4.0, 5: 4.5, 6: 9.0, 7: 1000.0}
SEARCH_DEPTH = 3
WIN = 100000.0


def other_side(side):
    return "black" if side == "red" else "red"


def material(board, side):
    """Material balance from ``side``'s point of view."""
    total = 0.0
    for row in board:
        for code in row:
            if code:
                value = PIECE_VALUES[abs(code)]
                total += value if code > 0 else -value
    return total if side == "red" else -total


class Player:
    def __init__(self, side: str):
        self.side = side
        self.history = []
        self.name = "Minimax depth 3"

    def policy(self, board: tuple):
        work = tuple(list(row) for row in board)
        actions = get_legal_actions(work, self.side, self.history)
        best_score = -WIN * 10
        best_actions = []
        alpha = -WIN * 10
        for action in actions:
            self.move(work, *action)
            score = -self.negamax(work, SEARCH_DEPTH - 1, other_side(self.side), -WIN * 10, -alpha + 1e-9)
            self.move_back(work, *action)
            if score > best_score:
                best_score, best_actions = score, [action]
            elif score == best_score:
                best_actions.append(action)
            alpha = max(alpha, score)
        return random.choice(best_actions)

    def negamax(self, board, depth, side, alpha, beta):
        if depth == 0:
            return material(board, side)
        actions = get_legal_actions(board, side, self.history)
        if not actions:
            return -WIN - depth  # no legal move: this side loses (sooner is worse)
        best = -WIN * 10
        for action in actions:
            self.move(board, *action)
            score = -self.negamax(board, depth - 1, other_side(side), -beta, -alpha)
            self.move_back(board, *action)
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def move(self, board, old_x, old_y, new_x, new_y):
        captured = board[new_x][new_y]
        board[new_x][new_y] = board[old_x][old_y]
        board[old_x][old_y] = 0
        self.history.append((old_x, old_y, new_x, new_y, captured))

    def move_back(self, board, old_x, old_y, new_x, new_y):
        *_, captured = self.history.pop()
        board[old_x][old_y] = board[new_x][new_y]
        board[new_x][new_y] = captured

    def update_history(self, current_game_history: list):
        self.history = current_game_history

    def get_name(self):
        return self.name
