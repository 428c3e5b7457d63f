"""The one engine registry: its file, its two entry forms, the window's engines moved into it, and
the command line reading what the window wrote."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.engines.errors import EngineStartError
from xqdesk.engines.registry import (
    EngineKind,
    EngineProfile,
    load_registry,
    merge_into_registry,
    registry_path,
    save_registry,
)
from xqdesk.engines.transport.protocol import ProtocolName

pytestmark = pytest.mark.engines

PLAYERS = Path(__file__).parent / "players"


def xqdesk(*args: str, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).parent.parent, env=env)


def test_every_kind_round_trips_through_the_file(tmp_path):
    profiles = [EngineProfile("Fairy", EngineKind.UCI, "/usr/games/fairy-stockfish", options=(("Hash", "16"),)),
                EngineProfile("小强", EngineKind.PLAYER, "/players/player_3"),
                EngineProfile("Built-in 2", EngineKind.BUILTIN, level=2),
                EngineProfile("eye", EngineKind.UCCI, "/opt/eleeye"),
                EngineProfile("mine", EngineKind.COMMAND, "/opt/eng", arguments=("--xq",), protocol=ProtocolName.AUTO,
                              workdir="/opt")]
    path = save_registry(profiles, tmp_path / "engines.json")
    assert load_registry(path) == profiles
    assert json.loads(path.read_text())[4] == {"name": "mine", "command": ["/opt/eng", "--xq"], "protocol": "auto",
                                               "options": {}, "workdir": "/opt"}
    spec = profiles[4].to_spec()
    assert spec.command == ("/opt/eng", "--xq") and spec.protocol is ProtocolName.AUTO and spec.verify


def test_the_command_lines_old_entries_still_read(tmp_path):
    path = tmp_path / "engines.json"
    path.write_text('[{"name": "fsf", "command": "/usr/games/fairy-stockfish --x", "protocol": "uci", '
                    '"options": {"Hash": 16}, "workdir": null}]')
    (fsf,) = load_registry(path)
    assert fsf.kind is EngineKind.COMMAND and fsf.to_spec().command == ("/usr/games/fairy-stockfish", "--x")
    assert fsf.options == (("Hash", "16"),)


@pytest.mark.parametrize("text, message", [
    ('[{"name": "a", "kind": "uci", "path": "/x"}, {"name": "b"}]', "entry 2: 'kind' must be one of"),
    ('[{"name": "a", "kind": "builtin", "level": "high"}]', "entry 1: 'level' must be a whole number"),
    ('{"name": "a"}', "must hold a JSON list"),
    ('[{"name": "a",', "is not JSON: line 1"),
])
def test_a_bad_file_is_an_error_naming_the_file_and_entry(tmp_path, text, message):
    path = tmp_path / "engines.json"
    path.write_text(text)
    with pytest.raises(EngineStartError, match=message) as caught:
        load_registry(path)
    assert str(path) in str(caught.value)


def test_the_registry_lives_in_the_users_config_folder_and_takes_over_the_old_file(tmp_path, monkeypatch):
    monkeypatch.delenv("XQDESK_ENGINES", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    if sys.platform.startswith("linux"):
        assert registry_path() == tmp_path / "config" / "xqdesk" / "engines.json"
    legacy = tmp_path / "home" / ".config" / "xqdesk" / "engines.json"
    legacy.parent.mkdir(parents=True)
    legacy.write_text('[{"name": "old", "command": ["/opt/old"]}]')
    assert [profile.name for profile in load_registry()] == ["old"]  # read until the registry exists
    merged = merge_into_registry([EngineProfile("new", EngineKind.BUILTIN)])
    assert [profile.name for profile in merged] == ["old", "new"]
    assert [profile.name for profile in load_registry(registry_path())] == ["old", "new"]


def test_engines_command_adds_lists_and_removes(tmp_path):
    env = {**__import__("os").environ, "XQDESK_ENGINES": str(tmp_path / "engines.json")}
    added = xqdesk("engines", "add", "steady", "builtin:Level=2", env=env)
    assert added.returncode == 0, added.stderr
    assert xqdesk("engines", "add", "steady", "random", env=env).returncode == 2
    missing = xqdesk("engines", "add", "ghost", "uci:/no/such/engine", env=env)
    assert missing.returncode == 2 and "no such engine file" in missing.stderr
    listed = xqdesk("engines", env=env)
    assert f"Engine registry: {tmp_path / 'engines.json'}" in listed.stdout and "  steady: builtin level 2" in listed.stdout
    played = xqdesk("match", "--red", "steady", "--black", f"player:{PLAYERS / 'raises'}", "--games", "1", env=env)
    assert played.returncode == 0 and "steady wins: Black moves illegally" in played.stdout, played.stderr
    removed = xqdesk("engines", "remove", "steady", env=env)
    assert removed.returncode == 0 and load_registry(tmp_path / "engines.json") == []
    assert xqdesk("engines", "remove", "steady", env=env).returncode == 1
