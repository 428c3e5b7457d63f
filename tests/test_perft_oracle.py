"""Perft from known positions, and our legal moves against Fairy-Stockfish's rules library."""
import random
import re
import subprocess
import sys

import pytest

from xqdesk import Board
from xqdesk.fen import STARTING_FEN

sf = pytest.importorskip("pyffish", reason="pyffish (the test oracle) is not installed")

MIDDLEGAMES = [
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P3P1P/2N1C1N2/4A4/2B1KAB2 w - - 0 1",
    "3k5/4a4/4ba3/p3C4/9/2B6/P3c3P/4B4/4A4/3AK4 b - - 0 1",
]


def uci_to_iccs(move: str) -> str:
    """Fairy-Stockfish numbers ranks 1–10; ICCS numbers them 0–9."""
    squares = re.findall(r"[a-i]\d+", move)
    return "".join(s[0] + str(int(s[1:]) - 1) for s in squares)


def oracle_moves(fen: str) -> set[str]:
    return {uci_to_iccs(m) for m in sf.legal_moves("xiangqi", fen, [])}


@pytest.mark.slow
def test_start_position_perft():
    board = Board()
    assert [board.perft(d) for d in (1, 2, 3, 4)] == [44, 1920, 79666, 3290240]


@pytest.mark.parametrize("fen", MIDDLEGAMES)
def test_middlegame_perft_matches_the_oracle(fen):
    board = Board(fen)

    def oracle_perft(position_fen: str, depth: int) -> int:
        moves = sf.legal_moves("xiangqi", position_fen, [])
        if depth == 1:
            return len(moves)
        return sum(oracle_perft(sf.get_fen("xiangqi", position_fen, [m]), depth - 1) for m in moves)

    assert board.perft(2) == oracle_perft(fen, 2)


@pytest.mark.slow
def test_random_games_agree_with_the_oracle_move_by_move():
    rng = random.Random(2024)
    positions = 0
    for _game in range(20):
        board = Board()
        for _ply in range(150):
            fen = board.fen()
            ours = {m.iccs() for m in Board(fen).legal_moves}  # no history: the course's perpetual rule is off
            assert ours == oracle_moves(fen), fen
            positions += 1
            if not ours:
                break
            board.push_iccs(rng.choice(sorted(ours)))
    assert positions > 800


def test_perft_command_prints_the_count_last():
    result = subprocess.run([sys.executable, "-m", "xqdesk", "perft", "--fen", STARTING_FEN, "--depth", "3"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "79666"
    divide = subprocess.run([sys.executable, "-m", "xqdesk", "perft", "--depth", "2", "--divide"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    assert divide[-1] == "1920" and len(divide) == 45 and divide[0].startswith("a0a1: ")


def test_perft_command_reports_bad_fen():
    result = subprocess.run([sys.executable, "-m", "xqdesk", "perft", "--fen", "9/9 w", "--depth", "1"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "has 2 ranks" in result.stderr
