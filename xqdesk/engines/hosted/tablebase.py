"""Engines that read endgame tablebases (:mod:`xqdesk.egtb`).

:func:`table_lines` turns a covered position into search reports (mate scores and the table's
principal variations), which both the built-in engine (option ``TablebasePath``) and the
:class:`TablebaseEngine` (spec ``egtb:DIR``, an analysis engine) send. A table's mate in ``d``
plies is reported as UCI ``mate`` in moves: ``(d + 1) // 2`` when the side to move wins,
``-(d // 2)`` when it is mated.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Optional, Sequence

from xqdesk.board import Board
from xqdesk.egtb import MissingTableError, Tablebase, TableValue
from xqdesk.egtb.fileformat import TableFileError
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.options import OptionValue, UciOption, spin_value
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.move import Move
from xqdesk.score import Cp, Mate, PovScore, Score

PV_PLIES = 40
"""How far a reported line follows the table's best moves."""
MAX_MULTIPV = 16
PATH_OPTION = UciOption("TablebasePath", "string", default="")
"""The directory of ``.xqtb`` files; empty: no tables."""


def table_score(value: TableValue) -> Score:
    """The UCI score of a table value for the side to move (mate in moves, or 0.00 for a draw)."""
    if value.dtm is None:
        return Cp(0)
    return Mate((value.dtm + 1) // 2) if value.is_win else Mate(-(value.dtm // 2))


def principal_variation(tablebase: Tablebase, board: Board, first: Move, plies: int = PV_PLIES) -> tuple[Move, ...]:
    """``first`` and then the table's best move at each ply (fastest win, longest defence) until
    mate, a draw or ``plies`` moves."""
    replay = board.copy()
    line = [first]
    replay.push(first)
    while len(line) < plies:
        try:
            moves = tablebase.best_moves(replay)
        except (MissingTableError, ValueError):
            break
        if not moves or moves[0][1].is_draw:
            break
        line.append(moves[0][0])
        replay.push(moves[0][0])
    return tuple(line)


def table_lines(tablebase: Tablebase, board: Board, allowed: Optional[Sequence[Move]] = None,
                multipv: int = 1) -> list[tuple[TableValue, SearchInfo]]:
    """The best ``multipv`` of the legal moves (or of ``allowed``) by the tables, each with its
    value and a report; raises MissingTableError when a table is missing."""
    scored = tablebase.best_moves(board)
    if allowed is not None:
        keep = set(allowed)
        scored = [(move, value) for move, value in scored if move in keep]
    lines: list[tuple[TableValue, SearchInfo]] = []
    for rank, (move, value) in enumerate(scored[:max(multipv, 1)], start=1):
        pv = principal_variation(tablebase, board, move)
        lines.append((value, SearchInfo(depth=len(pv), seldepth=len(pv), score=PovScore(table_score(value), board.turn),
                                        nodes=len(scored), pv=pv, multipv=rank)))
    return lines


class TablebaseCache:
    """The :class:`Tablebase` of the directory an option names, opened once."""

    def __init__(self) -> None:
        self.path = ""
        self._tablebase: Optional[Tablebase] = None

    def set_path(self, path: str) -> None:
        """Use the tables in ``path`` (empty: none); EngineOptionError when it is not a directory."""
        path = path.strip()
        if path and not Path(path).expanduser().is_dir():
            raise EngineOptionError(f"option 'TablebasePath': {path!r} is not a directory")
        self.path = path
        self._tablebase = Tablebase(Path(path).expanduser()) if path else None

    @property
    def tablebase(self) -> Optional[Tablebase]:
        """The tables of the directory (None when no directory is set)."""
        return self._tablebase

    def covering(self, board: Board) -> Optional[Tablebase]:
        """The tablebase when it holds ``board``'s position, else None."""
        if self._tablebase is not None and self._tablebase.covers(board):
            return self._tablebase
        return None


class TablebaseEngine:
    """An analysis engine that only reads tables: for a covered position it reports every best move
    with its mate distance (MultiPV) and plays the fastest win or the longest defence. For a
    position no table covers it says which table is missing (``info string``) and plays no move."""

    name = "xqdesk tablebase"

    def __init__(self, directory: str = "") -> None:
        self._tables = TablebaseCache()
        self._multipv = 1
        if directory:
            try:
                self._tables.set_path(directory)
            except EngineOptionError as error:
                raise EngineOptionError(f"egtb:{directory}: {error}") from None

    def uci_options(self) -> tuple[UciOption, ...]:
        return (UciOption("TablebasePath", "string", default=self._tables.path),
                UciOption("MultiPV", "spin", default="1", min=1, max=MAX_MULTIPV))

    def set_option(self, name: str, value: OptionValue) -> None:
        """Apply a checked value (see :func:`~xqdesk.engines.hosted.in_process.apply_option`)."""
        if name == "TablebasePath":
            self._tables.set_path("" if value is None else str(value))
        elif name == "MultiPV":
            self._multipv = spin_value(name, value)
        else:
            raise EngineOptionError(f"{self.name} has no option {name!r} (it has: TablebasePath, MultiPV)")

    def new_game(self) -> None:
        """Nothing to forget: tables do not change."""

    def search(self, board: Board, limits: SearchLimits, stop: threading.Event,
               on_info: Callable[[SearchInfo], None]) -> Optional[Move]:
        """The table's best move; None (with the reason as ``info string``) when no table covers
        the position."""
        allowed = list(limits.searchmoves) if limits.searchmoves else None
        multipv = limits.multipv if limits.multipv > 1 else self._multipv
        best: Optional[Move] = None
        tablebase = self._tables._tablebase
        if tablebase is None:
            on_info(SearchInfo(string="no tablebase directory: set the option TablebasePath"))
        else:
            try:
                lines = table_lines(tablebase, board, allowed, multipv)
            except (MissingTableError, TableFileError, ValueError) as error:
                on_info(SearchInfo(string=" ".join(str(error).split())))
            else:
                for _value, info in lines:
                    on_info(info)
                best = lines[0][1].pv[0] if lines else None
        if limits.infinite:
            stop.wait()
        return best
