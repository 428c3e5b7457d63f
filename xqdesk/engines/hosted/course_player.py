"""A course ``Player`` (a student's folder or file, loaded unchanged) as an in-process engine.

Loading follows the course's habits: the player's folder goes first on ``sys.path`` and becomes the
working directory (players open data files by relative path), its own ``utils.py`` is used when it
has one, else :mod:`xqdesk.course` stands in as ``utils``. One ``Player(side)`` is made per game;
each move it gets ``update_history(copy of history)`` then ``policy(copy of board)``, exactly as the
course referee drives it. This runs inside the host process, never in the referee's.
"""
from __future__ import annotations

import importlib
import importlib.util
import operator
import os
import sys
import threading
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Optional

from xqdesk.board import Board
from xqdesk.engines.errors import EngineError, EngineOptionError, EngineStartError
from xqdesk.engines.options import OptionValue, UciOption
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.pieces import color_name

FALLBACK_UTILS_MODULE = "xqdesk.course"
"""Stands in for a missing ``utils.py``. It is core-only code (the course's functions over
:class:`~xqdesk.board.Board`); it is looked up by name because only a player without its own
``utils`` needs it, and only inside the host process."""


class PlayerMoveError(EngineError):
    """The player gave no usable action; the message says what it did instead."""


def find_player_file(path: str | os.PathLike[str]) -> Path:
    """The ``player_N.py`` for a folder or file path; EngineStartError when there is none or
    several candidates."""
    target = Path(path).expanduser().resolve()
    if not target.exists():
        raise EngineStartError(f"no such player file or folder: {str(path)!r}")
    if target.is_file():
        if target.suffix != ".py":
            raise EngineStartError(f"a course player is a .py file or a folder holding one, got {str(path)!r}")
        return target
    named = target / f"{target.name}.py"
    if named.is_file():
        return named
    candidates = sorted(p for p in target.glob("player*.py") if p.is_file())
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise EngineStartError(f"folder {str(path)!r} holds no player file (expected {target.name}.py or player_N.py)")
    raise EngineStartError(f"folder {str(path)!r} holds several player files "
                           f"{[p.name for p in candidates]!r}; name the one to load")


