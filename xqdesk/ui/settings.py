"""The window's settings as one typed, immutable object, saved and loaded with ``QSettings``.

``load_settings()`` never fails on a damaged or foreign store: a value of the wrong type falls back
to its default, so a hand-edited file cannot keep the window from starting. Engines are kept as
:class:`EngineProfile` values, which also know the command line that starts them.
"""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, fields, replace
from typing import Any

from PySide6.QtCore import QSettings

from xqdesk.engines.transport.protocol import ProtocolName
from xqdesk.engines.spec import EngineSpec, host_command, host_environment

ORGANIZATION = "xqdesk"
APPLICATION = "xqdesk"

BUILTIN_LEVEL_OPTION = "Level"
"""The built-in engine's UCI option that sets its strength."""


class EngineKind(enum.Enum):
    """How an engine is started: the built-in engine and course players run in xqdesk's UCI host;
    an external executable speaks UCI or UCCI."""

    BUILTIN = "builtin"
    PLAYER = "player"
    UCI = "uci"
    UCCI = "ucci"
    TABLEBASE = "tablebase"
    """Endgame tables read as an analysis engine; ``path`` is their directory."""
    MCTS = "mcts"
    ZERO = "zero"


PATHLESS_KINDS = (EngineKind.BUILTIN, EngineKind.MCTS, EngineKind.ZERO)
"""Kinds xqdesk runs itself: they need no path."""


@dataclass(frozen=True)
class EngineProfile:
    """One engine the user has set up: a name, how to start it and the UCI options to send.

    ``path`` is the executable (UCI, UCCI) or the course player's file or folder (PLAYER); unused for
    BUILTIN, whose strength is ``level``. ``options`` are (name, value) pairs sent with
    ``setoption`` after the handshake, in order.
    """

    name: str
    kind: EngineKind
    path: str = ""
    level: int = 3
    options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError(f"an engine needs a name, got {self.name!r}")
        if self.kind not in PATHLESS_KINDS and not self.path:
            raise ValueError(f"engine {self.name!r} of kind {self.kind.value!r} needs a path")

    def to_spec(self) -> EngineSpec:
        """How to start this engine's process (the engines package's :class:`EngineSpec`).

        A built-in engine gets its level as the ``Level`` option; options listed in ``options``
        come after it, so an explicit ``Level`` there wins.
        """
        options = dict(self.options)
        if self.kind is EngineKind.UCI:  # an engine of unknown kind: checked to play Xiangqi, as on the command line
            return EngineSpec(self.name, (self.path,), options, verify=True)
        if self.kind is EngineKind.UCCI:
            return EngineSpec(self.name, (self.path,), options, verify=True, protocol=ProtocolName.UCCI)
        if self.kind is EngineKind.PLAYER:
            return EngineSpec(self.name, host_command("player", self.path), options, env=host_environment())
        if self.kind is EngineKind.TABLEBASE:
            return EngineSpec(self.name, host_command("egtb", self.path), options, env=host_environment())
        if self.kind in (EngineKind.MCTS, EngineKind.ZERO):
            return EngineSpec(self.name, host_command(self.kind.value), options, env=host_environment())
        return EngineSpec(self.name, host_command("builtin"), {BUILTIN_LEVEL_OPTION: str(self.level), **options},
                          env=host_environment())

    def to_json(self) -> str:
        """A one-line text form (for QSettings), read back by :meth:`from_json`."""
        return json.dumps(
            {
                "name": self.name,
                "kind": self.kind.value,
                "path": self.path,
                "level": self.level,
                "options": [list(pair) for pair in self.options],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> "EngineProfile":
        """The profile written by :meth:`to_json`; raises ValueError naming the bad text."""
        try:
            data = json.loads(text)
            return cls(
                name=str(data["name"]),
                kind=EngineKind(data["kind"]),
                path=str(data.get("path", "")),
                level=int(data.get("level", 3)),
                options=tuple((str(name), str(value)) for name, value in data.get("options", ())),
            )
        except (KeyError, TypeError, json.JSONDecodeError) as error:
            raise ValueError(f"not an engine profile: {text!r} ({error})") from error


class ScoreView(enum.Enum):
    """Whose point of view engine scores are shown from."""

    RED = "red"
    MOVER = "mover"


@dataclass(frozen=True)
class Settings:
    """Everything the window remembers between runs. Change it with :func:`dataclasses.replace`."""

    language: str = "en"
    notation: str = "chinese"
    score_view: ScoreView = ScoreView.RED
    flip_board: bool = False
    show_coordinates: bool = True
    show_engine_arrows: bool = True
    engine_clock: str = "10s"
    person_clock: str = "none"
    engine_delay: float = 0.5
    analysis_lines: int = 1
    engines: tuple[EngineProfile, ...] = ()
    analysis_engines: tuple[str, ...] = ()
    tablebase_path: str = ""
    """The directory of endgame tables (``xqdesk egtb build``); empty: none."""
    recent_files: tuple[str, ...] = ()
    last_directory: str = ""
    window_geometry: bytes = b""
    explorer_database: str = ""
    show_explorer: bool = False
    theme: str = "wood"
    muted: bool = False

    def engine_named(self, name: str) -> EngineProfile:
        """The profile called ``name``; raises ValueError listing the known names."""
        for profile in self.engines:
            if profile.name == name:
                return profile
        raise ValueError(f"no engine named {name!r}; known: {[p.name for p in self.engines]}")

    def with_recent_file(self, path: str, keep: int = 10) -> "Settings":
        """These settings with ``path`` first among the recent files (no duplicates)."""
        others = tuple(p for p in self.recent_files if p != path)
        return replace(self, recent_files=((path,) + others)[:keep])


def open_store(path: str | None = None) -> QSettings:
    """The application's QSettings, or an INI file at ``path`` (tests, portable installs)."""
    if path is not None:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings(ORGANIZATION, APPLICATION)


def save_settings(settings: Settings, store: QSettings) -> None:
    """Write every field of ``settings`` into ``store`` and flush it."""
    for item in fields(Settings):
        value = getattr(settings, item.name)
        store.setValue(item.name, _to_stored(value))
    store.sync()


def load_settings(store: QSettings) -> Settings:
    """The settings in ``store``; absent or unreadable values take their defaults."""
    defaults = Settings()
    values: dict[str, Any] = {}
    for item in fields(Settings):
        default = getattr(defaults, item.name)
        if not store.contains(item.name):
            continue
        try:
            values[item.name] = _from_stored(item.name, store.value(item.name), default)
        except (ValueError, TypeError):
            continue
    return replace(defaults, **values)


def _to_stored(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple):
        items = [item.to_json() if isinstance(item, EngineProfile) else item for item in value]
        return json.dumps(items, ensure_ascii=False)
    return value


def _from_stored(name: str, raw: Any, default: Any) -> Any:
    if isinstance(default, enum.Enum):
        return type(default)(str(raw))
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text not in ("true", "false", "1", "0"):
            raise ValueError(f"setting {name!r} is not a boolean: {raw!r}")
        return text in ("true", "1")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    if isinstance(default, bytes):
        return bytes.fromhex(str(raw))
    if isinstance(default, tuple):
        items = json.loads(str(raw))
        if not isinstance(items, list):
            raise ValueError(f"setting {name!r} is not a list: {raw!r}")
        if name == "engines":
            return tuple(EngineProfile.from_json(item) for item in items)
        return tuple(str(item) for item in items)
    return str(raw)


__all__ = [
    "EngineKind",
    "EngineProfile",
    "ScoreView",
    "Settings",
    "load_settings",
    "open_store",
    "save_settings",
]
