"""Variations and comments in the window: the comment pane shows and edits the viewed move's
comment (saved with the game), the variations pane steps into a recorded variation and back, and a
different move in analysis becomes a new variation instead of cutting the main line."""
from __future__ import annotations

import pytest
from datafiles import DATA
from PySide6.QtCore import Qt
from window_files import open_file

from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.ui.base.i18n import Language
from xqdesk.ui.game.game_controller import Mode

pytestmark = pytest.mark.engines

UNIT_TEST_XQF = DATA / "games" / "xqf" / "cchess_UnitTest.xqf"
MAIN_LINE = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]


def iccs(moves: list[Move]) -> list[str]:
    return [move.iccs() for move in moves]


def click_row(qtbot, variation_list, row: int) -> None:
    widget = variation_list.list
    rect = widget.visualItemRect(widget.item(row))
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_comments_show_per_move_and_edits_are_saved_with_the_game(qtbot, window, tmp_path):
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    comment = window.comment_editor
    assert comment.text() == "棋局注解"  # the game's opening comment at the start
    window.controller.forward()
    assert comment.text() == "第一步红注解"
    assert window.move_list.current_text().startswith("炮二平五 ✎")
    window.controller.forward()
    assert comment.text() == ""
    comment.editor.setFocus()
    qtbot.keyClicks(comment.editor, "Solid reply")
    assert window.controller.game().mainline()[1].comment == "Solid reply"
    assert "✎" in window.move_list.current_text()
    window.controller.to_start()
    window.controller.go_to(2)
    assert comment.text() == "Solid reply"
    saved = tmp_path / "commented.pgn"
    assert window.files.save_to(saved)
    game = read_games(saved).games[0]
    assert game.mainline()[1].comment == "Solid reply"
    assert game.mainline()[0].comment == "第一步红注解" and len(game.variations) - 1 == 2


def test_the_variations_pane_steps_into_a_recorded_variation_and_back(qtbot, window):
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    panes = window.variation_list
    controller = window.controller
    assert panes.isVisibleTo(window)
    assert panes.texts() == ["1. 炮二平五 (this line)", "2. 炮八平五", "3. 炮二平六"]
    assert window.move_list.move_texts()[0] == "炮二平五"
    assert "(+2)" in window.move_list.table.item(0, 0).text()
    click_row(qtbot, panes, 2)
    assert controller.variation_depth() == 1 and controller.ply() == 1
    assert iccs(controller.line_moves())[:3] == ["h2d2", "h9g7", "h0g2"]
    assert window.move_list.move_texts()[0] == "炮二平六"
    assert panes.back_button.isVisibleTo(window) and not panes.list.isVisibleTo(window)
    controller.to_end()
    assert controller.ply() == 8
    qtbot.mouseClick(panes.back_button, Qt.MouseButton.LeftButton)
    assert controller.variation_depth() == 0 and controller.ply() == 0
    assert iccs(controller.line_moves()) == MAIN_LINE
    click_row(qtbot, panes, 0)  # the line's own move steps on
    assert controller.ply() == 1 and controller.variation_depth() == 0
    assert not panes.isVisibleTo(window)
    controller.to_start()  # the keyboard chooses too
    panes.list.setFocus()
    panes.list.setCurrentRow(1)
    qtbot.keyClick(panes.list, Qt.Key.Key_Return)
    assert controller.variation_depth() == 1 and iccs(controller.line_moves())[0] == "b2e2"
    controller.leave_variation()
    window.set_language(Language.CHINESE)
    controller.to_start()
    assert panes.texts()[0] == "1. 炮二平五（本线）"


def test_a_new_move_in_analysis_becomes_a_variation_and_keeps_the_main_line(qtbot, window):
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    controller = window.controller
    controller.set_mode(Mode.ANALYSIS)
    controller.go_to(2)
    assert controller.play_move(Move.from_iccs("b0c2"))
    assert controller.variation_depth() == 1
    assert iccs(controller.line_moves()) == ["h2e2", "h9g7", "b0c2"]
    assert controller.play_move(Move.from_iccs("i9h9"))  # goes on in the new variation
    assert iccs(controller.game().mainline_moves()) == MAIN_LINE
    variation = controller.game().mainline()[1].variations[1]
    assert iccs([node.move for node in [variation, *variation.mainline()]]) == ["b0c2", "i9h9"]
    controller.take_back()  # in analysis: the viewed move goes
    assert iccs(controller.line_moves()) == ["h2e2", "h9g7", "b0c2"]
    controller.take_back()  # the variation's first move: the whole variation goes
    assert controller.variation_depth() == 0 and controller.ply() == 2
    assert len(controller.game().mainline()[1].variations) == 1
    assert iccs(controller.game().mainline_moves()) == MAIN_LINE
    assert controller.play_move(Move.from_iccs("h0g2"))  # the recorded move just steps on
    assert controller.variation_depth() == 0 and controller.ply() == 3
    controller.to_start()
    assert controller.play_move(Move.from_iccs("b2e2"))  # a recorded variation's move enters it
    assert controller.variation_depth() == 1
    assert iccs(controller.line_moves())[:2] == ["b2e2", "b9c7"]


