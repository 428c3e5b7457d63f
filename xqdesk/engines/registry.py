"""The one engine registry: the engines a user has set up, for the window and the command line.

One JSON file, ``engines.json`` in the user's configuration folder as :mod:`platformdirs` finds it
(``~/.config/xqdesk`` on Linux, ``~/Library/Application Support/xqdesk`` on macOS,
``%LOCALAPPDATA%\\xqdesk`` on Windows). The window's engines dialog writes it; ``xqdesk match
--red NAME`` (and every command that takes an engine SPEC) reads it; ``xqdesk engines`` lists and
edits it. The file is a JSON list; each entry is one of::

    {"name": "Fairy", "kind": "uci", "path": "/usr/games/fairy-stockfish", "options": {"Hash": "16"}}
    {"name": "Built-in 3", "kind": "builtin", "level": 3}
    {"name": "mine", "command": ["/opt/eng/eng", "--xiangqi"], "protocol": "ucci", "workdir": null}

``kind`` is ``builtin``, ``player`` (``path``: a course player's file or folder), ``uci``, ``ucci``,
``tablebase`` (``path``: its folder), ``mcts``, ``zero`` or ``command`` (the last form: a command
line, a string is split as a shell would, with ``protocol`` ``uci``, ``ucci`` or ``auto``).

Earlier versions kept the window's engines in its settings (QSettings) and the command line's in
``~/.config/xqdesk/engines.json``; :func:`merge_into_registry` moves the former over, and on systems
where the config folder is elsewhere the latter is read until the registry is first written.
"""
from __future__ import annotations

import enum
import json
import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from xqdesk.engines.errors import EngineStartError
from xqdesk.engines.spec import HOST_KINDS, EngineSpec, host_command, host_environment, parse_spec, spec_kind
from xqdesk.engines.transport.protocol import ProtocolName, parse_protocol_name

APP_NAME = "xqdesk"
REGISTRY_FILE = "engines.json"
LEGACY_REGISTRY = Path("~/.config/xqdesk/engines.json")
"""Where the command line looked for named engines before the registry (read if the registry is absent)."""
REGISTRY_ENV = "XQDESK_ENGINES"
"""An environment variable naming another registry file (portable installs, tests)."""

BUILTIN_LEVEL_OPTION = "Level"
"""The built-in engine's UCI option that sets its strength."""
BOOK_OPTION = "OwnBook"
"""The built-in engine's UCI option that plays the opening from a book."""


class EngineKind(enum.Enum):
    """How an engine is started: the built-in engine and course players run in xqdesk's UCI host;
    an external executable speaks UCI or UCCI; a command is any command line."""

    BUILTIN = "builtin"
    PLAYER = "player"
    UCI = "uci"
    UCCI = "ucci"
    TABLEBASE = "tablebase"
    """Endgame tables read as an analysis engine; ``path`` is their directory."""
    MCTS = "mcts"
    ZERO = "zero"
    COMMAND = "command"
    """A command line (``path`` and ``arguments``) speaking ``protocol``."""


PATHLESS_KINDS = (EngineKind.BUILTIN, EngineKind.MCTS, EngineKind.ZERO)
"""Kinds xqdesk runs itself: they need no path."""


