"""Game -> Review game… in the real window: the review runs in the background with a progress bar,
its marks show on the score graph and in the move list with the better move, clicking a mark and
"Next mistake" step there, it can be cancelled, and a reviewed record shows its review when opened."""
from __future__ import annotations

import pytest
from hang_guard import HANG_GUARD_MS
from PySide6.QtCore import Qt
from test_review_engine import planted_blunder

from xqdesk.engines.analysis.reviewer import review_limits
from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.pieces import BLACK, RED
from xqdesk.review import MoveClass
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.review.review_dialog import ReviewDialog

pytestmark = pytest.mark.engines

BUILTIN = EngineProfile("Built-in", EngineKind.BUILTIN, level=20)
HUNG = 19
"""The ply of the planted chariot move."""


def test_a_review_marks_the_blunder_on_the_graph_and_in_the_move_list(qtbot, window):
    window.controller.load_game(planted_blunder())
    assert window.action("Review game…").isEnabled() and not window.action("Next mistake").isEnabled()
    worker = window.reviews.start(BUILTIN, review_limits(depth=3))
    assert worker is not None and window.reviews.progress.isVisible()
    assert window.action("Cancel review").isEnabled() and not window.action("Review game…").isEnabled()
    window.controller.go_to(5)  # the window stays usable while the engine works
    qtbot.waitUntil(lambda: window.reviews.worker is None, timeout=HANG_GUARD_MS)
    review = window.reviews.review
    assert review is not None and not window.reviews.progress.isVisible()
    assert review.moves[HUNG - 1].move_class is MoveClass.BLUNDER
    graph = window.score_graph
    assert graph.marks()[HUNG] is MoveClass.BLUNDER and len(graph.review_scores()) == 21
    cell = window.move_list._cells[HUNG - 1]
    assert "??" in cell.text() and "→" in cell.text() and "Better:" in cell.toolTip()
    # the review is in the game itself: NAG and better move, as the record will be saved
    node = window.controller.game().mainline()[HUNG - 1]
    assert 4 in node.nags and "[%best" in node.comment
    # the summary: each side's accuracy and counts, as the review says; a count steps to its move
    summary = window.review_summary
    assert summary.isVisible()
    for color in (RED, BLACK):
        side = review.summary(color)
        assert summary.accuracy_text(color) == f"{side.accuracy:.0f}%"
        for move_class in (MoveClass.INACCURACY, MoveClass.MISTAKE, MoveClass.BLUNDER):
            assert summary.count_text(color, move_class) == str(side.count(move_class))
    first_blunder = next(move.ply for move in review.moves if move.color == RED and move.move_class is MoveClass.BLUNDER)
    qtbot.mouseClick(summary.count_buttons[(RED, MoveClass.BLUNDER)], Qt.MouseButton.LeftButton)
    assert window.controller.ply() == first_blunder
    # the evaluation bar shows the review's score of the position on show: Red has hung a chariot
    window.controller.go_to(HUNG)
    assert window.eval_bar.score() == review.moves[HUNG - 1].after and window.eval_bar.red_share() < 0.5
    # the comment box shows the words only; editing them keeps the review's commands in the record
    editor = window.comment_editor
    assert editor.text() == "" and "[%" in node.comment
    editor.editor.setPlainText("The chariot hangs.")
    assert node.comment.startswith("[%eval") and "[%best" in node.comment
    assert node.comment.endswith(" The chariot hangs.") and editor.text() == "The chariot hangs."
    # "Next mistake" steps through the marks in order, then starts again
    window.controller.go_to(0)
    plies = [move.ply for move in review.errors()]
    seen = []
    for _ in plies:
        window.action("Next mistake").trigger()
        seen.append(window.controller.ply())
    assert seen == plies
    window.action("Next mistake").trigger()
    assert window.controller.ply() == plies[0]
    # from inside the better line (a variation), it goes back to the main line's next mark
    window.controller.go_to(HUNG - 1)
    window.controller.choose_alternative(1)
    assert window.controller.variation_depth() == 1
    window.action("Next mistake").trigger()
    assert window.controller.variation_depth() == 0 and window.controller.ply() == HUNG
    # clicking the mark goes to its move
    window.controller.go_to(0)
    qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=graph.mark_position(HUNG).toPoint())
    assert window.controller.ply() == HUNG
    # saved and opened again, the record shows the same review
    text = format_pgn(window.controller.game())
    marks = graph.marks()
    window.start_game(None, None)
    assert window.reviews.review is None and not graph.marks()
    window.controller.load_game(parse_pgn(text).games[0])
    assert window.reviews.review is not None and graph.marks() == marks
    assert "??" in window.move_list._cells[HUNG - 1].text()


