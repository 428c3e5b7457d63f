"""The typed settings object round-trips through QSettings and survives a damaged store."""
from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from xqdesk.ui.base.settings import (
    EngineKind,
    EngineProfile,
    ScoreView,
    Settings,
    load_settings,
    open_store,
    save_settings,
)

pytestmark = pytest.mark.engines


def test_settings_round_trip_through_an_ini_store(tmp_path):
    path = str(tmp_path / "xqdesk.ini")
    engines = (
        EngineProfile("Fairy", EngineKind.UCI, "/usr/games/fairy-stockfish", options=(("Threads", "1"),)),
        EngineProfile("小强", EngineKind.PLAYER, "/players/player_3"),
        EngineProfile("Built-in 2", EngineKind.BUILTIN, level=2),
    )
    chosen = Settings(
        language="zh_CN",
        notation="wxf",
        score_view=ScoreView.MOVER,
        flip_board=True,
        engine_clock="15m+5s",
        person_clock="20m|30s",
        analysis_lines=3,
        engines=engines,
        analysis_engines=("Fairy", "小强"),
        window_geometry=b"\x01\x02\xff",
    ).with_recent_file("a.pgn").with_recent_file("b.xqf").with_recent_file("a.pgn")
    save_settings(chosen, open_store(path))
    loaded = load_settings(open_store(path))
    assert loaded == chosen
    assert loaded.recent_files == ("a.pgn", "b.xqf")
    assert loaded.engine_named("小强").kind is EngineKind.PLAYER


def test_an_empty_store_gives_the_defaults(tmp_path):
    assert load_settings(open_store(str(tmp_path / "none.ini"))) == Settings()


def test_damaged_values_fall_back_to_their_defaults(tmp_path):
    path = str(tmp_path / "bad.ini")
    store = open_store(path)
    save_settings(replace(Settings(), engine_clock="2s"), store)
    store.setValue("score_view", "sideways")
    store.setValue("analysis_lines", "many")
    store.setValue("engines", "[\"not json of a profile\"]")
    store.setValue("flip_board", "perhaps")
    store.sync()
    loaded = load_settings(open_store(path))
    assert loaded.engine_clock == "2s"
    assert loaded.score_view is ScoreView.RED
    assert loaded.analysis_lines == 1
    assert loaded.engines == ()
    assert loaded.flip_board is False


def test_engine_profiles_know_how_to_start_their_engine():
    uci = EngineProfile("F", EngineKind.UCI, "/bin/engine", options=(("Hash", "16"),)).to_spec()
    assert uci.command == ("/bin/engine",) and dict(uci.options) == {"Hash": "16"}
    player = EngineProfile("P", EngineKind.PLAYER, "/p/player_1.py").to_spec()
    assert player.command == (sys.executable, "-m", "xqdesk.engines.host", "player", "/p/player_1.py")
    builtin = EngineProfile("B", EngineKind.BUILTIN, level=4).to_spec()
    assert builtin.command == (sys.executable, "-m", "xqdesk.engines.host", "builtin")
    assert dict(builtin.options) == {"Level": "4"}
    assert builtin.name == "B" and "PYTHONPATH" in builtin.env


def test_bad_profiles_and_names_are_refused_with_the_input():
    with pytest.raises(ValueError, match="'   '"):
        EngineProfile("   ", EngineKind.BUILTIN)
    with pytest.raises(ValueError, match="'X'"):
        EngineProfile("X", EngineKind.UCI)
    with pytest.raises(ValueError, match="'nobody'"):
        Settings().engine_named("nobody")
    with pytest.raises(ValueError, match="not an engine profile"):
        EngineProfile.from_json("{}")


def test_engines_live_in_the_registry_beside_the_store(tmp_path):
    from xqdesk.engines.registry import load_registry

    path = str(tmp_path / "xqdesk.ini")
    engines = (EngineProfile("Built-in 2", EngineKind.BUILTIN, level=2),)
    save_settings(Settings(engines=engines), open_store(path))
    assert not open_store(path).contains("engines")
    assert tuple(load_registry(tmp_path / "engines.json")) == engines
    assert load_settings(open_store(path)).engines == engines


def test_engines_an_earlier_version_kept_in_the_store_move_into_the_registry(tmp_path):
    import json

    from xqdesk.engines.registry import load_registry, save_registry

    path = str(tmp_path / "xqdesk.ini")
    save_registry([EngineProfile("cli", EngineKind.UCI, "/usr/games/fairy-stockfish")], tmp_path / "engines.json")
    store = open_store(path)
    old = [EngineProfile("Fairy", EngineKind.UCI, "/usr/games/fairy-stockfish").to_json(),
           EngineProfile("cli", EngineKind.BUILTIN).to_json()]  # a name the registry has: the registry's stays
    store.setValue("engines", json.dumps(old))
    store.sync()
    loaded = load_settings(open_store(path))
    assert [(profile.name, profile.kind) for profile in loaded.engines] == [("cli", EngineKind.UCI),
                                                                          ("Fairy", EngineKind.UCI)]
    assert not open_store(path).contains("engines")
    assert [profile.name for profile in load_registry(tmp_path / "engines.json")] == ["cli", "Fairy"]


def test_a_damaged_registry_is_set_aside_not_lost(tmp_path):
    path = str(tmp_path / "xqdesk.ini")
    (tmp_path / "engines.json").write_text("[{broken")
    assert load_settings(open_store(path)).engines == ()
    assert (tmp_path / "engines.json.damaged").read_text() == "[{broken"
