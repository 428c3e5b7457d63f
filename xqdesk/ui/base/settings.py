"""The window's settings as one typed, immutable object, saved and loaded with ``QSettings``.

``load_settings()`` never fails on a damaged or foreign store: a value of the wrong type falls back
to its default, so a hand-edited file cannot keep the window from starting. Engines are kept as
:class:`EngineProfile` values, which also know the command line that starts them; they live in the
engine registry (:mod:`xqdesk.engines.registry`) that the command line reads too, not in the store:
a store that still holds engines (an earlier version's) has them moved into the registry. A store
opened on an INI file (tests, portable installs) keeps its registry beside it, ``engines.json``.

On the first start (no registry yet) the strong engines installed on ``PATH`` (Fairy-Stockfish,
Pikafish: :func:`~xqdesk.engines.registry.discover_engines`) are written into the registry and the
first of them is chosen for analysis.
"""
from __future__ import annotations

import enum
import json
import logging
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from xqdesk.engines.errors import EngineStartError
from xqdesk.engines.registry import (
    BUILTIN_LEVEL_OPTION,
    PATHLESS_KINDS,
    EngineKind,
    EngineProfile,
    discover_engines,
    load_registry,
    merge_into_registry,
    registry_exists,
    registry_path,
    save_registry,
)

LOG = logging.getLogger(__name__)
ENGINES_KEY = "engines"
"""The store key under which earlier versions kept the engines (moved into the registry on load)."""

ORGANIZATION = "xqdesk"
APPLICATION = "xqdesk"

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
    show_book_moves: bool = False
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


def registry_of(store: QSettings) -> Path:
    """The engine registry that goes with ``store``: beside an INI store, else the user's."""
    if store.format() == QSettings.Format.IniFormat:
        return Path(store.fileName()).with_name("engines.json")
    return registry_path()


_saved_engines: dict[Path, tuple[EngineProfile, ...]] = {}
"""The engines last written to each registry file by this process (unchanged ones are not rewritten)."""


def save_settings(settings: Settings, store: QSettings) -> None:
    """Write every field of ``settings`` into ``store``; the engines go to the registry when they
    changed. The store writes its file itself soon after (Qt coalesces the writes of a burst of
    changes into one, off the moment of the change; it also writes when it is closed): every
    QSettings of this process on the same file sees the values at once."""
    for item in fields(Settings):
        if item.name != ENGINES_KEY:
            store.setValue(item.name, _to_stored(getattr(settings, item.name)))
    registry = registry_of(store)
    if _saved_engines.get(registry) == settings.engines and registry.exists():
        return
    try:
        save_registry(settings.engines, registry)
        _saved_engines[registry] = settings.engines
    except OSError as error:
        LOG.warning("cannot write the engine registry %s: %s", registry, error)


def load_settings(store: QSettings) -> Settings:
    """The settings in ``store``; absent or unreadable values take their defaults. The engines
    come from the registry (see the module docstring)."""
    defaults = Settings()
    values: dict[str, Any] = {}
    for item in fields(Settings):
        default = getattr(defaults, item.name)
        if item.name == ENGINES_KEY or not store.contains(item.name):
            continue
        try:
            values[item.name] = _from_stored(item.name, store.value(item.name), default)
        except (ValueError, TypeError):
            continue
    engines, discovered = _registry_engines(store)
    values[ENGINES_KEY] = tuple(engines)
    if discovered and not store.contains("analysis_engines"):
        values["analysis_engines"] = (discovered[0].name,)
    return replace(defaults, **values)


class SavedSettings:
    """The settings in use and the store they are saved in: read :attr:`current`, change them
    with :meth:`update` (saved at once). Every part of the window reads the same object."""

    def __init__(self, store: QSettings) -> None:
        self.store = store
        self.current = load_settings(store)

    def update(self, **changes: Any) -> Settings:
        """Change the fields named in ``changes``, save, and return the new settings."""
        self.current = replace(self.current, **changes)
        save_settings(self.current, self.store)
        return self.current


def _registry_engines(store: QSettings) -> tuple[list[EngineProfile], list[EngineProfile]]:
    """The registry's engines, with those an earlier version kept in ``store`` moved over, and
    those just found installed (on the first start: see the module docstring). A registry that
    cannot be read is set aside (renamed ``….damaged``) so nothing in it is lost when the window
    writes a new one."""
    path = registry_of(store)
    if not registry_exists(path) and not store.contains(ENGINES_KEY):
        discovered = discover_engines()
        if discovered:
            try:
                save_registry(discovered, path)
            except OSError as error:
                LOG.warning("cannot write the engine registry %s: %s", path, error)
            return discovered, discovered
        return [], []
    return _stored_engines(store, path), []


def _stored_engines(store: QSettings, path: Path) -> list[EngineProfile]:
    old: tuple[EngineProfile, ...] = ()
    if store.contains(ENGINES_KEY):
        try:
            old = _from_stored(ENGINES_KEY, store.value(ENGINES_KEY), ())
        except (ValueError, TypeError):
            old = ()
    try:
        engines = merge_into_registry(old, path) if old else load_registry(path)
    except EngineStartError as error:
        kept = path.with_name(path.name + ".damaged")
        LOG.warning("%s; kept as %s", error, kept)
        try:
            path.replace(kept)
        except OSError:
            return []
        engines = merge_into_registry(old, path) if old else []
    except OSError as error:
        LOG.warning("cannot write the engine registry %s: %s", path, error)
        return list(old)
    if store.contains(ENGINES_KEY):
        store.remove(ENGINES_KEY)
        store.sync()
    return engines


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
    "BUILTIN_LEVEL_OPTION",
    "PATHLESS_KINDS",
    "EngineKind",
    "EngineProfile",
    "ScoreView",
    "Settings",
    "load_settings",
    "open_store",
    "save_settings",
]
