"""Kernels that promised never to index negatively are compiled without numba's wrap-around, and
keep the promise: the built-in engine's kernels run with numba's bounds checks on, where a negative
index raises instead of wrapping."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from numba import njit

from xqdesk.compiled_indexing import index_without_wraparound

ROOT = Path(__file__).resolve().parents[1]


def compiled_load(module_name: str) -> Callable[[np.ndarray, int], Any]:
    """``a[i]`` compiled with bounds checks as a function of the module ``module_name``."""
    namespace: dict[str, Any] = {"__name__": module_name}
    exec("def load(a, i):\n    return a[i]\n", namespace)
    return njit(boundscheck=True)(namespace["load"])


def test_a_module_that_promised_takes_a_negative_index_as_it_is() -> None:
    index_without_wraparound("xqdesk_tests.unwrapped_module")
    load = compiled_load("xqdesk_tests.unwrapped_module")
    assert load(np.arange(3), 2) == 2
    with pytest.raises(IndexError):
        load(np.arange(3), -1)  # read at -1 itself: the bounds check catches it


def test_other_modules_still_wrap_around() -> None:
    index_without_wraparound("xqdesk_tests.unwrapped_module")
    assert compiled_load("xqdesk_tests.wrapping_module")(np.arange(3), -1) == 2
    # a module whose name only starts like a promised one's is another module
    assert compiled_load("xqdesk_tests.unwrapped_module_2")(np.arange(3), -1) == 2


GAMES_WITH_BOUNDS_CHECKS = textwrap.dedent("""
    import threading
    from xqdesk.board import Board
    from xqdesk.engines.builtin import BuiltinEngine
    from xqdesk.engines.search_types import SearchLimits

    STARTS = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bakab2/5r3/4c1n2/p1p1n1pRp/9/2P1p1P2/Pr2P3P/B2RN1N2/4A4/2C1KAB2 w - - 5 16",
        "3k1ab2/4a4/4b4/p6r1/1N1PC1n1p/4nRB2/P3N3c/4B4/4A4/3A1K3 w - - 2 36",
        "3k5/4a4/9/9/9/9/9/2H6/4R4/5K3 w - - 0 1",
    ]
    engine = BuiltinEngine()
    engine.set_option("OwnBook", False)
    plies = 0
    for start in STARTS:
        board = Board(start)
        engine.new_game()
        while plies < 240 and not board.is_game_over() and board.ply() < 60:
            move = engine.search(board, SearchLimits(nodes=4000), threading.Event(), lambda info: None)
            board.push(move)
            plies += 1
    print(plies, "plies; perft 3:", Board(STARTS[1]).perft(3))
""")


@pytest.mark.slow
@pytest.mark.engines
def test_the_engine_kernels_never_index_an_array_negatively(tmp_path: Path) -> None:
    """Games of the built-in engine from the opening, a middlegame and two endgames (chases
    with checks, so the perpetual-check ban's kernel runs too), compiled afresh with every array
    access bounds-checked."""
    environment = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    result = subprocess.run([sys.executable, "-c", GAMES_WITH_BOUNDS_CHECKS], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "plies; perft 3:" in result.stdout
