"""Engines in the real window: two engines analyse side by side and follow the moves played on
the board; their candidate moves are drawn as arrows."""
from __future__ import annotations

import os

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.move import Move
from xqdesk.ui.base.settings import EngineKind, EngineProfile

pytestmark = pytest.mark.engines

FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK), reason="fairy-stockfish is not installed")



@needs_fairy
def test_analysis_with_two_engines_shows_both_in_the_window(qtbot, window):
    window.analysis.start([EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY),
                           EngineProfile("Built-in", EngineKind.BUILTIN, level=3)])
    left, right = window.engine_panel.views
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=HANG_GUARD_MS)
    assert "Fairy" in left.engine_name and right.engine_name
    qtbot.waitUntil(lambda: len(window.board_view.arrows()) >= 2, timeout=HANG_GUARD_MS)

    assert window.controller.play_move(Move.from_iccs("h2e2"))
    board = window.controller.board()
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=HANG_GUARD_MS)
    black_moves = {move for move in board.legal_moves}
    qtbot.waitUntil(lambda: bool(window.board_view.arrows())
                    and all(arrow.move in black_moves for arrow in window.board_view.arrows()), timeout=HANG_GUARD_MS)
    assert window.engine_panel.is_analysing()
    window.analysis.stop()
    assert not window.engine_panel.is_analysing()


def test_the_engine_log_pane_shows_the_lines_really_exchanged(qtbot, window):
    """The log is the transport's record: the handshake, the options, each position and go, and
    the engine's own info and bestmove lines, each with its time and direction."""
    window.engine_panel.set_lines(2)
    window.analysis.start([EngineProfile("Built-in", EngineKind.BUILTIN, level=3)])
    view = window.engine_panel.views[0]
    qtbot.waitUntil(lambda: bool(view.row_texts()), timeout=HANG_GUARD_MS)
    # the evaluation bar beside the board shows the engine's best score (Red's view)
    qtbot.waitUntil(lambda: window.eval_bar.score() is not None, timeout=HANG_GUARD_MS)
    best = view.progress.rows[0].score if view.progress.rows else view.progress.latest.score
    qtbot.waitUntil(lambda: window.eval_bar.score() == (view.progress.rows[0].score.red()
                                                        if view.progress.rows else best.red()), timeout=HANG_GUARD_MS)
    assert window.eval_bar.text() and 0.0 < window.eval_bar.red_share() < 1.0
    bar, geometry = window.eval_bar, window.board_view.geometry_model()  # in the board's left margin
    assert bar.parentWidget() is window.board_view and bar.isVisible()
    assert bar.geometry().right() < geometry.origin.x() - geometry.cell * 0.45  # clear of the edge pieces
    assert abs(bar.height() - 9 * geometry.cell) <= 1
    assert window.controller.play_move(Move.from_iccs("h2e2"))  # the analysis restarts: stop, bestmove, go
    qtbot.waitUntil(lambda: " < bestmove " in view.log_view.toPlainText()
                    and "moves h2e2" in view.log_view.toPlainText(), timeout=HANG_GUARD_MS)
    window.analysis.stop()
    lines = view.log_view.toPlainText().splitlines()
    exchanged = [line.split(" ", 1)[1] for line in lines if line[:2].isdigit()]
    for expected in ("> uci", "< uciok", "> setoption name Level value 3", "> setoption name MultiPV value 2",
                     "> isready", "< readyok", "> position fen ", "> go infinite", "< info depth ",
                     "> stop", "< bestmove "):
        assert any(line.startswith(expected) for line in exchanged), f"no {expected!r} line in {exchanged!r}"
    assert any(line.startswith("> position fen ") and line.endswith(" moves h2e2") for line in exchanged)
    assert any(" multipv 2 " in line for line in exchanged if line.startswith("< info"))
