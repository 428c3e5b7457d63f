"""Checking tablebase distances against an independent engine (Fairy-Stockfish).

A won position (mate in ``d`` plies, ``d`` odd): the engine must report a mate in exactly
``(d + 1) // 2`` moves — from a search of depth ``d + 4``, else from a mate search (UCI
``go mate``, bounded by :data:`MATE_SEARCH_MS`), else by finding the position after the table's
move mated in exactly one move less — and never a shorter one. A lost position (``d`` even, ``d > 0``): a depth-limited search misjudges the longest
defence, so the position is checked move by move: every reply must be a table win for the other
side, each checked as above, and the slowest exactly ``d - 1`` plies. A drawn position: no mate
at depth :data:`DRAW_DEPTH`.

The engine plays by the tables' rules: Fairy-Stockfish is given a variant (:data:`TABLE_RULES`)
that is Xiangqi with repetition a draw whoever checks or chases — its own Xiangqi makes perpetual
check and perpetual chasing lose, which turns some table draws (a horse checking for ever) into
wins.
"""
from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence

from xqdesk.board import Board
from xqdesk.egtb import Signature, Tablebase, kernels
from xqdesk.egtb.layout import Layout
from xqdesk.egtb.verify import entry_fen
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec
from xqdesk.engines.transport.uci import UciDialect

MAX_DTM = 15
"""Distances checked (plies); longer mates are beyond a quick depth-limited search."""
DEPTH_MARGIN = 4
"""The first search goes this many plies deeper than the table's mate."""
MATE_SEARCH_MS = 20_000
FALLBACKS = 2
"""How many times down a line a missed mate is checked through the table's move instead."""
"""The time a ``go mate`` search may take when the depth-limited one reported a longer mate."""
DRAW_DEPTH = 16
SEARCH_SECONDS = 60.0
CONTRADICTION = "contradiction:"
"""How a fault starts when the engine proves the table wrong (a faster mate, a mate in a draw …)."""
UNCONFIRMED = "unconfirmed:"
"""How a fault starts when the engine only failed to find the table's mate in its time."""
TABLE_VARIANT = "xiangqitables"
TABLE_RULES = f"""[{TABLE_VARIANT}:xiangqi]
perpetualCheckIllegal = false
chasingRule = none
nFoldValue = draw
"""
"""A Fairy-Stockfish variant file: Xiangqi where any repetition is a draw, as in the tables."""


