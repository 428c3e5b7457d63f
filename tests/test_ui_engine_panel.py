"""The engine panel with real engines: two analysing side by side, following the moves."""
from __future__ import annotations

import os

import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt

from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.pieces import BLACK, RED
from xqdesk.score import Cp, Mate, PovScore
from xqdesk.ui.analysis.engine_panel import EnginePanel
from xqdesk.ui.analysis.engine_view import count_text, pv_text, score_text
from xqdesk.ui.base.settings import EngineKind, EngineProfile, ScoreView

FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK), reason="fairy-stockfish is not installed")


@pytest.fixture
def panel(qtbot):
    widget = EnginePanel()
    qtbot.addWidget(widget)
    yield widget
    widget.shutdown()


def test_scores_are_shown_from_the_chosen_view():
    assert score_text(PovScore(Cp(35), RED), ScoreView.RED, RED) == "+0.35"
    assert score_text(PovScore(Cp(35), BLACK), ScoreView.RED, BLACK) == "-0.35"
    assert score_text(PovScore(Cp(35), BLACK), ScoreView.MOVER, BLACK) == "+0.35"
    assert score_text(PovScore(Mate(3), BLACK), ScoreView.RED, BLACK) == "#-3"
    assert score_text(PovScore(Mate(3), BLACK), ScoreView.MOVER, BLACK) == "#3"
    assert score_text(None, ScoreView.RED, RED) == ""
    assert count_text(950) == "950" and count_text(12_345) == "12.3k" and count_text(4_560_000) == "4.56M"


def test_a_pv_is_written_in_the_notation_and_cut_at_an_illegal_move():
    board = Board()
    pv = [Move.from_iccs("h2e2"), Move.from_iccs("h9g7"), Move.from_iccs("a0a5")]
    assert pv_text(board, pv, Notation.CHINESE) == "炮二平五 马８进７"
    assert pv_text(board, pv[:2], Notation.ICCS) == "h2e2 h9g7"


@needs_fairy
def test_analysis_with_two_engines_shows_both_and_follows_the_moves(qtbot, panel):
    panel.set_engines([
        EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY).to_spec(),
        EngineProfile("Built-in", EngineKind.BUILTIN, level=2).to_spec(),
    ])
    panel.set_notation(Notation.WXF)
    candidates = {}
    panel.candidates_changed.connect(lambda index, moves: candidates.__setitem__(index, moves))
    panel.start_analysis()
    assert panel.is_analysing()
    left, right = panel.views
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=HANG_GUARD_MS)
    assert "Fairy" in left.engine_name and right.engine_name
    assert left.isVisibleTo(panel) and right.isVisibleTo(panel)
    assert left.row_texts()[0][3] and right.row_texts()[0][3]

    after = (Move.from_iccs("h2e2"),)
    panel.set_position(STARTING_FEN, after)
    board = Board()
    board.push(after[0])
    black_replies = {f"{text}" for text in (pv_text(board, [m], Notation.WXF) for m in board.legal_moves)}
    qtbot.waitUntil(lambda: bool(left.row_texts() and right.row_texts()), timeout=HANG_GUARD_MS)
    for view in panel.views:
        assert view.row_texts()[0][3].split()[0] in black_replies
    assert set(panel.graph.scores(0)) >= {0, 1} and set(panel.graph.scores(1)) >= {0, 1}
    qtbot.waitUntil(lambda: all(candidates.get(i) and candidates[i][0] in board.legal_moves for i in (0, 1)),
                    timeout=HANG_GUARD_MS)

    panel.stop_analysis()
    assert not panel.is_analysing()
    qtbot.waitUntil(lambda: left.state == "Ready" and right.state == "Ready", timeout=HANG_GUARD_MS)


@needs_fairy
def test_more_lines_give_more_rows(qtbot, panel):
    panel.set_engines([EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY).to_spec()])
    assert not panel.views[1].isVisibleTo(panel)
    panel.set_lines(3)
    panel.start_analysis(0)
    qtbot.waitUntil(lambda: len(panel.views[0].row_texts()) == 3, timeout=HANG_GUARD_MS)
    assert [row[0] for row in panel.views[0].row_texts()] == ["1", "2", "3"]


def test_an_engine_that_fails_says_why(qtbot, panel, tmp_path):
    panel.set_engines([EngineProfile("ghost", EngineKind.UCI, str(tmp_path / "missing-engine")).to_spec()])
    qtbot.waitUntil(lambda: "missing-engine" in panel.views[0].state_label.text(), timeout=HANG_GUARD_MS)
    panel.start_analysis()
    assert not panel.is_analysing()


@needs_fairy
def test_analysis_keeps_the_engine_to_moves_the_course_allows(qtbot, panel):
    """Where the course's perpetual-check rule bans moves, the engine searches only the rest."""
    import json

    vectors = COURSE_VECTORS
    with vectors.open(encoding="utf-8") as lines:
        vector = next(v for v in map(json.loads, lines) if v["banned"])
    board = Board.from_course(vector["board"], vector["side"], [tuple(h) for h in vector["history"]])
    banned = set(board.banned_moves())
    assert banned
    panel.set_engines([EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY).to_spec()])
    panel.set_position(board.start_fen, board.move_stack)
    panel.set_lines(3)
    panel.start_analysis()
    view = panel.views[0]
    qtbot.waitUntil(lambda: len(view.row_texts()) == 3, timeout=HANG_GUARD_MS)
    qtbot.waitUntil(lambda: "searchmoves" in view.log_view.toPlainText(), timeout=HANG_GUARD_MS)
    assert not banned & {row.pv[0] for row in view.progress.rows}


