"""Engines in the real window: two engines analyse side by side and follow the moves played on
the board; their candidate moves are drawn as arrows."""
from __future__ import annotations

import os

import pytest

from xqdesk.move import Move
from xqdesk.ui.settings import EngineKind, EngineProfile

FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK), reason="fairy-stockfish is not installed")



@needs_fairy
def test_analysis_with_two_engines_shows_both_in_the_window(qtbot, window):
    window.start_analysis([EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY),
                           EngineProfile("Built-in", EngineKind.BUILTIN, level=3)])
    left, right = window.engine_panel.views
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=20000)
    assert "Fairy" in left.engine_name and right.engine_name
    qtbot.waitUntil(lambda: len(window.board_view.arrows()) >= 2, timeout=15000)

    assert window.controller.play_move(Move.from_iccs("h2e2"))
    board = window.controller.board()
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=20000)
    black_moves = {move for move in board.legal_moves}
    qtbot.waitUntil(lambda: bool(window.board_view.arrows())
                    and all(arrow.move in black_moves for arrow in window.board_view.arrows()), timeout=15000)
    assert window.engine_panel.is_analysing()
    window.stop_analysis()
    assert not window.engine_panel.is_analysing()