def test_a_review_can_be_cancelled_and_stores_nothing(qtbot, window):
    window.controller.load_game(planted_blunder())
    window.reviews.start(BUILTIN, review_limits(movetime=5.0))
    qtbot.waitUntil(lambda: window.reviews.progress.bar.value() >= 0, timeout=HANG_GUARD_MS)
    window.reviews.progress.cancel_button.click()
    qtbot.waitUntil(lambda: window.reviews.worker is None, timeout=HANG_GUARD_MS)
    assert window.reviews.review is None and "Review cancelled" in window.statusBar().currentMessage()
    assert not any("[%eval" in node.comment for node in window.controller.game().mainline())


def test_the_review_dialog_gives_engine_limits_and_sides(qtbot):
    dialog = ReviewDialog((BUILTIN,))
    qtbot.addWidget(dialog)
    assert dialog.engine() == BUILTIN and dialog.sides() == (RED, BLACK)
    dialog.movetime_box.setValue(0.2)
    assert dialog.limits().movetime == 0.2 and dialog.limits().depth is None
    dialog.by_depth.setChecked(True)
    dialog.depth_box.setValue(6)
    assert dialog.limits().depth == 6 and dialog.limits().movetime is None
    assert not dialog.movetime_box.isEnabled()
    dialog.sides_box.setCurrentIndex(2)
    assert dialog.sides() == (BLACK,)


def test_every_engine_choice_names_and_describes_the_engines_alike(qtbot):
    """The review, analysis and new-game dialogs offer engines through one box: a built-in level
    by its translated name with its measured strength as the tooltip; the analysis dialog keeps
    the engines already chosen."""
    from xqdesk.ui.game.seat_dialogs import BUILTIN_PROFILES, AnalysisEnginesDialog, NewGameDialog, engine_strength

    level_3 = next(profile for profile in BUILTIN_PROFILES if profile.level == 3)
    review = ReviewDialog(BUILTIN_PROFILES)
    analysis = AnalysisEnginesDialog(BUILTIN_PROFILES, [level_3, BUILTIN_PROFILES[0]])
    new_game = NewGameDialog(BUILTIN_PROFILES, "10s", "none", 0.0, can_continue=False)
    for dialog in (review, analysis, new_game):
        qtbot.addWidget(dialog)
    boxes = {"review": review.engine_box, "first": analysis.first_box, "second": analysis.second_box,
             "red": new_game.red_box}
    for name, box in boxes.items():
        found = box.findData(level_3)
        assert found >= 0, name
        assert box.itemText(found) == "Built-in level 3", name
        assert box.itemData(found, Qt.ItemDataRole.ToolTipRole) == engine_strength(level_3) != "", name
    assert analysis.engines() == [level_3, BUILTIN_PROFILES[0]]
    assert new_game.red_box.itemData(0) is None and analysis.second_box.itemData(0) is None
    assert review.engine_box.itemData(0) == BUILTIN_PROFILES[0]
    assert all(engine_strength(profile) for profile in BUILTIN_PROFILES)  # every offered level is measured
