"""Tablebase distances checked against an independent search: Fairy-Stockfish, depth-limited,
finds a mate of exactly the table's length where the table says mate in 15 plies or fewer (losses
checked move by move), and no mate where the table says draw — Fairy-Stockfish playing Xiangqi
with every repetition a draw, as the tables do. (The run over hundreds of
positions per table is ``bench/egtb.py --fairy N``.)"""
import shutil
from pathlib import Path

import pytest

from xqdesk.egtb import Tablebase
from xqdesk.engines.analysis.tablebase_check import MateChecker, sample_positions

pytestmark = pytest.mark.engines

FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not Path(FAIRY).is_file(),
                                 reason="Fairy-Stockfish is not installed (CI installs the Debian package)")


@needs_fairy
@pytest.mark.parametrize("name", ["KRKA", "KHKAA", "KPKB"])
def test_fairy_stockfish_finds_mates_of_exactly_the_tables_length(egtb_dir, name):
    tablebase = Tablebase(egtb_dir)
    positions = sample_positions(tablebase, name, wins=8, losses=4, draws=4, seed=15)
    assert sum(dtm is None for _, dtm in positions) == 4 and sum(dtm is not None and dtm % 2 == 1
                                                                  for _, dtm in positions) == 8
    if name == "KRKA":
        assert sum(dtm is not None and dtm % 2 == 0 for _, dtm in positions) == 4
    with MateChecker([FAIRY]) as checker:
        faults = [fault for fen, dtm in positions if (fault := checker.check(tablebase, fen, dtm))]
    assert faults == []


@needs_fairy
def test_the_check_catches_a_wrong_distance(egtb_dir):
    tablebase = Tablebase(egtb_dir)
    with MateChecker([FAIRY]) as checker:
        assert checker.check(tablebase, "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w", 5) is None
        assert "table mate 2" in checker.check(tablebase, "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w", 3)
        assert "mates faster" in checker.check(tablebase, "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w", 7)
        assert "the longest defence takes 6 plies" in checker.check(tablebase, "3a1k3/9/9/9/9/9/9/3K5/9/8R b", 8)
        assert "the table says draw" in checker.check(tablebase, "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w", None)
