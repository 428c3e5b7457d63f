"""The course's play_headless_game on Player instances, and the forked game that makes its clock
safe; fight() on player folders."""
import importlib.util
import shutil
import sys
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

import xqdesk.compat
from xqdesk.board import Board
from xqdesk.compat import fight, play_headless_game
from xqdesk.engines.play.course_seat import CoursePlayerSeat
from xqdesk.engines.play.forked_game import play_forked
from xqdesk.move import Move
from xqdesk.outcome import Termination

PLAYERS = Path(__file__).parent / "players"


@pytest.fixture
def load_player(monkeypatch):
    """Import a zoo player's module in this process, with xqdesk.compat as its ``utils``."""
    monkeypatch.setitem(sys.modules, "utils", xqdesk.compat)

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"zoo_{name}", PLAYERS / name / "player.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.Player

    return load


def test_headless_game_without_clock_plays_to_the_end(load_player):
    player = load_player("ordinary")
    winner, text, history = play_headless_game(player("red"), player("black"))
    assert winner in ("red", "black", "draw")
    board = Board()
    for entry in history:
        board.push_legal(Move.from_course(entry))
    assert board.course_history() == history
    assert board.outcome() is not None and board.outcome().text == text


def test_headless_game_judges_faults_like_the_course(load_player):
    winner, text, history = play_headless_game(load_player("returns_none")("red"), load_player("ordinary")("black"))
    assert (winner, history) == ("black", [])
    assert text == "Red moves illegally, Black wins! (policy returned None, not a sequence of four integers)"
    winner, text, _ = play_headless_game(load_player("ordinary")("red"), load_player("raises")("black"), timeout=True)
    assert winner == "red" and text.startswith("Black moves illegally, Red wins! (policy raised ValueError: boom")


def test_numpy_and_list_actions_are_judged_by_value(load_player):
    numpy_player, list_player = load_player("numpy_ints"), load_player("returns_list")
    winner, text, history = play_headless_game(numpy_player("red"), list_player("black"))
    assert "illegally" not in text and len(history) > 10
    assert all(type(value) is int for entry in history for value in entry)


def test_forked_game_times_out_a_runaway_player_and_leaves_nothing(load_player):
    started = time.monotonic()
    outcome, history = play_forked(CoursePlayerSeat(load_player("loops")("red")),
                                   CoursePlayerSeat(load_player("ordinary")("black")), move_time_limit=0.5)
    assert outcome.termination is Termination.TIMEOUT and outcome.text == "Red timeout, Black wins!"
    assert history == [] and time.monotonic() - started < HANG_GUARD  # the 0.5 s clock ran out, not never


def test_forked_game_survives_a_player_that_ends_the_process(load_player):
    outcome, history = play_forked(CoursePlayerSeat(load_player("ordinary")("red")),
                                   CoursePlayerSeat(load_player("hard_exits")("black")), move_time_limit=1.0)
    assert len(history) == 1
    assert outcome.text == ("Black moves illegally, Red wins! "
                            "(the game's process exited with code 4 during the player's move)")


@pytest.mark.slow
def test_fight_plays_the_course_match_of_two_folders(tmp_path):
    for player_id, zoo_name in ((4, "ordinary"), (9, "raises")):
        shutil.copytree(PLAYERS / zoo_name, tmp_path / f"player_{player_id}")
        (tmp_path / f"player_{player_id}" / "player.py").rename(tmp_path / f"player_{player_id}" / f"player_{player_id}.py")
    match = fight(4, 9, players_dir=str(tmp_path), out_dir=str(tmp_path), move_time_limit=2.0)
    assert match.winner_id == 4 and match.wins_i == 6
    assert (tmp_path / "Player 4 VS Player 9" / "summary.txt").read_bytes().endswith(
        b"Finally Player 4 wins and Player 9 loses!")
