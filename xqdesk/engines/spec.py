"""Engine specs: how the command line (and the window) name an engine to run.

``SPEC`` is one of::

    builtin[:OPTIONS]        the built-in engine        e.g. builtin:Depth=4
    random[:OPTIONS]         a random mover             e.g. random:Seed=7
    greedy[:OPTIONS]         takes the biggest piece it can, else random
    mcts[:OPTIONS]           Monte-Carlo tree search    e.g. mcts:Playouts=2000
    zero[:OPTIONS]           network-guided PUCT search e.g. zero:Network=net.npz,Simulations=400
    fog-KIND[:OPTIONS]       a fog-of-war agent: fog-random, fog-greedy, fog-ubsa, fog-pbsa
    player:PATH              a course Player folder or player_N.py file
    egtb:DIR                 endgame tablebases as an analysis engine (xqdesk egtb build … --out DIR)
    uci:PATH[:OPTIONS]       any UCI engine             e.g. uci:/usr/games/fairy-stockfish:Hash=16
    ucci:PATH[:OPTIONS]      any UCCI engine            e.g. ucci:/opt/eleeye/eleeye:hashsize=64
    engine:PATH[:OPTIONS]    an engine of either kind: UCI is tried, then UCCI
    NAME                     an entry of the user's engines file

``OPTIONS`` is ``Name=value`` pairs joined by commas (``Skill Level=3,Hash=16``).

``NAME`` is looked up in the engine registry by :func:`xqdesk.engines.registry.engine_spec` (the
file the window's engines dialog writes too, or the one ``--engines FILE`` names); :func:`parse_spec`
reads the other forms.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Sequence

from xqdesk.engines.errors import EngineStartError
from xqdesk.engines.transport.process import DEFAULT_MEMORY_LIMIT_MB, LineObserver
from xqdesk.engines.transport.protocol import ProtocolName
from xqdesk.engines.transport.uci_engine import HANDSHAKE_TIMEOUT, UciEngine

FOG_KINDS = ("fog-random", "fog-greedy", "fog-ubsa", "fog-pbsa")
"""Fog-of-war agents (:mod:`xqdesk.engines.fog`): they play only ``--variant fog`` games."""
HOST_KINDS = ("builtin", "random", "greedy", "mcts", "zero") + FOG_KINDS
EXTERNAL_KINDS = {"uci": ProtocolName.UCI, "ucci": ProtocolName.UCCI, "engine": ProtocolName.AUTO}
"""Spec prefixes of external executables, and the protocol each asks for."""
HOST_MODULE = "xqdesk.engines.host"
"""The module that runs the in-process engine kinds (:data:`HOST_KINDS`, course players, tablebases)."""


@dataclass(frozen=True)
class EngineSpec:
    """Everything needed to start one engine process."""

    name: str
    command: tuple[str, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    workdir: Optional[str] = None
    env: Optional[Mapping[str, str]] = None
    verify: bool = False
    """Check at start that the engine plays Xiangqi (for external engines of unknown kind)."""
    protocol: ProtocolName = ProtocolName.UCI
    """What the process speaks: UCI, UCCI, or AUTO (detected at start: UCI, then UCCI)."""

    def __str__(self) -> str:
        return self.name

    def engine(self, *, memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
               handshake_timeout: float = HANDSHAKE_TIMEOUT,
               on_line: Optional[LineObserver] = None) -> UciEngine:
        """The engine this spec names, not started yet: its :meth:`~UciEngine.start` runs the
        process under ``memory_limit_mb`` MiB of address space, does the handshake in the spec's
        protocol with its options, and checks that the engine plays Xiangqi when the spec asks
        (``verify``). ``on_line`` sees every line exchanged. For a caller that must be able to
        kill the engine while it starts; the others call :meth:`open`."""
        return UciEngine(self.command, cwd=self.workdir, options=self.options, memory_limit_mb=memory_limit_mb,
                         handshake_timeout=handshake_timeout, env=self.env, on_line=on_line,
                         protocol=self.protocol, verify=self.verify, name=self.name)

    def open(self, *, memory_limit_mb: Optional[int] = DEFAULT_MEMORY_LIMIT_MB,
             handshake_timeout: float = HANDSHAKE_TIMEOUT,
             on_line: Optional[LineObserver] = None) -> UciEngine:
        """The one door to an engine: :meth:`engine`, started. EngineStartError says why it could
        not start (nothing is left running then)."""
        engine = self.engine(memory_limit_mb=memory_limit_mb, handshake_timeout=handshake_timeout, on_line=on_line)
        engine.start()
        return engine


def _package_root() -> str:
    """The directory holding the ``xqdesk`` package (a checkout or site-packages)."""
    return str(Path(__file__).resolve().parents[2])


def host_environment() -> dict[str, str]:
    """The environment for ``python -m xqdesk.engines.host``: this one, with xqdesk importable."""
    env = dict(os.environ)
    root = _package_root()
    existing = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = root if not existing else f"{root}{os.pathsep}{existing}"
    return env


def host_command(kind: str, path: Optional[str] = None) -> tuple[str, ...]:
    """The command line of the host process for an in-process engine kind."""
    return (sys.executable, "-m", HOST_MODULE, kind) + ((path,) if path else ())


def host_kind(command: Sequence[str]) -> Optional[str]:
    """The engine kind a :func:`host_command` line runs; None for any other command."""
    return command[3] if len(command) > 3 and tuple(command[1:3]) == ("-m", HOST_MODULE) else None


def parse_options(text: str, spec_text: str) -> dict[str, str]:
    """``'Hash=16,Skill Level=3'`` -> ``{'Hash': '16', 'Skill Level': '3'}``."""
    options: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, equals, value = part.partition("=")
        if not equals or not name.strip():
            raise EngineStartError(f"engine option {part!r} in {spec_text!r} is not Name=value")
        options[name.strip()] = value.strip()
    return options


def spec_kind(text: str) -> Optional[str]:
    """The kind a SPEC text starts with (``builtin``, ``uci`` …), None for a name."""
    kind = text.partition(":")[0]
    return kind if kind in HOST_KINDS or kind in EXTERNAL_KINDS or kind in ("player", "egtb") else None


def parse_spec(text: str) -> EngineSpec:
    """The engine ``text`` describes (any form of the module docstring but a NAME);
    EngineStartError, before anything is started, for a missing player, an engine file that is
    not executable, a text that is no SPEC."""
    kind, _, rest = text.partition(":")
    if kind in HOST_KINDS:
        return EngineSpec(text, host_command(kind), parse_options(rest, text), env=host_environment())
    if kind == "player":
        if not rest:
            raise EngineStartError(f"{text!r}: say which player, e.g. player:path/to/player_1")
        from xqdesk.engines.hosted.course_player import find_player_file
        player_file = find_player_file(rest)
        label = player_file.parent.name if Path(rest).expanduser().is_dir() else player_file.stem
        return EngineSpec(f"player:{label}", host_command("player", str(player_file)),
                          workdir=str(player_file.parent), env=host_environment())
    if kind == "egtb":
        directory = Path(rest).expanduser()
        if not rest:
            raise EngineStartError(f"{text!r}: say which directory, e.g. egtb:~/xqdesk-tables")
        if not directory.is_dir():
            raise EngineStartError(f"{text!r}: no such tablebase directory {rest!r}")
        return EngineSpec(f"egtb:{directory.name}", host_command("egtb", str(directory.resolve())),
                          env=host_environment())
    if kind in EXTERNAL_KINDS:
        path, options = rest, {}
        head, colon, tail = rest.rpartition(":")
        if colon and "=" in tail:
            path, options = head, parse_options(tail, text)
        executable = Path(path).expanduser()
        if not path:
            raise EngineStartError(f"{text!r}: say which engine, e.g. {kind}:/usr/games/fairy-stockfish")
        if not executable.is_file():
            raise EngineStartError(f"{text!r}: no such engine file {path!r}")
        if not os.access(executable, os.X_OK):
            raise EngineStartError(f"{text!r}: engine file {path!r} is not executable")
        return EngineSpec(f"{kind}:{executable.name}", (str(executable.resolve()),), options, verify=True,
                          protocol=EXTERNAL_KINDS[kind])
    raise EngineStartError(f"unknown engine {text!r}: expected {', '.join(HOST_KINDS)}, player:PATH, "
                           "egtb:DIR, uci:PATH, ucci:PATH or engine:PATH (a name of the engine registry is looked up "
                           "by xqdesk.engines.registry.engine_spec)")
