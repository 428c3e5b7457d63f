"""A tiny UCI engine that says it is Fairy-Stockfish and plays Xiangqi (``UCI_Variant xiangqi``,
ranks 1–10): it answers every search with the first legal move of the position, as xqdesk's rules
find it, and reports one line of depth 1. Installed on ``PATH`` as ``fairy-stockfish`` by tests that
check the first start finds the engine."""
from __future__ import annotations

import sys

from xqdesk.board import Board


def _fairy(iccs: str) -> str:
    """ICCS (ranks 0–9) as Fairy-Stockfish writes it (ranks 1–10)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def _iccs(fairy: str) -> str:
    rest = fairy[1:]
    digits = rest[:2] if rest[1].isdigit() else rest[:1]
    target = rest[len(digits):]
    return f"{fairy[0]}{int(digits) - 1}{target[0]}{int(target[1:]) - 1}"


def main() -> None:
    board = Board()
    pending = ""

    def answer() -> None:
        move = min((move.iccs() for move in board.legal_moves), default=None)
        if move is None:
            print("bestmove (none)", flush=True)
            return
        print(f"info depth 1 score cp 12 nodes 1 time 1 pv {_fairy(move)}", flush=True)
        print(f"bestmove {_fairy(move)}", flush=True)

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Fairy-Stockfish (test double)", flush=True)
            print("option name UCI_Variant type combo default chess var chess var xiangqi", flush=True)
            print("option name Hash type spin default 16 min 1 max 1024", flush=True)
            print("uciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            fen = "startpos"
            if words[1] == "fen":
                end = words.index("moves") if "moves" in words else len(words)
                fen = " ".join(words[2:end])
            board = Board() if fen == "startpos" else Board(fen)
            if "moves" in words:
                for move in words[words.index("moves") + 1:]:
                    board.push_iccs(_iccs(move))
        elif words[0] == "go":
            if "infinite" in words:
                pending = "infinite"
                print(f"info depth 1 score cp 12 nodes 1 time 1 pv {_fairy(min(m.iccs() for m in board.legal_moves))}",
                      flush=True)
            else:
                answer()
        elif words[0] == "stop" and pending:
            pending = ""
            answer()
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
