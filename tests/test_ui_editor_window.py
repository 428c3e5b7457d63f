"""The position editor in the real window: a position made by clicks starts a game that is played."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from xqdesk.move import Move
from xqdesk.pieces import CANNON, HORSE, KING, PAWN
from xqdesk.squares import parse_square

pytestmark = pytest.mark.engines


def test_the_editor_makes_a_position_and_starts_a_game_from_it(qtbot, window):
    window.starts.edit_position()
    editor = window.starts.position_editor.editor
    qtbot.waitExposed(editor)
    editor.clear_button.click()
    for code, name in ((KING, "e0"), (-KING, "d9"), (HORSE, "c4"), (CANNON, "e2"), (-PAWN, "f3")):
        editor.choose(code)
        point = editor.board.square_center(parse_square(name)).toPoint()
        qtbot.mouseClick(editor.board, Qt.MouseButton.LeftButton, pos=point)
    assert editor.is_valid(), editor.problems_label.text()
    fen = editor.fen()
    assert fen == "3k5/9/9/9/9/2N6/5p3/4C4/9/4K4 w - - 0 1"
    editor.start_button.click()
    assert window.starts.position_editor is None
    assert window.controller.board().fen() == fen
    assert window.controller.play_move(Move.from_iccs("c4d6"))
    assert window.controller.board().turn is False
    assert window.controller.play_move(Move.from_iccs("f3e3"))
    assert not window.controller.play_move(Move.from_iccs("e2e3")), "a cannon captures only over a screen"
    assert window.controller.length() == 2
