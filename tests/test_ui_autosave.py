"""The autosave under fast play: nothing older than a second is lost, even when the game changes
faster than the autosave's debounce delay (engines moving every 0.05 s), and even under kill -9."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.ui.base.settings import EngineKind, EngineProfile
from xqdesk.ui.game.game_controller import Mode
from xqdesk.ui.record.autosave import AUTOSAVE_DELAY_MS, AUTOSAVE_MAX_WAIT_MS

pytestmark = pytest.mark.engines

PLAYERS = Path(__file__).parent / "players"
ORDINARY = EngineProfile("Ordinary", EngineKind.PLAYER, str(PLAYERS / "ordinary"))
SLACK = 0.7
"""Seconds a loaded machine may add to the autosave's one-second bound, beyond how late the event
loop was measured to run (a timer cannot fire while the loop is held up)."""


SHUFFLE = ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "h7h3", "b2a2", "c6c5",
           "a2b2", "c5c4", "b2a2", "c4c3", "a2b2", "c3c2", "b2a2", "c2c1", "a2b2", "c1c0")
"""20 legal moves from the start."""


def saved_moves(path: Path) -> int:
    if not path.is_file():
        return 0
    record = read_games(path)
    return sum(1 for _ in record.games[0].mainline_moves()) if record.games else 0


def test_changes_faster_than_the_debounce_are_still_saved_every_second(qtbot, window, tmp_path):
    assert AUTOSAVE_DELAY_MS < AUTOSAVE_MAX_WAIT_MS <= 1000
    window.start_game(None, None)
    writes: list[float] = []
    original = window.files.autosave.write_now

    def counting() -> None:
        writes.append(time.monotonic())
        original()

    window.files.autosave._timer.timeout.disconnect()
    window.files.autosave._deadline.timeout.disconnect()
    window.files.autosave._timer.timeout.connect(counting)
    window.files.autosave._deadline.timeout.connect(counting)
    started = time.monotonic()
    late = 0.0  # how late the event loop itself ran: a busy machine delays every timer by this much
    for text in SHUFFLE:
        window.controller.play_move(Move.from_iccs(text)) or window.files.autosave.schedule()
        late = max(late, waited(qtbot, AUTOSAVE_DELAY_MS // 2))  # always sooner than the debounce delay
    # 20 changes 0.15 s apart: the debounce alone would not have fired once.
    assert writes, "no autosave while the game kept changing"
    bound = AUTOSAVE_MAX_WAIT_MS / 1000 + SLACK + late
    assert writes[0] - started <= bound
    assert all(later - earlier <= bound for earlier, later in zip(writes, writes[1:]))


def test_a_game_changing_faster_than_the_writing_thread_reads_it_is_still_saved(qtbot, window, tmp_path,
                                                                                monkeypatch):
    """A machine so busy that the writing thread takes longer to read the game (0.25 s, here by a
    pause) than the game takes to change (a move every 0.15 s): every write it starts is overtaken
    by a move, so the window's thread writes the game out instead, and nothing older than the
    bound is lost. The real PGN writer runs; off the window's thread it is only made late."""
    import threading

    import xqdesk.formats.pgn as pgn

    writer = pgn.format_pgn

    def late_off_the_window_thread(*args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.25)
        return writer(*args, **kwargs)

    monkeypatch.setattr(pgn, "format_pgn", late_off_the_window_thread)
    autosave = tmp_path / "autosave.pgn"
    window.controller.new_game(Mode.ANALYSIS)
    made: list[tuple[float, int]] = []
    checked, late = 0, 0.0
    for text in SHUFFLE:
        assert window.controller.play_move(Move.from_iccs(text)), text
        made.append((time.monotonic(), window.controller.length()))
        late = max(late, waited(qtbot, 150))
        now, saved = time.monotonic(), saved_moves(autosave)
        due = [length for made_at, length in made if made_at <= now - (AUTOSAVE_MAX_WAIT_MS / 1000 + SLACK + late)]
        if due:
            checked += 1
            assert saved >= max(due), f"the autosave holds {saved} moves, {max(due)} were made over a second ago"
    assert checked >= 5, f"only {checked} checks came a second after a move"


def waited(qtbot, milliseconds: int) -> float:
    """Run the event loop for ``milliseconds``; the seconds it overran them by (the machine's load)."""
    started = time.monotonic()
    qtbot.wait(milliseconds)
    return max(0.0, time.monotonic() - started - milliseconds / 1000)


def test_fast_engine_vs_engine_autosave_is_at_most_a_second_behind(qtbot, window, tmp_path):
    autosave = tmp_path / "autosave.pgn"
    controller = window.controller
    controller.live.configure(replace(controller.live.settings, engine_delay=0.05))
    made: list[tuple[float, int]] = []
    controller.move_made.connect(lambda _move: made.append((time.monotonic(), controller.length())))
    checked, late = 0, 0.0
    started = time.monotonic()

    def playing_on() -> bool:  # at least 6 s and 10 checks (a busy machine makes fewer moves a second)
        now = time.monotonic()
        return now < started + HANG_GUARD and (now < started + 6.0 or checked < 10)

    while playing_on():  # game after game (a random game may end quickly)
        made.clear()
        controller.new_game(Mode.ENGINE_VS_ENGINE, red=ORDINARY, black=ORDINARY)
        while playing_on() and controller.outcome() is None:
            late = max(late, waited(qtbot, 50))
            if controller.outcome() is not None:
                break  # the game is over: its end is saved anyway
            now, saved = time.monotonic(), saved_moves(autosave)
            late = max(late, time.monotonic() - now)  # reading the file holds the event loop up too
            bound = AUTOSAVE_MAX_WAIT_MS / 1000 + SLACK + late  # the timers run no sooner than the event loop
            due = [length for made_at, length in made if made_at <= now - bound]
            if due:
                checked += 1
                assert saved >= max(due), f"the autosave holds {saved} moves, {max(due)} were made over a second ago"
    controller.new_game(Mode.PERSON_VS_PERSON)  # stops both engines
    assert checked >= 10, f"only {checked} polls came a second after a move during play"