def load_player_module(player_file: Path) -> ModuleType:
    """Import the player's file the course's way (see the module docstring); changes this
    process's working directory and ``sys.path``, so call it once per host process.

    EngineStartError, with the player's own error, for a syntax error, a failing import or a
    module without a ``Player`` class.
    """
    folder = player_file.parent
    module_name = _as_package_member(folder, player_file.stem)  # before the folder is on sys.path
    sys.path.insert(0, str(folder))
    os.chdir(folder)
    if not (folder / "utils.py").is_file() and "utils" not in sys.modules:
        sys.modules["utils"] = importlib.import_module(FALLBACK_UTILS_MODULE)
    spec = importlib.util.spec_from_file_location(module_name, player_file)
    if spec is None or spec.loader is None:
        raise EngineStartError(f"cannot import {str(player_file)!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    sys.modules.setdefault(player_file.stem, module)
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # a player's import may raise anything, SystemExit included
        raise EngineStartError(f"cannot load player {str(player_file)!r}: {describe_error(error)}") from None
    if "." in module_name:  # ``from player_1 import player_1`` gives the module, as in the course
        setattr(sys.modules[module_name.rsplit(".", 1)[0]], player_file.stem, module)
    if not isinstance(getattr(module, "Player", None), type):
        raise EngineStartError(f"player file {str(player_file)!r} defines no class Player")
    return module


def _as_package_member(folder: Path, stem: str) -> str:
    """The module name to load ``stem`` under: ``player_1.player_1`` as in the course's
    ``from player_1 import player_1`` (so relative imports in the player work) when the folder's
    name can be a package name that nothing else uses, else plain ``stem``."""
    package = folder.name
    if not package.isidentifier() or package in sys.modules:
        return stem
    try:
        found = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return stem
    if found is not None and (found.origin is None or Path(found.origin).resolve().parent != folder):
        return stem  # a real module of that name exists elsewhere: do not shadow it
    namespace = ModuleType(package)
    namespace.__path__ = [str(folder)]
    namespace.__package__ = package
    sys.modules[package] = namespace
    return f"{package}.{stem}"


def course_action(result: Any) -> tuple[int, int, int, int]:
    """A policy's return value as four ints, judged by value as the course does: any sequence of
    four integers (numpy integers included). PlayerMoveError for anything else."""
    try:
        length = len(result)
    except TypeError:
        raise PlayerMoveError(f"policy returned {result!r}, not a sequence of four integers") from None
    if isinstance(result, (str, bytes)) or length != 4:
        raise PlayerMoveError(f"policy returned {result!r}, not a sequence of four integers")
    try:
        return tuple(operator.index(value) for value in result)  # type: ignore[return-value]
    except TypeError:
        raise PlayerMoveError(f"policy returned {result!r}, not a sequence of four integers") from None


class CoursePlayerEngine:
    """An :class:`~xqdesk.engines.hosted.in_process.InProcessEngine` around a course ``Player``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.player_file = find_player_file(path)
        self.module = load_player_module(self.player_file)
        probe = self._construct("red")
        self.name = _player_name(probe, self.player_file)
        self._player: Any = None
        self._side: Optional[str] = None
        self._construction_error: Optional[str] = None

    def _construct(self, side: str) -> Any:
        try:
            return self.module.Player(side)
        except BaseException as error:
            raise EngineStartError(f"Player({side!r}) in {str(self.player_file)!r} raised {describe_error(error)}") from None

    def uci_options(self) -> tuple[UciOption, ...]:
        """None: a course player has no options."""
        return ()

    def set_option(self, name: str, value: OptionValue) -> None:
        raise EngineOptionError(f"a course player has no options, got {name!r}")

    def new_game(self) -> None:
        self._player = None
        self._side = None
        self._construction_error = None

    def prepare(self, board: Board) -> None:
        """Make this game's ``Player(side)`` for the side to move in ``board``, before the clock
        starts (the course makes its players before the game)."""
        side = color_name(board.turn)
        if self._player is not None and self._side == side:
            return
        self._player, self._side, self._construction_error = None, side, None
        try:
            self._player = self.module.Player(side)
        except BaseException as error:
            self._construction_error = f"Player({side!r}) raised {describe_error(error)}"

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """Ask the player for its action. PlayerMoveError when it gives none; a Move (legal or not,
        the referee judges) when it returns four integers on the board."""
        self.prepare(board)
        if self._player is None:
            raise PlayerMoveError(self._construction_error or "the player could not be made")
        try:
            self._player.update_history(list(board.course_history()))
            result = self._player.policy(board.to_course_board())
        except BaseException as error:  # SystemExit and KeyboardInterrupt are the player's faults too
            raise PlayerMoveError(f"policy raised {describe_error(error)}") from None
        on_info(SearchInfo(string=f"policy returned {result!r}"))
        action = course_action(result)
        try:
            return Move.from_course(action)
        except ValueError:
            raise PlayerMoveError(f"policy returned {result!r}, which is off the board") from None


def describe_error(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero (player_1.py, line 12)`` — the error and where."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, SystemExit):
        text = f"SystemExit (sys.exit({error.code!r}))"
    package = Path(__file__).resolve().parents[2]  # xqdesk itself: never where a player's error is
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.startswith("<") and package not in Path(frame.filename).resolve().parents]
    if frames:  # the player's own code (not Python's import machinery, e.g. "<frozen importlib._bootstrap>")
        last = frames[-1]
        text += f" ({Path(last.filename).name}, line {last.lineno})"
    return text


def _player_name(player: Any, player_file: Path) -> str:
    try:
        name = player.get_name() if hasattr(player, "get_name") else getattr(player, "name", "Player")
    except Exception:
        name = "Player"
    return f"{name} ({player_file.stem})"
