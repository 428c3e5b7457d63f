#!/usr/bin/env python3
"""A small UCCI engine: greedy (takes the most valuable piece it can, else the first legal move),
on xqdesk's own board. It speaks UCCI as ElephantEye does, strictly:

* the first line must be ``ucci`` (anything else: it exits, as ElephantEye does);
* options without ``name``/``value``; ``setoption usemillisec true`` switches times to milliseconds;
* ``position fen F moves …`` must carry the position after the last capture: a capture among the
  moves is a protocol error (it says so and exits with code 3);
* ``banmoves`` forbids moves until the next ``position``;
* ``go`` answers ``nobestmove`` when the current position already occurred in the moves given
  (a repetition, which it judges drawn, as ElephantEye does); ``go infinite`` thinks until ``stop``;
* ``stop`` while idle answers ``nobestmove`` (as ElephantEye does);
* its option ``offer`` (none, draw, resign) adds that word after its moves.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from xqdesk.board import Board  # noqa: E402
from xqdesk.move import Move  # noqa: E402

VALUES = {1: 10, 2: 20, 3: 20, 4: 40, 5: 45, 6: 90, 7: 10000}  # pawn … king (xqdesk.pieces)


def say(*lines: str) -> None:
    print("\n".join(lines), flush=True)


def value(code: int) -> int:
    return VALUES.get(abs(code), 0)


def choose(board: Board, banned: set) -> Move:
    moves = [move for move in board.legal_moves if move not in banned]
    if not moves:
        return None
    return max(moves, key=lambda move: value(board.code_at(move.to_square)))


def main() -> int:
    first = sys.stdin.readline().strip()
    if first != "ucci":
        return 0
    say("id name Greedy UCCI", "id author xqdesk tests",
        "option usemillisec type check default false",
        "option hashsize type spin min 1 max 64 default 16",
        "option offer type combo var none var draw var resign default none",
        "option newgame type button",
        "ucciok")
    millisec = False
    offer = "none"
    board = Board()
    history: list = []
    banned: set = set()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "isready":
            say("readyok")
        elif command == "setoption" and len(words) >= 2:
            if words[1] == "usemillisec":
                millisec = len(words) > 2 and words[2] in ("true", "on")
            elif words[1] == "offer" and len(words) > 2:
                offer = words[2]
            elif words[1] == "newgame":
                board, history, banned = Board(), [], set()
        elif command == "position":
            rest = raw.split(None, 1)[1].strip()
            if not rest.startswith("fen "):
                say("info string error: only 'position fen' is understood here")
                return 3
            fen, _, moves = rest[4:].partition(" moves ")
            board = Board(fen.strip())
            history = [board.zobrist_hash()]
            for text in moves.split():
                move = Move.from_iccs(text)
                if board.is_capture(move):
                    say(f"info string error: capture {text} in the moves: not the position after the last capture")
                    return 3
                board.push(move)
                history.append(board.zobrist_hash())
            banned = set()
        elif command == "banmoves":
            banned = {Move.from_iccs(text) for text in words[1:]}
        elif command == "go":
            unit = "ms" if millisec else "s"
            if "time" in words:
                say(f"info string time {words[words.index('time') + 1]} {unit}")
            if history.count(board.zobrist_hash()) > 1:
                say("nobestmove")
                continue
            move = choose(board, banned)
            if move is None:
                say("nobestmove")
                continue
            score = value(board.code_at(move.to_square))
            say(f"info depth 1 score {score} pv {move.iccs()}", "info time 1 nodes 40")
            if "infinite" in words:
                line = sys.stdin.readline().split()
                while line and line[0] not in ("stop", "quit"):
                    if line[0] == "isready":
                        say("readyok")
                    line = sys.stdin.readline().split()
                time.sleep(0.01)
            say(f"bestmove {move.iccs()}" + ("" if offer == "none" else f" {offer}"))
        elif command == "stop":
            say("nobestmove")
        elif command == "quit":
            say("bye")
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
