"""The score graph: scores from Red's view, a squashed scale, clicks that pick a ply."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from xqdesk.pieces import BLACK, RED
from xqdesk.score import Cp, Mate, PovScore
from xqdesk.ui.analysis.score_graph import MATE_PAWNS, ScoreGraph, red_view_pawns, squash


def test_scores_turn_to_reds_view_and_squash_into_the_graph():
    assert red_view_pawns(PovScore(Cp(150), RED)) == 1.5
    assert red_view_pawns(PovScore(Cp(150), BLACK)) == -1.5
    assert red_view_pawns(PovScore(Mate(2), BLACK)) == -999.98
    assert red_view_pawns(PovScore(Mate(-3), RED)) == -999.97
    assert red_view_pawns(PovScore(Mate(0), BLACK)) == MATE_PAWNS
    values = [squash(p) for p in (-MATE_PAWNS, -3.0, -0.5, 0.0, 0.5, 3.0, MATE_PAWNS)]
    assert values == sorted(values) and values[0] == -1.0 and values[-1] == 1.0 and values[3] == 0


def test_clicking_the_graph_asks_for_the_ply_under_the_mouse(qtbot):
    graph = ScoreGraph()
    qtbot.addWidget(graph)
    graph.resize(408, 100)
    graph.show()
    qtbot.waitExposed(graph)
    for ply, pawns in enumerate([0.1, 0.3, -0.2, 1.0, 2.5]):
        graph.set_score(ply, pawns)
    graph.set_score(4, -0.4, series=1)
    graph.set_current_ply(2)
    assert graph.ply_count == 5
    assert not graph.grab().isNull()
    with qtbot.waitSignal(graph.ply_clicked, timeout=1000) as clicked:
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(404, 50))
    assert clicked.args == [4]
    with qtbot.waitSignal(graph.ply_clicked, timeout=1000) as clicked:
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(4, 50))
    assert clicked.args == [0]
    graph.set_ply_count(3)
    assert set(graph.scores(0)) == {0, 1, 2} and graph.scores(1) == {}
    graph.clear()
    assert graph.ply_count == 0 and graph.scores() == {}


def test_the_graph_draws_its_scale_lines_to_read_the_curve_by(qtbot):
    graph = ScoreGraph()
    qtbot.addWidget(graph)
    graph.resize(400, 200)
    image = graph.grab().toImage()
    base = graph.palette().base().color().rgb()
    for pawns in (3.0, 1.0, -1.0, -3.0):
        y = round(graph._y(pawns, graph._plot_rect()))
        marked = max(sum(image.pixelColor(x, row).rgb() != base for x in range(60, 340)) for row in (y - 1, y, y + 1))
        assert marked > 50, f"no scale line at {pawns:+} pawns"
    graph.resize(400, graph.minimumHeight())  # as short as it gets, the scale lines stay apart
    rect = graph._plot_rect()
    rows = [graph._y(pawns, rect) for pawns in (3.0, 1.0, 0.0, -1.0, -3.0)]
    assert all(lower - upper >= 6 for upper, lower in zip(rows, rows[1:])), rows


def test_the_legend_never_covers_the_red_ahead_label(qtbot):
    """Two long engine names in a graph as narrow as the engine dock's on a laptop: the legend
    moves below "Red ahead ↑" rather than over it."""
    from PySide6.QtCore import QRectF

    graph = ScoreGraph()
    qtbot.addWidget(graph)
    graph.set_series_names(["Fairy-Stockfish 11.1 LB 64 (xiangqi)", "ElephantEye 3.31 by Morning Yellow"])
    graph.resize(320, 150)
    plot, metrics = graph._plot_rect(), graph.fontMetrics()
    width = metrics.horizontalAdvance("Red ahead ↑")
    label = QRectF(plot.right() - 2 - width, plot.top(), width, metrics.height())
    assert graph.legend_rects() and not any(rect.intersects(label) for rect in graph.legend_rects())