DRIVER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {players!r})
    from xqdesk.ui.app import ensure_application, watch_game_window, run_window
    import importlib.util
    import xqdesk.compat
    sys.modules["utils"] = xqdesk.compat  # what the host gives a player without a utils.py
    spec = importlib.util.spec_from_file_location("player", {player!r})
    module = importlib.util.module_from_spec(spec)
    sys.modules["player"] = module
    spec.loader.exec_module(module)
    ensure_application()
    window = watch_game_window(module.Player("red"), module.Player("black"), 0.05)
    window.controller.move_made.connect(lambda _move: print(window.controller.length(), flush=True))
    run_window(window)
""")


def test_kill_9_during_a_fast_engine_game_loses_at_most_the_last_second(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(Path(__file__).parent.parent))
    script = DRIVER.format(players=str(PLAYERS / "ordinary"), player=str(PLAYERS / "ordinary" / "player.py"))
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, text=True, start_new_session=True)
    seen: list[tuple[float, int]] = []
    try:
        assert process.stdout is not None
        started = time.monotonic()
        while time.monotonic() - started < 60:
            line = process.stdout.readline()
            if not line:
                break
            seen.append((time.monotonic(), int(line)))
            if seen[-1][1] >= 40 or (len(seen) > 5 and seen[-1][0] - seen[0][0] > 4):
                break
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    killed_at = time.monotonic()
    assert len(seen) >= 10, f"the game made only {len(seen)} moves"
    autosaves = list(home.rglob("autosave.pgn"))
    assert len(autosaves) == 1, list(home.rglob("*"))
    saved = saved_moves(autosaves[0])
    older = [length for made_at, length in seen if made_at <= killed_at - 1.0 - SLACK]
    assert saved >= max(older, default=0), (saved, seen)


def test_a_new_game_keeps_the_previous_autosave_in_a_second_slot(qtbot, window, tmp_path):
    files = window.files
    previous = files.autosave.previous_path
    assert previous == tmp_path / "autosave.previous.pgn"
    window.controller.new_game(Mode.ANALYSIS)
    for text in ("h2e2", "h9g7", "h0g2"):
        window.controller.play_move(Move.from_iccs(text))
    files.autosave.write_now()
    first = files.autosave.path.read_text(encoding="utf-8")
    window.controller.play_move(Move.from_iccs("i9h9"))  # the same game goes on: no second slot yet
    files.autosave.write_now()
    assert not previous.exists()
    window.controller.new_game(Mode.ANALYSIS)  # another game: the one autosaved moves to the second slot
    window.controller.play_move(Move.from_iccs("c3c4"))
    files.autosave.write_now()
    assert saved_moves(files.autosave.path) == 1 and saved_moves(previous) == 4
    assert first.split("1.")[0] == previous.read_text(encoding="utf-8").split("1.")[0]
    assert files.restore_previous_autosave()  # nothing is lost: the game on show takes the second slot
    assert [move.iccs() for move in window.controller.game().mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    files.autosave.write_now()
    assert saved_moves(files.autosave.path) == 4 and saved_moves(previous) == 1


def test_no_pgn_is_written_on_the_gui_thread_on_opening_a_move_or_a_comment(qtbot, window, tmp_path,
                                                                              monkeypatch):
    """The opened game's moves are checked by the loader's thread, the unsaved-changes check
    compares revisions and the autosave writes on a thread of its own:
    a big annotated tree (a quarter of a second to write out) never holds the window up after a
    move or a comment. The real PGN writer runs; only where it runs is noted."""
    import threading

    from window_files import open_file

    import xqdesk.formats.pgn as pgn

    writer = pgn.format_pgn
    threads: list[str] = []

    def noting_thread(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return writer(*args, **kwargs)

    import xqdesk.game as game_module

    checker = game_module._replay_tree
    checks: list[str] = []

    def noting_check(game):
        checks.append(threading.current_thread().name)
        return checker(game)

    monkeypatch.setattr(pgn, "format_pgn", noting_thread)
    monkeypatch.setattr(game_module, "_replay_tree", noting_check)
    autosave = tmp_path / "autosave.pgn"
    assert open_file(qtbot, window, Path(__file__).parent / "data" / "games" / "xqf" / "cchess_game_varations.xqf")
    assert checks and threading.main_thread().name not in checks, checks  # its moves checked by the loader
    window.controller.set_mode(Mode.ANALYSIS)
    window.controller.to_end()
    board = window.controller.board()
    window.controller.play_move(sorted(board.legal_moves, key=lambda move: move.iccs())[0])
    qtbot.keyClicks(window.comment_editor.editor, "a note of mine")
    qtbot.waitUntil(lambda: "a note of mine" in (autosave.read_text(encoding="utf-8") if autosave.is_file() else ""),
                    timeout=int(HANG_GUARD * 1000))
    assert threads, "the autosave wrote no PGN"
    assert threading.main_thread().name not in threads, threads
    assert window.files.has_unsaved_changes()