@needs_fairy
def test_an_engine_playing_a_seat_is_shown_but_not_driven_by_the_panel(qtbot, panel):
    from xqdesk.engines.search_types import SearchLimits
    from xqdesk.ui.engines.engine_worker import EngineWorker

    seat = EngineWorker(EngineProfile("Fairy-Stockfish", EngineKind.UCI, FAIRY).to_spec())
    seat.start()
    try:
        panel.attach(0, seat)
        view = panel.views[0]
        assert not view.start_button.isEnabled()
        panel.start_analysis()
        assert not panel.is_analysing() and seat.current_request is None
        with qtbot.waitSignal(seat.best_move, timeout=HANG_GUARD_MS):
            seat.search(STARTING_FEN, [], SearchLimits(movetime=0.3))
        assert view.row_texts() and view.figures_text()
        panel.detach(0)
        assert seat.is_running()  # the panel leaves a worker it does not own running
    finally:
        seat.shutdown()


def test_three_lines_fit_or_scroll_in_a_short_panel(qtbot, panel):
    """In a short dock (a laptop) the MultiPV table shows its lines, or scrolls to them: never a
    line cut off with no way to see it."""
    from xqdesk.engines.search_types import SearchInfo
    from xqdesk.ui.engines.engine_worker import SearchProgress

    panel.show()
    qtbot.waitExposed(panel)
    panel.graph.set_score(0, 0.2)  # something to say: the panel unfolds
    view = panel.views[0]
    view.set_engine_name("Lines")
    rows = tuple(SearchInfo(depth=12, score=PovScore(Cp(20 * line), RED), pv=(Move.from_iccs("h2e2"),),
                            multipv=line) for line in (1, 2, 3))
    view.show_progress(SearchProgress(1, rows, rows[0]))
    table = view.lines_table
    for height in (150, 190, 260):
        panel.resize(900, height)
        qtbot.waitUntil(lambda h=height: panel.height() == h, timeout=5000)
        qtbot.wait(50)  # the layout settles
        scroll = table.verticalScrollBar()
        last = table.visualItemRect(table.item(2, 0))
        all_shown = last.bottom() <= table.viewport().height()
        assert all_shown or (scroll.isVisible() and scroll.maximum() > 0), height
        table.scrollToItem(table.item(2, 0))
        assert table.visualItemRect(table.item(2, 0)).bottom() <= table.viewport().height() + 1
    assert [row[1] for row in view.row_texts()] == ["+0.20", "+0.40", "+0.60"]


def test_with_nothing_to_say_the_panel_folds_to_one_line_and_offers_analysis(qtbot, panel):
    """Replaying a game with no engine: the panel folds to a line with an *Analysis* button and
    caps its height (a dock holding it gives the height back); an engine or a score unfolds it."""
    from xqdesk.ui.engines.engine_worker import EngineWorker

    panel.show()
    qtbot.waitExposed(panel)
    folds = []
    panel.occupied_changed.connect(folds.append)
    assert not panel.is_occupied()
    assert panel.idle_bar.isVisible() and not panel.splitter.isVisible()
    assert panel.maximumHeight() <= 2 * panel.analysis_button.sizeHint().height()
    with qtbot.waitSignal(panel.analysis_requested, timeout=HANG_GUARD_MS):
        qtbot.mouseClick(panel.analysis_button, Qt.MouseButton.LeftButton)

    worker = EngineWorker(EngineProfile("Built-in", EngineKind.BUILTIN, level=1).to_spec())
    panel.attach(0, worker, owned=True)
    assert panel.is_occupied() and panel.splitter.isVisible() and not panel.idle_bar.isVisible()
    assert panel.maximumHeight() > 1000
    panel.detach(0)
    assert not panel.is_occupied() and panel.idle_bar.isVisible()

    panel.graph.set_score(3, -0.5)  # a game's scores (a review, a finished engine game) stay on show
    assert panel.is_occupied() and panel.graph.isVisible()
    panel.graph.clear()
    assert not panel.is_occupied()
    assert folds == [True, False, True, False]


def test_the_nps_comes_from_nodes_and_time_sent_on_separate_lines():
    from xqdesk.engines.transport.ucci import parse_info
    from xqdesk.ui.engines.engine_worker import _ProgressThrottle

    throttle = _ProgressThrottle(1)
    throttle.add(parse_info("info depth 6 score 20 pv h2e2 h9g7", RED))
    throttle.add(parse_info("info nodes 50000", RED))
    throttle.add(parse_info("info time 200", RED))
    progress = throttle.take()
    assert progress is not None and progress.latest.nps == 250000 and progress.latest.depth == 6
