"""The fog-of-war window, driven like a person: a whole game against fog-pbsa in the real main
window, seeing only Red's view while it lasts; then the fog lifts and the game replays from
either side's view or the full board; and two agents watched with a choice of view."""
import random

import pytest
from PySide6.QtCore import Qt

from xqdesk import BLACK, RED
from xqdesk.engines.fog.baselines import general_capture
from xqdesk.ui.base.i18n import Language, set_language, tr
from xqdesk.variants.fog import observe, start_board

pytestmark = pytest.mark.engines

GAME_TIMEOUT_MS = 240_000


def unseen(board, side):
    return {sq for sq, cell in enumerate(observe(board, side).cells) if cell is None}


def click(qtbot, view, square):
    point = view.square_center(square).toPoint()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point)


def test_a_person_plays_a_fog_game_against_pbsa_in_the_window(window, qtbot):
    window.action("Fog of war…").trigger()
    fog = window.windows.fog_window
    assert fog is not None and fog.isVisible()
    fog.seat_choice.setCurrentIndex(0)  # play Red
    fog.black_agent.setCurrentText("fog-pbsa")
    fog.move_time.setValue(1)
    fog.start()
    board_view = fog.board_view
    rng = random.Random(11)
    for _ in range(80):
        qtbot.waitUntil(lambda: fog.outcome() is not None or board_view.movable_colors() == {RED},
                        timeout=GAME_TIMEOUT_MS)
        if fog.outcome() is not None:
            break
        board = board_view.board()
        assert board_view.fog() == unseen(board, RED)  # the person sees only Red's view
        assert not fog.view_choice.isEnabled()
        view = observe(board, RED)
        captures = [move for move in view.moves if view.cells[move.to_square]]
        move = general_capture(view) or (rng.choice(captures) if captures else rng.choice(view.moves))
        played = len(fog.moves())
        click(qtbot, board_view, move.from_square)
        click(qtbot, board_view, move.to_square)
        qtbot.waitUntil(lambda: len(fog.moves()) > played or fog.outcome() is not None, timeout=GAME_TIMEOUT_MS)  # noqa: B023 (waited for within this iteration)
    qtbot.waitUntil(lambda: fog.outcome() is not None, timeout=GAME_TIMEOUT_MS)
    outcome = fog.outcome()
    assert outcome.winner is not None or "draw" in outcome.text
    assert board_view.fog() is None and fog.view_side() is None  # the fog lifts at the end
    assert fog.view_choice.isEnabled() and not fog.is_playing()
    final = start_board()
    for move in fog.moves():
        final.push(move)
    assert final.outcome() == outcome
    assert fog.status.text() == outcome.text

    fog.set_view(BLACK)  # replay from Black's view
    fog.step(-len(fog.moves()))
    fog.step(3)
    at_three = start_board()
    for move in fog.moves()[:3]:
        at_three.push(move)
    assert fog.ply() == 3 and board_view.fog() == unseen(at_three, BLACK)
    assert board_view.board().fen() == at_three.fen() and board_view.is_flipped()
    fog.set_view(RED)
    assert board_view.fog() == unseen(at_three, RED)
    fog.set_view(None)
    assert board_view.fog() is None


def test_two_agents_are_watched_with_a_choice_of_view(window, qtbot):
    fog = window.windows.open_fog()
    fog.seat_choice.setCurrentIndex(2)
    fog.red_agent.setCurrentText("fog-greedy")
    fog.black_agent.setCurrentText("fog-random")
    fog.move_time.setValue(1)
    seen = []  # while the agents start, the window says which one and how far (a progress bar)
    fog.agents_starting.connect(lambda done, total, name: seen.append(
        (done, total, name, fog.status.text(), fog.start_progress.isVisible())))
    fog.start()
    qtbot.waitUntil(lambda: len(fog.moves()) >= 2 or fog.outcome() is not None, timeout=GAME_TIMEOUT_MS)
    assert [(done, total, name) for done, total, name, _text, _bar in seen] == [
        (0, 2, "fog-greedy"), (1, 2, "fog-random"), (2, 2, "")]
    assert seen[0][3].startswith("Starting the agents… Red: fog-greedy (0 of 2 ready, ") and seen[0][4]
    assert seen[1][3].startswith("Starting the agents… Black: fog-random (1 of 2 ready, ")
    assert not seen[2][4] and not fog.start_progress.isVisible()
    assert fog.view_choice.isEnabled()
    fog.set_view(BLACK)
    assert fog.board_view.fog() == unseen(fog.board_view.board(), BLACK)
    assert fog.board_view.movable_colors() == frozenset()
    qtbot.waitUntil(lambda: fog.outcome() is not None, timeout=GAME_TIMEOUT_MS)
    assert fog.outcome().winner == RED  # greedy beats random


def test_the_fog_window_speaks_chinese(window, qtbot):
    fog = window.windows.open_fog()
    set_language(Language.CHINESE)
    try:
        assert fog.windowTitle() == tr("Fog of war") == "暗棋（战争迷雾）"
        assert fog.view_choice.itemText(2) == "全盘"
    finally:
        set_language(Language.ENGLISH)
    assert fog.view_choice.itemText(2) == "Full board"
