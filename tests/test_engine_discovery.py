"""A strong engine out of the box: the first start finds Fairy-Stockfish (or Pikafish) on PATH,
writes it into the registry and analyses with it; the quick start still seats the built-in engine.
The engine on PATH is a real process: a small UCI engine that says it is Fairy-Stockfish."""
from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD_MS

from xqdesk.engines.registry import EngineKind, discover_engines, load_registry, save_registry

pytestmark = pytest.mark.engines

FAKE_ENGINE = Path(__file__).resolve().parent / "fake_fairy_stockfish.py"


def _install(folder: Path, program: str) -> Path:
    """An executable ``program`` in ``folder`` that runs the test double engine."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / program
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_ENGINE}" "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def test_known_engines_are_found_on_the_search_path(tmp_path):
    assert discover_engines(str(tmp_path)) == []
    fairy = _install(tmp_path / "games", "fairy-stockfish")
    pikafish = _install(tmp_path / "bin", "pikafish")
    found = discover_engines(f"{tmp_path / 'bin'}:{tmp_path / 'games'}")
    assert [(p.name, p.kind, p.path) for p in found] == [("Fairy-Stockfish", EngineKind.UCI, str(fairy)),
                                                        ("Pikafish", EngineKind.UCI, str(pikafish))]


def _window(tmp_path: Path):
    from xqdesk.ui.base.settings import open_store
    from xqdesk.ui.main_window import MainWindow

    win = MainWindow(settings_store=open_store(str(tmp_path / "settings.ini")),
                     autosave_path=str(tmp_path / "autosave.pgn"))
    win.resize(1000, 720)
    win.show()
    return win


def _close(win) -> None:
    win.shutdown()
    win.close()
    win.deleteLater()


@pytest.fixture
def fairy_on_path(tmp_path, monkeypatch) -> Path:
    fairy = _install(tmp_path / "games", "fairy-stockfish")
    monkeypatch.setenv("PATH", f"{fairy.parent}:{Path(sys.executable).parent}:/usr/bin:/bin")
    return fairy


def test_the_first_start_finds_fairy_stockfish_and_analyses_with_it(qtbot, tmp_path, fairy_on_path):
    profile = tmp_path / "profile"
    profile.mkdir()
    win = _window(profile)
    try:
        qtbot.waitExposed(win)
        assert [(p.name, p.path) for p in win.settings.engines] == [("Fairy-Stockfish", str(fairy_on_path))]
        assert [p.name for p in load_registry(profile / "engines.json")] == ["Fairy-Stockfish"]
        assert [p.name for p in win.analysis.engines()] == ["Fairy-Stockfish"]
        assert win.starts.default_engine().kind is EngineKind.BUILTIN  # the quick start stays the built-in level
        win.action("Analysis").trigger()
        view = win.engine_panel.views[0]
        qtbot.waitUntil(lambda: bool(view.row_texts()), timeout=HANG_GUARD_MS)
        assert view.engine_name.startswith("Fairy-Stockfish") and view.row_texts()[0][-1].startswith("车九进一")  # a0a1: the double plays the first legal move
    finally:
        _close(win)


def test_later_starts_keep_the_users_choice(qtbot, tmp_path, fairy_on_path):
    profile = tmp_path / "profile"
    profile.mkdir()
    save_registry([], profile / "engines.json")  # not the first start: the user removed every engine
    win = _window(profile)
    try:
        assert win.settings.engines == () and win.analysis.engines()[0].kind is EngineKind.BUILTIN
    finally:
        _close(win)


def test_the_quick_start_opponent_says_its_measured_strength(qtbot, window):
    from PySide6.QtCore import Qt

    from xqdesk.ui.base.i18n import Language
    from xqdesk.ui.game.seat_dialogs import BUILTIN_PROFILES, NewGameDialog, engine_strength

    opponent = window.starts.default_engine()
    assert opponent.level == 3
    window.action("Play Red against the engine").trigger()
    message = window.statusBar().currentMessage()
    assert message == engine_strength(opponent)
    assert "Level 3 beats Fairy-Stockfish at skill level 0 and loses to skill level 5" in message
    dialog = NewGameDialog(BUILTIN_PROFILES, "10s", "none", 0.0, can_continue=False, parent=window)
    tips = [dialog.black_box.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(dialog.black_box.count())]
    assert engine_strength(opponent) in tips
    dialog.deleteLater()
    window.set_language(Language.CHINESE)
    assert engine_strength(opponent).startswith("3 级胜 Fairy-Stockfish")