class MateChecker:
    """Fairy-Stockfish (or any UCI engine with mate scores) as the independent judge."""

    def __init__(self, command: Sequence[str]) -> None:
        self.engine = EngineSpec(Path(command[0]).name, tuple(command), {"Hash": "16"}).engine()
        self._rules = Path()
        self.tablebase: Optional[Tablebase] = None
        """The tables whose best move :meth:`check_win` plays when the engine misses a mate."""

    def __enter__(self) -> MateChecker:
        identity = self.engine.start()
        self._rules = Path(tempfile.mkdtemp(prefix="xqdesk-tables-")) / "variants.ini"
        self._rules.write_text(TABLE_RULES, encoding="utf-8")
        if identity.dialect is UciDialect.FAIRY:
            self.engine.send_line(f"setoption name VariantPath value {self._rules}")
            self.engine.send_line(f"setoption name UCI_Variant value {TABLE_VARIANT}")
            self.engine.wait_ready(SEARCH_SECONDS)
        return self

    def __exit__(self, *exc: object) -> None:
        self.engine.quit()
        shutil.rmtree(self._rules.parent, ignore_errors=True)

    def mate(self, fen: str, depth: int) -> Optional[int]:
        """The engine's mate score in moves (negative: mated) at ``depth``; None without a mate."""
        self.engine.new_game()
        result = self.engine.search(fen, [], SearchLimits(depth=depth), time.monotonic() + SEARCH_SECONDS)
        scores = [info.score for info in result.infos if info.score is not None]
        return scores[-1].relative.mate() if scores and scores[-1].is_mate() else None

    def mate_search(self, fen: str, moves: int) -> Optional[int]:
        """The engine's mate score from ``go mate moves`` (a search for a mate in at most that many
        moves), None when it finds none within :data:`MATE_SEARCH_MS`."""
        self.engine.new_game()
        self.engine.position(fen, [])
        self.engine.send_line(f"go mate {moves} movetime {MATE_SEARCH_MS}")
        result = self.engine.wait_bestmove(time.monotonic() + SEARCH_SECONDS)
        scores = [info.score for info in result.infos if info.score is not None]
        return scores[-1].relative.mate() if scores and scores[-1].is_mate() else None

    def check_win(self, fen: str, dtm: int, fallbacks: int = FALLBACKS) -> Optional[str]:
        """None when the engine finds a mate of exactly ``dtm`` plies and no faster one (where it
        misses the mate, the table's move is played and the reply position checked as a loss, at
        most ``fallbacks`` times down the line)."""
        expected = (dtm + 1) // 2
        found = [self.mate(fen, dtm + DEPTH_MARGIN)]
        if expected not in found:
            found.append(self.mate_search(fen, expected))
        if expected not in found and dtm > 1 and fallbacks > 0 and self.tablebase is not None and not any(
                m is not None and 0 < m < expected for m in found):
            # The search may prune the one quiet move that mates fastest: play the table's move and
            # check the reply position as a loss in one ply less, reply by reply.
            board = Board(fen)
            board.push(self.tablebase.best_moves(board)[0][0])
            if self._check_loss(board.fen(), dtm - 1, fallbacks - 1) is None:
                return None
        if any(m is not None and 0 < m < expected for m in found):
            return f"{CONTRADICTION} {fen}: the engine mates faster than the table ({found} vs mate {expected}, {dtm} plies)"
        if expected not in found:
            return f"{UNCONFIRMED} {fen}: table mate {expected} ({dtm} plies), the engine found {found}"
        return None

    def check(self, tablebase: Tablebase, fen: str, dtm: Optional[int]) -> Optional[str]:
        """None when the engine agrees with the table's ``dtm`` (None: draw) for ``fen``."""
        self.tablebase = tablebase
        if dtm is None:
            found = self.mate(fen, DRAW_DEPTH)
            return None if found is None else f"{CONTRADICTION} {fen}: the table says draw, the engine mate {found}"
        if dtm % 2:
            return self.check_win(fen, dtm)
        return self._check_loss(fen, dtm, FALLBACKS)

    def _check_loss(self, fen: str, dtm: int, fallbacks: int) -> Optional[str]:
        tablebase = self.tablebase
        if tablebase is None:
            raise ValueError("no tablebase to check against")
        board = Board(fen)
        longest = -1
        for move in list(board.legal_moves):
            board.push(move)
            child = tablebase.probe(board)
            if not child.is_win or child.dtm is None:
                return f"{CONTRADICTION} {fen}: {move.iccs()} escapes a table loss ({child})"
            fault = self.check_win(board.fen(), child.dtm, fallbacks)
            if fault:
                return fault
            longest = max(longest, child.dtm)
            board.pop()
        if longest != dtm - 1:
            return f"{CONTRADICTION} {fen}: the longest defence takes {longest + 1} plies, the table says {dtm}"
        return None


def sample_positions(tablebase: Tablebase, name: str, wins: int, losses: int, draws: int,
                     seed: int, tries: int = 200_000) -> list[tuple[str, Optional[int]]]:
    """``(fen, dtm)`` of random legal positions of table ``name``: up to ``wins`` won and ``losses``
    lost in 1..:data:`MAX_DTM` plies, then up to ``draws`` draws (dtm None), from ``tries`` draws
    of a random entry."""
    layout = Layout(Signature.parse(name))
    values = tablebase._table(name, "").values
    rng = random.Random(seed)
    wanted = {1: wins, 0: losses}
    found: dict[int, list[tuple[str, Optional[int]]]] = {1: [], 0: []}
    drawn: list[tuple[str, Optional[int]]] = []
    for _ in range(tries):
        if len(found[1]) >= wins and len(found[0]) >= losses and len(drawn) >= draws:
            break
        index, side = rng.randrange(layout.size), rng.randrange(2)
        code = int(values[side, index])
        dtm = code - kernels.DTM_BASE
        if code == kernels.DRAW:
            if len(drawn) >= draws:
                continue
        elif not (0 < dtm <= MAX_DTM) or len(found[dtm % 2]) >= wanted[dtm % 2]:
            continue
        fen = entry_fen(layout, index, side)
        if fen is None:
            continue
        if code == kernels.DRAW:
            drawn.append((fen, None))
        else:
            found[dtm % 2].append((fen, dtm))
    return found[1] + found[0] + drawn
