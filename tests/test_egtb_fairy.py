"""Tablebase distances checked against an independent search: Fairy-Stockfish, depth-limited,
must find a mate of exactly the table's length where the table says mate in 15 plies or fewer,
and no mate where the table says draw. (The full run over hundreds of positions per table is
``bench/egtb.py --verify``.)"""
import random
import shutil
import time
from pathlib import Path

import pytest

from xqdesk.board import Board
from xqdesk.egtb import Signature, Tablebase, kernels
from xqdesk.egtb.layout import Layout
from xqdesk.egtb.verify import entry_fen
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.uci_engine import UciEngine

FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not Path(FAIRY).is_file(),
                                 reason="Fairy-Stockfish is not installed (CI installs the Debian package)")
MAX_DTM = 15
DEPTHS = (lambda dtm: dtm + 4, lambda dtm: 2 * dtm + 6, lambda dtm: 32)
"""Deeper and deeper searches: a depth-limited search may first report a longer mate."""


def fairy_mate(engine: UciEngine, fen: str, depth: int) -> int | None:
    """Fairy-Stockfish's mate score in moves (negative: mated) at ``depth``, None without a mate."""
    engine.new_game()
    result = engine.search(fen, [], SearchLimits(depth=depth), time.monotonic() + 60)
    scores = [info.score for info in result.infos if info.score is not None]
    return scores[-1].relative.mate() if scores and scores[-1].is_mate() else None


def sample(tablebase: Tablebase, name: str, wanted: int, draws: int, seed: int) -> list[tuple[str, int | None]]:
    """``(fen, dtm)`` of random legal positions: ``wanted`` with a mate of 1..15 plies, ``draws`` draws."""
    layout = Layout(Signature.parse(name))
    values = tablebase._table(name, "").values
    rng = random.Random(seed)
    decided: list[tuple[str, int | None]] = []
    drawn: list[tuple[str, int | None]] = []
    for _ in range(200_000):
        if len(decided) >= wanted and len(drawn) >= draws:
            break
        index, side = rng.randrange(layout.size), rng.randrange(2)
        code = int(values[side, index])
        fen = entry_fen(layout, index, side)
        if fen is None or code == kernels.ILLEGAL:
            continue
        if code == kernels.DRAW and len(drawn) < draws:
            drawn.append((fen, None))
        elif kernels.DTM_BASE < code <= kernels.DTM_BASE + MAX_DTM and len(decided) < wanted:
            decided.append((fen, code - kernels.DTM_BASE))
    return decided + drawn


@needs_fairy
@pytest.mark.parametrize("name", ["KRKA", "KHKAA", "KPKB"])
def test_fairy_stockfish_finds_mates_of_exactly_the_tables_length(egtb_dir, name):
    tablebase = Tablebase(egtb_dir)
    positions = sample(tablebase, name, wanted=12, draws=4, seed=15)
    assert len(positions) == 16
    engine = UciEngine([FAIRY], options={"Hash": "16"})
    engine.start()
    try:
        for fen, dtm in positions:
            if dtm is None:
                assert fairy_mate(engine, fen, 16) is None, f"{fen}: the table says draw"
            elif dtm % 2:
                check_win(engine, fen, dtm)
            else:
                # A depth-limited search misjudges the longest defence, so a loss is checked move by
                # move: every reply is a win for the other side, the slowest exactly one ply shorter.
                board = Board(fen)
                longest = 0
                for move in board.legal_moves:
                    board.push(move)
                    child = tablebase.probe(board)
                    assert child.is_win, f"{fen}: {move.iccs()} escapes a table loss ({child})"
                    check_win(engine, board.fen(), child.dtm)
                    longest = max(longest, child.dtm)
                    board.pop()
                assert longest == dtm - 1, f"{fen}: the longest defence takes {longest + 1} plies, table {dtm}"
    finally:
        engine.quit()


def check_win(engine: UciEngine, fen: str, dtm: int) -> None:
    """Fairy-Stockfish finds a mate of exactly ``dtm`` plies, and never a faster one."""
    expected = (dtm + 1) // 2
    found = [fairy_mate(engine, fen, depth(dtm)) for depth in DEPTHS]
    assert expected in found, f"{fen}: table mate in {expected} (dtm {dtm}), Fairy-Stockfish {found}"
    faster = [m for m in found if m is not None and 0 < m < expected]
    assert not faster, f"{fen}: Fairy-Stockfish mates faster than the table ({faster} vs {expected})"
