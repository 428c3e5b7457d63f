"""A UCI engine for Western chess (no UCI_Variant option): it answers e2e4 whatever the position."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Chessy\noption name Hash type spin default 16 min 1 max 1024\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        print("bestmove e2e4", flush=True)
    elif command == "quit":
        break