@dataclass(frozen=True)
class EngineProfile:
    """One engine the user has set up: a name, how to start it and the UCI options to send.

    ``path`` is the executable (UCI, UCCI, COMMAND) or the course player's file or folder
    (PLAYER); unused for BUILTIN, whose strength is ``level``. ``options`` are (name, value) pairs
    sent with ``setoption`` after the handshake, in order. A COMMAND also has ``arguments`` after
    its executable, the ``protocol`` it speaks and the folder it runs in (``workdir``).
    """

    name: str
    kind: EngineKind
    path: str = ""
    level: int = 3
    options: tuple[tuple[str, str], ...] = ()
    arguments: tuple[str, ...] = ()
    protocol: ProtocolName = ProtocolName.UCI
    workdir: Optional[str] = None

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
        if self.kind is EngineKind.COMMAND:
            return EngineSpec(self.name, (self.path, *self.arguments), options, self.workdir, verify=True,
                              protocol=self.protocol)
        if self.kind is EngineKind.PLAYER:
            return EngineSpec(self.name, host_command("player", self.path), options, env=host_environment())
        if self.kind is EngineKind.TABLEBASE:
            return EngineSpec(self.name, host_command("egtb", self.path), options, env=host_environment())
        if self.kind in (EngineKind.MCTS, EngineKind.ZERO):
            return EngineSpec(self.name, host_command(self.kind.value), options, env=host_environment())
        return EngineSpec(self.name, host_command("builtin"), {BUILTIN_LEVEL_OPTION: str(self.level), **options},
                          env=host_environment())

    def playing(self) -> EngineProfile:
        """This engine as seated to play a game: the built-in engine plays its opening from the
        shipped master-game book (``OwnBook``, drawn by games and results, so games vary) unless
        its options say otherwise. Analysis, hints and review use the profile as it is: no book."""
        if self.kind is not EngineKind.BUILTIN or any(name == BOOK_OPTION for name, _value in self.options):
            return self
        return replace(self, options=((BOOK_OPTION, "true"), *self.options))

    def to_entry(self) -> dict[str, Any]:
        """The registry file's entry for this engine (see the module docstring)."""
        if self.kind is EngineKind.COMMAND:
            return {"name": self.name, "command": [self.path, *self.arguments], "protocol": self.protocol.value,
                    "options": dict(self.options), "workdir": self.workdir}
        entry: dict[str, Any] = {"name": self.name, "kind": self.kind.value}
        if self.path:
            entry["path"] = self.path
        if self.kind is EngineKind.BUILTIN:
            entry["level"] = self.level
        entry["options"] = dict(self.options)
        return entry

    @classmethod
    def from_entry(cls, entry: object, where: str = "engine entry") -> EngineProfile:
        """The profile of a registry entry (either form); ValueError naming ``where`` and the entry."""
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ValueError(f"{where}: needs a 'name', got {entry!r}")
        options = entry.get("options") or {}
        pairs = options.items() if isinstance(options, dict) else options
        try:
            option_pairs = tuple((str(key), str(value)) for key, value in pairs)
        except (TypeError, ValueError):
            raise ValueError(f"{where}: 'options' must be an object of name: value, got {options!r}") from None
        if "command" in entry:
            command = entry["command"]
            argv = shlex.split(command) if isinstance(command, str) else command
            if not isinstance(argv, list) or not argv or not all(isinstance(word, str) for word in argv):
                raise ValueError(f"{where}: 'command' must be a string or a list of strings, got {command!r}")
            protocol = parse_protocol_name(str(entry.get("protocol", "uci")), where)
            workdir = entry.get("workdir")
            return cls(entry["name"], EngineKind.COMMAND, argv[0], options=option_pairs, arguments=tuple(argv[1:]),
                       protocol=protocol, workdir=str(workdir) if workdir else None)
        try:
            kind = EngineKind(entry.get("kind"))
        except ValueError:
            kinds = ", ".join(kind.value for kind in EngineKind)
            raise ValueError(f"{where}: 'kind' must be one of {kinds} (or give a 'command'), "
                             f"got {entry.get('kind')!r}") from None
        level = entry.get("level", 3)
        if not isinstance(level, int) or isinstance(level, bool):
            raise ValueError(f"{where}: 'level' must be a whole number, got {level!r}")
        return cls(entry["name"], kind, str(entry.get("path") or ""), level, option_pairs)

    def to_json(self) -> str:
        """A one-line text form, read back by :meth:`from_json` (the settings' old form)."""
        return json.dumps({"name": self.name, "kind": self.kind.value, "path": self.path, "level": self.level,
                           "options": [list(pair) for pair in self.options]}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> EngineProfile:
        """The profile written by :meth:`to_json`; raises ValueError naming the bad text."""
        try:
            data = json.loads(text)
            return cls(name=str(data["name"]), kind=EngineKind(data["kind"]), path=str(data.get("path", "")),
                       level=int(data.get("level", 3)),
                       options=tuple((str(name), str(value)) for name, value in data.get("options", ())))
        except (KeyError, TypeError, json.JSONDecodeError) as error:
            raise ValueError(f"not an engine profile: {text!r} ({error})") from error


def registry_path() -> Path:
    """The registry file: ``$XQDESK_ENGINES`` when set, else ``engines.json`` in the user's
    configuration folder."""
    override = os.environ.get(REGISTRY_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_config_path(APP_NAME, appauthor=False) / REGISTRY_FILE


def _readable_path(path: Path) -> Optional[Path]:
    """The file to read for the registry at ``path``: itself, or while it does not exist yet the
    command line's old engines file (when it is elsewhere), or None."""
    if path.is_file():
        return path
    legacy = LEGACY_REGISTRY.expanduser()
    if path == registry_path() and legacy != path and legacy.is_file():
        return legacy
    return None


def registry_exists(path: Optional[Path] = None) -> bool:
    """Whether a registry (or the command line's old engines file standing in for it) is there to
    read: False on the first start."""
    return _readable_path(registry_path() if path is None else Path(path).expanduser()) is not None


KNOWN_ENGINES = (("Fairy-Stockfish", "fairy-stockfish"), ("Pikafish", "pikafish"))
"""Strong Xiangqi engines looked for on ``PATH`` at the first start: (name, program).
Fairy-Stockfish is the Debian and Ubuntu package ``fairy-stockfish`` (installed in ``/usr/games``)."""


def discover_engines(search_path: Optional[str] = None) -> list[EngineProfile]:
    """The :data:`KNOWN_ENGINES` installed on ``search_path`` (default ``$PATH``), as UCI engines
    with no options (each is checked to play Xiangqi when it first starts)."""
    found = []
    for name, program in KNOWN_ENGINES:
        path = shutil.which(program, path=search_path)
        if path is not None:
            found.append(EngineProfile(name, EngineKind.UCI, path=str(Path(path).absolute())))
    return found


def load_registry(path: Optional[Path] = None) -> list[EngineProfile]:
    """The engines in the registry (default :func:`registry_path`); empty when there is no file.
    EngineStartError naming the file (and the line or entry) when it cannot be read."""
    path = registry_path() if path is None else Path(path).expanduser()
    source = _readable_path(path)
    if source is None:
        return []
    try:
        entries = json.loads(source.read_text(encoding="utf-8"))
    except OSError as error:
        raise EngineStartError(f"cannot read engines file {str(source)!r}: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        where = f"line {error.lineno}: {error.msg}" if isinstance(error, json.JSONDecodeError) else str(error)
        raise EngineStartError(f"engines file {str(source)!r} is not JSON: {where}") from None
    if not isinstance(entries, list):
        raise EngineStartError(f"engines file {str(source)!r} must hold a JSON list of engines")
    profiles = []
    for number, entry in enumerate(entries, start=1):
        try:
            profiles.append(EngineProfile.from_entry(entry, f"engines file {str(source)!r}, entry {number}"))
        except ValueError as error:
            raise EngineStartError(str(error)) from None
    return profiles


def save_registry(profiles: Iterable[EngineProfile], path: Optional[Path] = None) -> Path:
    """Write ``profiles`` as the registry (atomically: a reader sees the old file or the new one)."""
    path = registry_path() if path is None else Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps([profile.to_entry() for profile in profiles], ensure_ascii=False, indent=2) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=".engines-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def merge_into_registry(profiles: Sequence[EngineProfile], path: Optional[Path] = None) -> list[EngineProfile]:
    """Add ``profiles`` (engines kept elsewhere before) to the registry, those whose names it
    does not hold yet; the registry's engines afterwards."""
    target = registry_path() if path is None else Path(path).expanduser()
    source = _readable_path(target)
    current = load_registry(target)
    known = {profile.name for profile in current}
    added = [profile for profile in profiles if profile.name not in known]
    if added or (source is not None and source != target):  # new engines, or the old file's moved over
        current += added
        save_registry(current, target)
    return current


def load_engines_file(path: str | os.PathLike[str]) -> dict[str, EngineSpec]:
    """The engines of a registry file (``--engines FILE``) as specs, by name."""
    return {profile.name: profile.to_spec() for profile in load_registry(Path(path))}


def engine_spec(text: str, engines_file: Optional[str | os.PathLike[str]] = None) -> EngineSpec:
    """The engine ``text`` names: a SPEC (:func:`xqdesk.engines.spec.parse_spec`), or a name in
    the registry (or in ``engines_file``). EngineStartError for a name found in neither."""
    if spec_kind(text) is not None:
        return parse_spec(text)
    path = Path(engines_file).expanduser() if engines_file else registry_path()
    if engines_file and not path.is_file():
        raise EngineStartError(f"unknown engine {text!r}: no engines file {str(engines_file)!r}")
    engines = load_engines_file(path)
    if text in engines:
        return engines[text]
    raise EngineStartError(f"unknown engine {text!r}: not {', '.join(HOST_KINDS)}, player:PATH, egtb:DIR, uci:PATH, "
                           f"ucci:PATH, engine:PATH, nor a name in the engines file {str(path)!r} "
                           f"({', '.join(engines) or 'none there'}; see 'xqdesk engines')")


def find_engine(name: str, path: Optional[Path] = None) -> Optional[EngineProfile]:
    """The registry's engine called ``name`` (None when there is none)."""
    for profile in load_registry(path):
        if profile.name == name:
            return profile
    return None


__all__ = ["BUILTIN_LEVEL_OPTION", "EngineKind", "EngineProfile", "PATHLESS_KINDS", "engine_spec", "find_engine",
           "load_engines_file", "load_registry", "registry_exists", "discover_engines", "KNOWN_ENGINES",
           "merge_into_registry", "registry_path", "save_registry"]