def test_a_mate_inside_a_variation_does_not_end_the_game(qtbot, window):
    controller = window.controller
    controller.new_game(Mode.ANALYSIS, start_fen="3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1")
    assert controller.play_move(Move.from_iccs("a8a7"))
    controller.to_start()
    with qtbot.waitSignal(controller.status_message, timeout=1000) as blocker:
        assert controller.play_move(Move.from_iccs("b0b9"))  # mate, as a variation
    assert "End of the variation" in blocker.args[0]
    assert controller.variation_depth() == 1 and controller.outcome() is None
    assert window.game_info.result_label.text() == ""


def test_the_move_list_menu_promotes_deletes_cuts_and_copies(qtbot, window):
    from PySide6.QtGui import QGuiApplication

    controller = window.controller
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    controller.set_mode(Mode.ANALYSIS)
    controller.go_to(2)
    assert controller.play_move(Move.from_iccs("b0c2"))  # a new variation at ply 3
    actions = window.move_list.context_actions()
    assert actions["Delete the variation"].isEnabled() and actions["Promote the variation to the main line"].isEnabled()
    main_before = controller.game().mainline_moves()
    actions["Promote the variation to the main line"].trigger()
    assert controller.game().mainline_moves() == main_before[:2] + [Move.from_iccs("b0c2")]
    assert controller.variation_depth() == 0
    controller.go_to(1)
    window.move_list.set_notation(Notation.ICCS)
    window.move_list.context_actions()["Copy the line from here"].trigger()
    assert QGuiApplication.clipboard().text() == "h9g7 b0c2"
    window.move_list.context_actions()["Cut the game from here"].trigger()
    assert len(controller.game()) == 1 and controller.length() == 1
    assert not window.move_list.context_actions()["Delete the variation"].isEnabled()


def click_tree_item(qtbot, tree, item) -> None:
    tree.tree.scrollToItem(item)
    rect = tree.tree.visualItemRect(item)
    qtbot.mouseClick(tree.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_the_variation_tree_shows_the_whole_tree_and_a_click_shows_any_move(qtbot, window):
    assert open_file(qtbot, window, UNIT_TEST_XQF)
    controller = window.controller
    tree = window.variation_tree
    window.moves_tabs.setCurrentWidget(tree)  # the tab beside the move list
    assert tree.isVisible()
    game = controller.game()
    main = game.mainline()
    assert len(tree.top_level_texts()) == len(main)
    assert tree.top_level_texts()[0] == "1. 炮二平五 ✎" and tree.top_level_texts()[1].startswith("1… ")
    first = tree.item_of(main[0])
    assert first.childCount() == 2  # the two alternatives to the first move, each a branch
    assert [first.child(row).text(0) for row in range(2)] == ["1. 炮八平五", "1. 炮二平六"]
    branch = game.variations[1]
    branch_item = tree.item_of(branch)
    assert branch_item is first.child(0)
    # a click on a move of a variation shows it: the viewed line is that variation
    target = branch_item.child(0) if branch_item.childCount() else branch_item
    click_tree_item(qtbot, tree, target)
    assert controller.variation_depth() == 1 and controller.node() is tree.current_node()
    assert tree.tree.currentItem() is target  # the same tree: nothing rebuilt for a click
    # and a main line move brings the main line back; stepping moves the selection along
    click_tree_item(qtbot, tree, tree.item_of(main[2]))
    assert controller.variation_depth() == 0 and controller.ply() == 3
    controller.forward()
    assert tree.current_node() is main[3]
    controller.to_start()
    assert tree.tree.currentItem() is None
    # a new variation played on the board appears in the tree at once
    controller.go_to(1)
    controller.set_mode(Mode.ANALYSIS)
    assert controller.play_move(Move.from_iccs("b9c7"))  # not the recorded 马８进７
    added = controller.node()
    assert tree.item_of(added) is not None and tree.item_of(added).parent() is tree.item_of(main[1])
    window.set_language(Language.CHINESE)
    assert window.moves_tabs.tabText(1) == "变着树"
